/**
 * A console session as the console's page opens one, for the tests that need
 * one to test something else (a stream, a token rule); the session itself is
 * console-session.test.ts's.
 */

/** What a browser on the console's own page at `url` sends with every request. */
const ownPage = (url: string) => ({ Origin: url, 'Sec-Fetch-Site': 'same-origin' });

/** Signs in at `url` with `token`: the answer's status, and the headers every request of the session carries (the cookie, the anti-forgery value). */
export async function consoleSignIn(url: string, token: string): Promise<{ status: number; cookie: string; headers: Record<string, string> }> {
  const own = ownPage(url);
  const response = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { ...own, 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const { csrf } = (await response.json()) as { csrf: string };
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { status: response.status, cookie, headers: { ...own, Cookie: cookie, 'X-Portico-CSRF': csrf } };
}
