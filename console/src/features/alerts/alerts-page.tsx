import { useState, type FormEvent } from 'react';
import type { AnswerOf } from '@portico/platform/api';
import { CONTROL_API } from '@portico/releases/control-contract';
import { useAction } from '../../api/use-action';
import { useLoad } from '../../api/use-load';
import { OutcomeLine } from '../../components/outcome';
import { useConsoleText } from '../../i18n/use-console-text';

/** Where alerts go (a signed webhook, an e-mail address) and the failure rate that raises one. */
export function AlertsPage() {
  const text = useConsoleText();
  const t = text.alerts;
  const settings = useLoad((session) => session.client.call(CONTROL_API.alerts.show, {}), [], ['alerts']);
  // The page's, so a save's outcome stays when the saved settings come back and the form is made anew.
  const action = useAction();
  return (
    <>
      <h1>{t.heading}</h1>
      <p>{t.intro}</p>
      {settings.error && <p role="alert">{settings.error}</p>}
      {settings.data && <AlertsForm key={JSON.stringify(settings.data)} settings={settings.data} action={action} />}
      <OutcomeLine outcome={action.outcome} />
    </>
  );
}

interface AlertsFormProps {
  settings: AnswerOf<typeof CONTROL_API.alerts.show>;
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
      () => t.saved,
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
