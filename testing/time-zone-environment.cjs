// The node test environment, run in the time zone named by the test file:
//
//   /**
//    * @jest-environment ../testing/time-zone-environment.cjs
//    * @jest-environment-options {"timeZone": "Asia/Kolkata"}
//    */
//
// Setting process.env.TZ inside a test file changes nothing: jest hands each
// file a copy of process.env, and only the real one tells V8 the zone. An
// environment runs outside the sandbox, so it can set the real one, and put
// it back for the next file this worker runs.
const { TestEnvironment } = require('jest-environment-node');

class TimeZoneEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const { timeZone } = config.projectConfig.testEnvironmentOptions;
    if (typeof timeZone !== 'string' || timeZone === '') {
      throw new Error(`${context.testPath}: time-zone-environment needs @jest-environment-options {"timeZone": "..."}`);
    }
    this.timeZone = timeZone;
  }

  async setup() {
    this.previousTimeZone = process.env.TZ;
    process.env.TZ = this.timeZone;
    await super.setup();
  }

  async teardown() {
    if (this.previousTimeZone === undefined) delete process.env.TZ;
    else process.env.TZ = this.previousTimeZone;
    await super.teardown();
  }
}

module.exports = TimeZoneEnvironment;
