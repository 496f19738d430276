import type { Logger } from '@portico/platform/logging';
import { backoffSeconds } from '@portico/platform/notices';
import type { MessageStore } from '../store/message-store';
import type { Channel } from './channels';

export interface DelivererOptions {
  store: Pick<MessageStore, 'claimDeliveries' | 'markDelivered' | 'markFailed'>;
  channels: readonly Channel[];
  log: Logger;
  /** How often to look for due deliveries when nothing wakes the deliverer. */
  pollMs?: number;
  /** Deliveries claimed at once. */
  batch?: number;
  /** After this many failed attempts a message is marked failed. */
  maxAttempts?: number;
  /** The wait before attempt n + 1 after attempt n failed. */
  retryDelaySeconds?: (attempt: number) => number;
  /** How long a claim lasts: longer than any channel's time-out. */
  leaseSeconds?: number;
}

export interface Deliverer {
  /** Looks for due deliveries now (a message was just stored). */
  wake(): void;
  /** Finishes the deliveries under way and stops. */
  stop(): Promise<void>;
}

/**
 * Sends queued messages to every channel. Each server process runs one; they
 * share the work through the store's claims, so several processes on one
 * database deliver each message once. A channel that took a message is not
 * sent it again when another channel fails and the message is retried.
 */
export function startDeliverer(options: DelivererOptions): Deliverer {
  const pollMs = options.pollMs ?? 1000;
  const batch = options.batch ?? 10;
  const maxAttempts = options.maxAttempts ?? 10;
  const retryDelay = options.retryDelaySeconds ?? ((attempt: number) => backoffSeconds(attempt));
  const leaseSeconds = options.leaseSeconds ?? 120;

  let running = true;
  let wakeUp: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let woken = false;

  const sleep = () =>
    new Promise<void>((resolve) => {
      if (woken || !running) {
        resolve();
        return;
      }
      wakeUp = resolve;
      timer = setTimeout(resolve, pollMs);
    }).finally(() => {
      clearTimeout(timer);
      wakeUp = undefined;
    });

  const deliverOne = async ({ message, attempt, channelsDone }: Awaited<ReturnType<typeof options.store.claimDeliveries>>[number]) => {
    const done = [...channelsDone];
    const errors: string[] = [];
    for (const channel of options.channels) {
      if (done.includes(channel.name)) continue;
      try {
        await channel.send(message);
        done.push(channel.name);
      } catch (error) {
        errors.push(`${channel.name}: ${(error as Error).message}`);
      }
    }
    if (errors.length === 0) return options.store.markDelivered(message.id, done);
    const final = attempt >= maxAttempts;
    const error = errors.join('; ');
    // The channels' own words (a status, a connection error), never the message's.
    options.log.error(
      { messageId: message.id, attempt, maxAttempts, final, problem: error },
      final ? 'contact: delivery failed, given up' : 'contact: delivery failed, tried again later',
    );
    return options.store.markFailed(message.id, { error, channelsDone: done, retryInSeconds: final ? undefined : retryDelay(attempt) });
  };

  const loop = async () => {
    while (running) {
      // A wake-up from here on finds this pass's claim already made, so the next sleep is skipped.
      woken = false;
      let claimed: Awaited<ReturnType<typeof options.store.claimDeliveries>> = [];
      try {
        claimed = await options.store.claimDeliveries(batch, leaseSeconds);
      } catch (error) {
        options.log.error({ err: error }, 'contact: cannot read the delivery queue');
      }
      if (claimed.length === 0) {
        await sleep();
        continue;
      }
      await Promise.all(
        claimed.map((delivery) =>
          deliverOne(delivery).catch((error: unknown) => {
            // The claim's lease runs out and the message is tried again.
            options.log.error({ err: error, messageId: delivery.message.id }, 'contact: cannot record a delivery');
          }),
        ),
      );
    }
  };
  const finished = loop();

  return {
    wake() {
      woken = true;
      wakeUp?.();
    },
    async stop() {
      running = false;
      wakeUp?.();
      await finished;
      for (const channel of options.channels) channel.close?.();
    },
  };
}
