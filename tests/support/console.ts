import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** The console's origin for a server on `port`: the control port, PORT+4. */
export const consoleOrigin = (port: number) => `http://localhost:${port + 4}`;

/** Signs in on the console's page as a person would: the token pasted once. */
export async function signIn(page: Page, port: number, token: string): Promise<void> {
  await page.goto(`${consoleOrigin(port)}/`);
  await page.getByRole('textbox', { name: 'Token' }).fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/** A session made through the API (as a script in a browser could): its CSRF value, the cookie kept by `request`. */
export async function apiSession(request: APIRequestContext, port: number, token: string): Promise<string> {
  const answer = await request.post(`${consoleOrigin(port)}/api/session`, { data: { token }, headers: { Origin: consoleOrigin(port) } });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { csrf: string }).csrf;
}
