import { randomUUID } from 'node:crypto';
import { backoffSeconds, postSigned, type NoticeMailer } from '@portico/platform/notices';
import type { Logger } from '@portico/platform/logging';
import type { HealthSource } from '../release';
import type { ReleaseStore } from '../store/release-store';
import { systemClock, type JobClock } from './job-clock';

/** An alert waiting in the outbox (console_alerts). */
interface QueuedAlert {
  event_id: string;
  kind: string;
  section: string | null;
  release: string | null;
  detail: string;
  created_at: Date | string;
  attempts: number;
  channels_done: string[];
}

export interface AlertSenderOptions {
  store: ReleaseStore;
  /** PORTICO_WEBHOOK_SECRET: alerts are signed as the contact webhook's messages are; without it no webhook is sent. */
  secret?: string;
  /** The mail channel's SMTP settings (PORTICO_SMTP_URL…); without them no e-mail is sent. */
  mailer?: NoticeMailer;
  /** The releases' health, for the failure-rate alert; without it none is raised. */
  health?: HealthSource;
  /** A failed send or a read that cannot be made: error (an operator misses an alert). */
  log: Logger;
  /** How often the outbox is looked at (1 s by default). */
  pollMs?: number;
  /** How often the active releases' failure rate is checked (a minute by default). */
  checkEveryMs?: number;
  /** After this many failed attempts an alert is given up (10: about 2.5 hours of retries). */
  maxAttempts?: number;
  /** The wait before attempt n + 1 (backoffSeconds by default, as contact delivery). */
  retryDelaySeconds?: (attempt: number) => number;
  /** How long a claim lasts: longer than a send's time-out. */
  leaseSeconds?: number;
  /** The time and the timers (the system's by default; a test's hand-turned one). */
  clock?: JobClock;
}

export interface AlertSender {
  /** What this server can send: a webhook needs PORTICO_WEBHOOK_SECRET, an e-mail PORTICO_SMTP_URL. */
  readonly canSend: AlertChannels;
  /** A test alert to every channel the settings name, now (not through the outbox): each channel's outcome. */
  sendTest(actor: string): Promise<AlertOutcome[]>;
  /** Sends what is due now (tests; the poll does it otherwise). */
  sendDue(): Promise<void>;
  /** Checks the failure rates now (tests; a timer does it otherwise). */
  checkFailureRates(now?: Date): Promise<void>;
  /** The outbox now, for the metrics: alerts still to send, the oldest one's age, and those given up. */
  outbox(): Promise<{ waiting: number; oldestSeconds: number; givenUp: number }>;
  stop(): Promise<void>;
}

/** Which channels a server can send alerts through. */
interface AlertChannels {
  webhook: boolean;
  mail: boolean;
}

/** One channel's answer to one alert: `sent`, or the reason it was not. */
interface AlertOutcome {
  channel: 'webhook' | 'mail';
  sent: boolean;
  detail: string;
}

/** A failure rate counts once this many visits back it: a handful of visits is not an hour of failing. */
const FAILURE_RATE_MIN_VISITS = 20;
const SEND_TIMEOUT_MS = 10_000;
const HOUR_MS = 3_600_000;

/** The webhook's JSON body: the event, nothing of any visitor. */
function alertPayload(alert: Pick<QueuedAlert, 'event_id' | 'kind' | 'section' | 'release' | 'detail' | 'created_at'>): string {
  return JSON.stringify({
    id: alert.event_id,
    kind: alert.kind,
    section: alert.section,
    release: alert.release,
    detail: alert.detail,
    at: new Date(alert.created_at).toISOString(),
  });
}

/**
 * Sends the alerts' outbox to the webhook (signed with the contact
 * webhook's header and function) and the e-mail address the settings
 * name. Every server runs one; a claim (a lease, rows locked and skipped)
 * makes each attempt one server's, and a channel that took an alert is
 * not sent it again. It runs on its own timers: no page or API answer
 * waits on it. It also raises the failure-rate alert: an active release
 * without a canary whose failure rate over the last whole hour reached the
 * threshold, once per release.
 */
export function startAlertSender(options: AlertSenderOptions): AlertSender {
  const { store, log } = options;
  const db = store.db;
  const maxAttempts = options.maxAttempts ?? 10;
  const retryDelay = options.retryDelaySeconds ?? ((attempt: number) => backoffSeconds(attempt));
  const leaseSeconds = options.leaseSeconds ?? 60;
  const clock = options.clock ?? systemClock;

  /** Up to 10 due alerts, claimed for a lease; `tried`: those this pass sent already (a failed one is due again at the next pass, not in this one). */
  const claim = (tried: readonly string[]) =>
    db.query<QueuedAlert>(
      `UPDATE console_alerts SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $1)
       WHERE event_id IN (SELECT event_id FROM console_alerts WHERE delivered_at IS NULL AND next_attempt_at <= now() AND attempts < $2 AND NOT (event_id = ANY($3::text[]))
                          ORDER BY created_at LIMIT 10 FOR UPDATE SKIP LOCKED)
       RETURNING event_id, kind, section, release, detail, created_at, attempts, channels_done`,
      [leaseSeconds, maxAttempts, tried],
    );

  const sendOne = async (alert: QueuedAlert): Promise<void> => {
    const settings = await store.alertSettings.get();
    const done = new Set(alert.channels_done);
    const problems: string[] = [];
    for (const outcome of await sendToChannels(options, settings, alert, done)) {
      if (outcome.sent) done.add(outcome.channel);
      else problems.push(`${outcome.channel}: ${outcome.detail}`);
    }
    if (problems.length === 0) {
      await db.query('UPDATE console_alerts SET delivered_at = now(), channels_done = $2::text[], last_error = NULL WHERE event_id = $1', [
        alert.event_id,
        [...done],
      ]);
      return;
    }
    const error = problems.join('; ');
    const final = alert.attempts >= maxAttempts;
    log.error(
      { alert: alert.event_id, kind: alert.kind, attempt: alert.attempts, final, problem: error },
      final ? 'alerts: an alert was not sent, given up' : 'alerts: an alert was not sent, tried again later',
    );
    await db.query(
      'UPDATE console_alerts SET channels_done = $2::text[], last_error = $3, next_attempt_at = now() + make_interval(secs => $4) WHERE event_id = $1',
      [alert.event_id, [...done], error, final ? 0 : retryDelay(alert.attempts)],
    );
  };

  let sending: Promise<void> = Promise.resolve();
  const sendDue = () =>
    (sending = sending.then(async () => {
      try {
        const tried: string[] = [];
        for (let batch = await claim(tried); batch.length > 0; batch = await claim(tried)) {
          tried.push(...batch.map((alert) => alert.event_id));
          await Promise.all(batch.map(sendOne));
        }
      } catch (error) {
        log.error({ err: error }, 'alerts: the outbox cannot be read now (tried again)');
      }
    }));

  const checkFailureRates = async (now = clock.now()) => {
    const { failureRateThreshold: threshold } = await store.alertSettings.get();
    if (threshold === null || !options.health) return;
    const states = await store.releases.sectionStates();
    const lastHour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - HOUR_MS);
    // Every live section's, the added ones' too.
    for (const [section, state] of Object.entries(states)) {
      if (!state.active || state.canary) continue;
      const health = (await options.health(section, [state.active.id], lastHour))[state.active.id];
      if (!health || health.visits < FAILURE_RATE_MIN_VISITS || health.failureRate < threshold) continue;
      const detail = `the active release ${state.active.id} failed ${health.failures} of ${health.visits} visits since ${lastHour.toISOString()} (${(health.failureRate * 100).toFixed(1)}%, the threshold is ${(threshold * 100).toFixed(1)}%) without a canary`;
      await db.query("INSERT INTO console_alerts (event_id, kind, section, release, detail) VALUES ($1, 'failure-rate', $2, $3, $4) ON CONFLICT DO NOTHING", [
        `failure-rate-${state.active.id}`,
        section,
        state.active.id,
        detail,
      ]);
    }
  };

  const stopPolling = clock.every(options.pollMs ?? 1000, () => void sendDue());
  const stopChecking = clock.every(
    options.checkEveryMs ?? 60_000,
    () => void checkFailureRates().catch((error: unknown) => log.error({ err: error }, 'alerts: the failure rates cannot be read now')),
  );
  return {
    canSend: { webhook: options.secret !== undefined && options.secret !== '', mail: options.mailer !== undefined },
    async sendTest(actor) {
      const at = clock.now();
      const alert = { event_id: `test-${randomUUID()}`, kind: 'test', section: null, release: null, detail: `a test alert sent by ${actor}`, created_at: at };
      return sendToChannels(options, await store.alertSettings.get(), alert, new Set());
    },
    sendDue,
    checkFailureRates,
    async outbox() {
      const [row] = await db.query<{ waiting: number; oldest: number | null; given_up: number }>(
        `SELECT count(*) FILTER (WHERE attempts < $1)::integer AS waiting,
                extract(epoch FROM now() - min(created_at) FILTER (WHERE attempts < $1))::float8 AS oldest,
                count(*) FILTER (WHERE attempts >= $1)::integer AS given_up
           FROM console_alerts WHERE delivered_at IS NULL`,
        [maxAttempts],
      );
      return { waiting: row?.waiting ?? 0, oldestSeconds: row?.oldest ?? 0, givenUp: row?.given_up ?? 0 };
    },
    async stop() {
      stopPolling();
      stopChecking();
      await sending;
      options.mailer?.close();
    },
  };
}

/**
 * One alert to each channel the settings name and `done` does not hold:
 * the webhook (signed as the contact webhook's messages are) and the
 * e-mail. The outbox and a test alert send alike, so a test's outcome is
 * what a real alert's would be.
 */
async function sendToChannels(
  options: Pick<AlertSenderOptions, 'secret' | 'mailer'>,
  settings: { webhookUrl: string | null; email: string | null },
  alert: Pick<QueuedAlert, 'event_id' | 'kind' | 'section' | 'release' | 'detail' | 'created_at'>,
  done: ReadonlySet<string>,
): Promise<AlertOutcome[]> {
  const body = alertPayload(alert);
  const attempt = async (channel: AlertOutcome['channel'], send: () => Promise<string>): Promise<AlertOutcome> => {
    try {
      return { channel, sent: true, detail: await send() };
    } catch (error) {
      return { channel, sent: false, detail: (error as Error).message };
    }
  };
  const outcomes: Promise<AlertOutcome>[] = [];
  const { webhookUrl, email } = settings;
  if (webhookUrl && !done.has('webhook')) {
    outcomes.push(
      attempt('webhook', async () => {
        if (!options.secret) throw new Error('no PORTICO_WEBHOOK_SECRET to sign it with');
        const status = await postSigned({
          url: webhookUrl,
          secret: options.secret,
          body,
          headers: { 'Idempotency-Key': alert.event_id, 'X-Portico-Alert-Id': alert.event_id },
          timeoutMs: SEND_TIMEOUT_MS,
        });
        return `the webhook answered ${status}`;
      }),
    );
  }
  if (email && !done.has('mail')) {
    outcomes.push(
      attempt('mail', async () => {
        if (!options.mailer) throw new Error('no PORTICO_SMTP_URL to send it through');
        await options.mailer.send({
          to: email,
          id: alert.event_id,
          subject: `Portico alert: ${alert.kind}${alert.section ? ` on ${alert.section}` : ''}`,
          text: `${alert.detail}\n\n${body}\n`,
        });
        return `the mail server took it for ${email}`;
      }),
    );
  }
  return Promise.all(outcomes);
}
