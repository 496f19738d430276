// What the operator's commands share: running as a process, text made safe
// for a terminal, and the actor of what a command does with no token.
export { LOCAL_ACTOR_PREFIX, localActor } from './local-actor';
export { runCommand, type CommandIo } from './run-command';
export { terminalSafeJson, terminalText } from './terminal-text';
