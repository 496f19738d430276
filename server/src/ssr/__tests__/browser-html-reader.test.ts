import { BrowserHtmlReader, readAsBrowser } from '../browser-html';

// The parse of a section's HTML runs on a thread of its own so that a big
// section does not hold the event loop (every visitor's answer, every page's
// deadline): slow-compression.test.ts's first answer took 1.4 s against a
// 400 ms budget in a CI run while two 250 KB sections were parsed on it.

const ATTRIBUTE = 'data-form-texts';
let reader: BrowserHtmlReader;
beforeEach(() => {
  reader = new BrowserHtmlReader();
});
afterEach(() => reader.close());

/** About 250 KB of what a section renders: the size at which a parse costs a visitor. */
const big = `<div id="home-list">${Array.from({ length: 6000 }, (_, i) => `<p class="item">Line ${i} of the list</p>`).join('')}</div>`;

test('the thread reads HTML as the in-process parse does, the ways a container can be ended early included', async () => {
  const samples = [
    big,
    '<div\u00a0></div><div\u00a0></div><section\u00a0></section><div class="escaped">out</div>',
    '<p>one<p>two</div></div><li>three',
    '<table><tr><td>cell</td></tr><form>inside</form></table>',
    '<svg><foreignObject><p>html</p></foreignObject></svg>',
  ];
  const read = await Promise.all(samples.map((text) => reader.read(text, ATTRIBUTE)));
  expect(read.map(({ html }) => html)).toEqual(samples.map(readAsBrowser));
});

test("the thread takes the form's words for the server out of the HTML and gives them back apart", async () => {
  expect(await reader.read(`<p ${ATTRIBUTE}="a">x</p><form ${ATTRIBUTE}="w"><input></form>`, ATTRIBUTE)).toEqual({
    html: '<p>x</p><form><input></form>',
    taken: 'w',
  });
});

test('the event loop goes on while a big section is parsed', async () => {
  let parsed = false;
  const reading = reader.read(big, ATTRIBUTE).then(() => {
    parsed = true;
  });
  // A parse on the event loop would have finished before this turn comes; 250 KB takes tens of milliseconds at best.
  await new Promise((resolve) => setImmediate(resolve));
  expect(parsed).toBe(false);
  await reading;
  expect(parsed).toBe(true);
});

test('HTML the parser cannot write out is refused, and the thread answers the next section', async () => {
  // Nesting past the serialiser's stack.
  const deep = '<span>'.repeat(200_000);
  await expect(reader.read(deep, ATTRIBUTE)).rejects.toThrow(/call stack/i);
  expect(await reader.read('<p>next</p>', ATTRIBUTE)).toEqual({ html: '<p>next</p>', taken: undefined });
});

test('a thread that stopped is started again for the next read', async () => {
  expect((await reader.read('<b>first</b>', ATTRIBUTE)).html).toBe('<b>first</b>');
  await reader.close();
  expect((await reader.read('<i>second</i>', ATTRIBUTE)).html).toBe('<i>second</i>');
});
