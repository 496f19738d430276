import { expect, type Locator, type Page, type Request } from '@playwright/test';
import { stopClock } from './page-clock';

/**
 * `POST /api/contact` as the browser tests meet it. Every answer the tests
 * script is given here, in one place, in the shape the contract in the README
 * says the server gives it; the form above it runs for real in the browser.
 *
 * The success case does not depend on the fake: `serverStoresMessages` is the
 * only call a success test makes, and the tests assert on the request the page
 * sent and on what the visitor sees, never on the fake's bookkeeping. Once the
 * test site serves the real endpoint, set `PORTICO_REAL_CONTACT_API=1` (or
 * make `serverStoresMessages` a no-op) and those tests post to the real server.
 */
export type ContactAnswer =
  /**
   * An HTTP answer: `json` is sent as application/json, `body` with
   * `contentType`; after `delayMs`, or once `after` settles (a test holding
   * the page in its sending state).
   */
  | {
      status: number;
      json?: unknown;
      body?: string;
      contentType?: string;
      headers?: Record<string, string>;
      delayMs?: number;
      after?: Promise<unknown>;
    }
  /** The connection fails before any answer (offline, reset). */
  | { abort: true }
  /** No answer ever: the form's own 60 s timer has to end it. */
  | { hang: true };

const REAL_CONTACT_API = process.env.PORTICO_REAL_CONTACT_API === '1';

const CONTACT_URL = '**/api/contact';

/** What the server says once it has stored a message; the delay lets a test see the busy button. */
const STORED: ContactAnswer = { status: 201, json: { id: 'b1d5c0de-0000-4000-8000-000000000001' }, delayMs: 600 };

/**
 * Answers the page's posts to /api/contact with `answers` in turn; the last
 * one repeats. A hanging answer is released when the page goes away.
 */
export async function answerContact(page: Page, ...answers: ContactAnswer[]): Promise<void> {
  const script = [...answers];
  await page.route(CONTACT_URL, async (route) => {
    const answer = script.length > 1 ? script.shift()! : script[0]!;
    if ('hang' in answer) return;
    if ('abort' in answer) return route.abort('connectionreset');
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    await answer.after;
    const json = answer.json !== undefined;
    await route
      .fulfill({
        status: answer.status,
        headers: answer.headers,
        contentType: json ? 'application/json; charset=utf-8' : (answer.contentType ?? 'text/plain; charset=utf-8'),
        body: json ? JSON.stringify(answer.json) : (answer.body ?? ''),
      })
      // The page may have been closed, or the form given up, while the answer waited.
      .catch(() => undefined);
  });
}

/** The server stores every message (201 after a short delay), or the real server does. */
export async function serverStoresMessages(page: Page): Promise<void> {
  if (!REAL_CONTACT_API) await answerContact(page, STORED);
}

export interface ContactPost {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** Every post the page makes to /api/contact, as it left the page (whoever answers it). */
export function watchContactPosts(page: Page): ContactPost[] {
  const posts: ContactPost[] = [];
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/api/contact') return;
    posts.push({ url: request.url(), headers: request.headers(), body: request.postDataJSON() as Record<string, unknown> });
  });
  return posts;
}

/**
 * A visitor's send on the shown Contact form, both of the specification's
 * 1 s toasts on a stopped clock: Send with nothing typed ("Please provide
 * complete information!"), then filled in as Asha ("Submit successfully！").
 * The page's clock is left stopped; the caller resumes it when it wants the
 * answer's effects.
 */
export async function sendWithBothToasts(page: Page, contact: Locator): Promise<void> {
  const send = contact.getByRole('button', { name: 'Send message' });
  // Stopped, so each 1 s toast is there for as long as its check takes.
  await stopClock(page, send);
  await send.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please provide complete information!' })).toBeVisible();
  await contact.getByLabel('Name').fill('Asha');
  await contact.getByLabel('Telephone').fill('+91 98765 43210');
  await contact.getByLabel('Message').fill('When can I apply?');
  await page.clock.runFor(1000);
  await send.click();
  await expect(page.getByRole('status')).toHaveText('Submit successfully！');
}
