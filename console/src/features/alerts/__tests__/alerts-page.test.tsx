import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeControlApi, session, signedInBefore, type Answer } from '../../../__tests__/fake-control-api';
import { ConsoleApp } from '../../../app/console-app';

// Issue 49: the alerts said "saved" when nothing could be sent (no webhook secret, no mail server), which only the server's log told.
// (Checked: these fail without the change: no "What can be delivered", no "Send a test alert".)

const WEBHOOK = 'https://ops.lender.example/alerts';

async function openAlerts(shown: Record<string, unknown>, test: Answer = { body: { outcomes: [] } }) {
  const api = fakeControlApi({
    'GET /api/session': session(['releases', 'messages']),
    'GET /api/sections': { body: {} },
    'GET /api/alerts': { body: shown },
    'PUT /api/alerts': (request) => ({ body: { ...shown, ...(request.body as object) } }),
    'POST /api/alerts/test': test,
  });
  window.location.hash = '#/alerts';
  signedInBefore();
  render(<ConsoleApp />);
  await screen.findByRole('heading', { name: 'Alerts', level: 1 });
  return { api, user: userEvent.setup() };
}

describe('the alerts', () => {
  it('says the webhook cannot be sent without the secret it is signed with, nor e-mail without a mail server', async () => {
    await openAlerts({ webhookUrl: WEBHOOK, email: 'ops@lender.example', failureRateThreshold: null, canSend: { webhook: false, mail: false } });
    const deliverable = await screen.findByRole('region', { name: 'What can be delivered' });
    expect(within(deliverable).getByText(/^Webhook: cannot be sent\. This server has no PORTICO_WEBHOOK_SECRET/)).toBeInTheDocument();
    expect(within(deliverable).getByText(/^E-mail: cannot be sent\. This server has no mail server/)).toBeInTheDocument();
    expect(within(deliverable).getByText('No alert can be delivered as things are: nothing reaches anyone.')).toBeInTheDocument();
  });

  it('says a save reaches nobody, rather than just "saved"', async () => {
    const { user } = await openAlerts({ webhookUrl: null, email: null, failureRateThreshold: null, canSend: { webhook: false, mail: true } });
    await user.type(await screen.findByRole('textbox', { name: 'Webhook URL' }), WEBHOOK);
    await user.click(screen.getByRole('button', { name: 'Save alerts' }));
    expect(await screen.findByText('Alerts saved, but none can be delivered: see what can be delivered below.')).toBeInTheDocument();
  });

  it('says where each alert goes when it can be sent', async () => {
    await openAlerts({ webhookUrl: WEBHOOK, email: null, failureRateThreshold: 0.05, canSend: { webhook: true, mail: false } });
    const deliverable = await screen.findByRole('region', { name: 'What can be delivered' });
    expect(within(deliverable).getByText(`Webhook: each alert is sent to ${WEBHOOK}, signed with PORTICO_WEBHOOK_SECRET.`)).toBeInTheDocument();
    expect(within(deliverable).getByText('E-mail: no address set.')).toBeInTheDocument();
    expect(within(deliverable).queryByText(/nothing reaches anyone/)).not.toBeInTheDocument();
  });

  it("sends a test alert and shows each channel's outcome", async () => {
    const { api, user } = await openAlerts(
      { webhookUrl: WEBHOOK, email: 'ops@lender.example', failureRateThreshold: null, canSend: { webhook: true, mail: false } },
      {
        body: {
          outcomes: [
            { channel: 'webhook', sent: true, detail: 'the webhook answered 200' },
            { channel: 'mail', sent: false, detail: 'no PORTICO_SMTP_URL to send it through' },
          ],
        },
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Send a test alert' }));
    expect(await screen.findByText('Webhook: sent (the webhook answered 200). E-mail: not sent: no PORTICO_SMTP_URL to send it through.')).toBeInTheDocument();
    expect(api.to('POST /api/alerts/test')).toHaveLength(1);
  });

  it('says when a test alert had nowhere to go', async () => {
    const { user } = await openAlerts({ webhookUrl: null, email: null, failureRateThreshold: null, canSend: { webhook: true, mail: true } });
    await user.click(await screen.findByRole('button', { name: 'Send a test alert' }));
    expect(await screen.findByText('No test alert was sent: set a webhook or an e-mail address first.')).toBeInTheDocument();
  });
});
