/**
 * Records every string written to document.cookie while still letting jsdom
 * store it. jsdom does not give attributes back on reading (document.cookie
 * shows name=value only), so the raw string is the only place to see them.
 */
export function recordCookieWrites(): { writes: string[]; stop: () => void } {
  const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  if (!descriptor?.get || !descriptor.set) throw new Error('jsdom no longer defines Document.prototype.cookie');
  const { get, set } = descriptor;
  const writes: string[] = [];
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get() {
      return get.call(document);
    },
    set(value: string) {
      writes.push(value);
      set.call(document, value);
    },
  });
  return {
    writes,
    stop: () => {
      delete (document as { cookie?: string }).cookie;
    },
  };
}

/** The attributes of one Set-Cookie style string, names lower-cased. */
export function attributesOf(written: string): Map<string, string> {
  const [, ...parts] = written.split('; ');
  return new Map(
    parts.map((part) => {
      const [name = '', value = ''] = part.split('=');
      return [name.toLowerCase(), value];
    }),
  );
}
