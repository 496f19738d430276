// What the operator's commands share: running as a process, text made safe
// for a terminal, the actor of what a command does with no token, and the
// one client of the control API.
export { ControlSettingsError, ControlUnreachableError, controlClient, type ControlClient } from './control-client';
export { LOCAL_ACTOR_PREFIX, localActor } from './local-actor';
export { runCommand, type CommandIo } from './run-command';
export { terminalSafeJson, terminalText } from './terminal-text';
