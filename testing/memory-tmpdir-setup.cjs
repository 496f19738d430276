// jest globalSetup of the root run: the run's scratch files in memory (src/memory-tmpdir.ts). Jest runs
// the projects' own setups first; the embedded database's makes the folder before its template, so
// this one finds it made, or makes it for a run of projects without a database.
module.exports = () => {
  require('./src/memory-tmpdir.ts').useMemoryTmpdir();
};
