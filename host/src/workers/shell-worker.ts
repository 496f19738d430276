/**
 * The shell worker: a process of its own, started by `npm run serve` with a
 * scrubbed environment and Node's permission model, that renders the page
 * around the sections on request (JSON lines on file descriptor 3). It runs the host's code only; each section is rendered
 * by a sandboxed section worker of its own (section-worker.ts).
 */
import type { FromShellWorker, ToShellWorker } from '@portico/node-sections/protocol';
import { renderShell } from './render-shell';
import { workerChannel } from './worker-channel';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const send = workerChannel<ToShellWorker, FromShellWorker>((message) => {
  if (message.type !== 'render') return;
  renderShell(message.page).then(
    (shell) => send({ type: 'shell', id: message.id, ...shell }),
    (error: unknown) => send({ type: 'failed', id: message.id, reason: messageOf(error) }),
  );
});
send({ type: 'ready' });
