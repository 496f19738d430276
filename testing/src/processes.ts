/**
 * How long a test gives a Node process it starts (`node --import tsx …`) to
 * be ready or, for a command, to run to its end. Starting tsx takes about a
 * second here and ten times that on a machine whose cores are busy with
 * something else (a shared CI runner, `npm run test:soak`): a test asserts
 * what the process did, never how fast it started, so the bound is generous.
 */
export const PROCESS_START_MS = 120_000;
