import type { Database } from '@portico/platform/database';

/** Where alerts go and when an active release's failure rate raises one; null: nowhere, never. */
export interface AlertSettingsValue {
  webhookUrl: string | null;
  email: string | null;
  failureRateThreshold: number | null;
}

/** The alerts' settings, one row every server reads. */
export class AlertSettings {
  constructor(private readonly db: Database) {}

  async get(): Promise<AlertSettingsValue> {
    const [row] = await this.db.query<{ webhook_url: string | null; email: string | null; failure_rate_threshold: number | null }>(
      'SELECT webhook_url, email, failure_rate_threshold FROM console_alert_settings',
    );
    return { webhookUrl: row?.webhook_url ?? null, email: row?.email ?? null, failureRateThreshold: row?.failure_rate_threshold ?? null };
  }

  /** Changes what `change` names (null clears it), keeps the rest; answers the settings now. */
  async set(change: Partial<AlertSettingsValue>): Promise<AlertSettingsValue> {
    const next = { ...(await this.get()), ...change };
    await this.db.query(
      `INSERT INTO console_alert_settings (one, webhook_url, email, failure_rate_threshold) VALUES (true, $1, $2, $3)
       ON CONFLICT (one) DO UPDATE SET webhook_url = excluded.webhook_url, email = excluded.email, failure_rate_threshold = excluded.failure_rate_threshold`,
      [next.webhookUrl, next.email, next.failureRateThreshold],
    );
    return next;
  }
}
