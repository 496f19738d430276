import { useState, type FormEvent } from 'react';
import { type AnswerOf, CONTROL_API, deliverable } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import { useAction } from '../../api/use-action';
import { useLoad } from '../../api/use-load';
import { OutcomeLine } from '../../components/outcome';
import { useConsoleText } from '../../i18n/use-console-text';

type Settings = AnswerOf<typeof CONTROL_API.alerts.show>;

/** Where alerts go (a signed webhook, an e-mail address), what can be delivered, a test alert, and the failure rate that raises one. */
export function AlertsPage() {
  const text = useConsoleText();
  const t = text.alerts;
  const settings = useLoad((session) => session.client.call(CONTROL_API.alerts.show, {}), [], ['alerts']);
  // The page's, so a save's outcome stays when the saved settings come back and the form is made anew.
  const action = useAction(settings.reload);
  const testing = useAction();
  const sendTest = () =>
    void testing.run(
      (session) => session.client.call(CONTROL_API.alerts.test, { body: {} }),
      ({ outcomes }) =>
        outcomes.length === 0
          ? t.testNothing
          : outcomes
              .map((outcome) => fill(outcome.sent ? t.testSent : t.testNotSent, { channel: t.channels[outcome.channel], detail: outcome.detail }))
              .join(' '),
    );
  const shown = settings.data && deliverable(settings.data, t);
  return (
    <>
      <h1>{t.heading}</h1>
      <p>{t.intro}</p>
      {settings.error && <p role="alert">{settings.error}</p>}
      {settings.data && <AlertsForm key={JSON.stringify(settings.data)} settings={settings.data} action={action} />}
      <OutcomeLine outcome={action.outcome} />
      {shown && (
        <section aria-labelledby="alerts-deliverable">
          <h2 id="alerts-deliverable">{t.deliverableHeading}</h2>
          <ul className={shown.any ? undefined : 'flags'}>
            {shown.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <button type="button" disabled={testing.busy} onClick={sendTest}>
            {t.test}
          </button>
          <OutcomeLine outcome={testing.outcome} />
        </section>
      )}
    </>
  );
}

interface AlertsFormProps {
  settings: Settings;
  action: ReturnType<typeof useAction>;
}

function AlertsForm({ settings, action }: AlertsFormProps) {
  const t = useConsoleText().alerts;
  const [form, setForm] = useState({
    webhookUrl: settings.webhookUrl ?? '',
    email: settings.email ?? '',
    threshold: settings.failureRateThreshold === null ? '' : String(settings.failureRateThreshold * 100),
  });
  const save = (event: FormEvent) => {
    event.preventDefault();
    void action.run(
      (session) =>
        session.client.call(CONTROL_API.alerts.set, {
          body: { webhookUrl: form.webhookUrl || null, email: form.email || null, failureRateThreshold: form.threshold ? Number(form.threshold) / 100 : null },
        }),
      (saved) => (deliverable(saved, t).any ? t.saved : t.savedNothing),
    );
  };
  return (
    <form onSubmit={save} className="stacked">
      <label htmlFor="alert-webhook">{t.webhookUrl}</label>
      <input id="alert-webhook" type="url" value={form.webhookUrl} onChange={(event) => setForm({ ...form, webhookUrl: event.target.value })} />
      <label htmlFor="alert-email">{t.email}</label>
      <input id="alert-email" type="email" value={form.email} onChange={(event) => setForm({ ...form, email: event.target.value })} />
      <label htmlFor="alert-threshold">{t.threshold}</label>
      <input
        id="alert-threshold"
        type="number"
        min={0.1}
        max={100}
        step={0.1}
        value={form.threshold}
        onChange={(event) => setForm({ ...form, threshold: event.target.value })}
      />
      <button type="submit" className="primary" disabled={action.busy}>
        {t.save}
      </button>
    </form>
  );
}
