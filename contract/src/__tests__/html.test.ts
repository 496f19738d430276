import { escapeHtml, scriptSafeJson } from '../html';

test('text and attribute values: every character that could end an attribute or start a tag is escaped', () => {
  expect(escapeHtml(`"><script>alert('x')</script>&amp;`)).toBe('&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;amp;');
});

test('JSON in a script element cannot end the element, open a comment or break a line, and parses back unchanged', () => {
  const hostile = { text: '</script><script>alert(1)</script><!-- & \u2028\u2029 >' };
  const json = scriptSafeJson(hostile);
  expect(json).not.toMatch(/[<>&\u2028\u2029]/);
  expect(scriptSafeJson({ text: '</script><!--&\u2028\u2029>' })).toBe('{"text":"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029\\u003e"}');
  expect(JSON.parse(json)).toEqual(hostile);
});
