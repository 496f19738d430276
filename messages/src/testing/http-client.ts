import { request } from 'node:http';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: () => Record<string, unknown>;
}

/** A raw HTTP request on loopback: any bytes, any headers (Origin included). */
export function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) as Record<string, unknown> });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A message as the Contact form sends it. */
export function formBody(key: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Asha Rao', telephone: '+91 98765 43210', message: 'Please call me about a loan.', language: 'en', idempotencyKey: key, ...overrides };
}

/** POSTs JSON as the page on `origin` would. */
export function postContact(base: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return send(`${base}/api/contact`, {
    headers: { 'Content-Type': 'application/json', Origin: base, ...headers },
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
}
