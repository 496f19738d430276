import { runCommand } from '@portico/platform/command-line';
import { releaseCommand } from './release-command';

runCommand(releaseCommand, __filename, {});
