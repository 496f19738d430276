import { emptyFields, formKey, readContactForm } from '../http/contact-form';

// The form sent without JavaScript, read (issue 49). The route's answers are
// tested in server/src/__tests__/contact-form.test.ts.

const read = (body: string) => {
  const result = readContactForm(body);
  if (!result.ok) throw new Error(result.error);
  return result.form;
};

test('reads the fields as a browser encodes them, line ends as the script reads them', () => {
  const form = read('language=id&name=Asha+Rao&telephone=%2B62+812&message=one%0D%0Atwo&website=');
  expect(form).toEqual({ values: { name: 'Asha Rao', telephone: '+62 812', message: 'one\ntwo' }, language: 'id', trap: '' });
});

test('a missing field is empty, spaces count as empty, an unknown language is English', () => {
  const form = read('language=fr&name=%20%20&message=hi');
  expect(form.language).toBe('en');
  expect(emptyFields(form)).toEqual(['name', 'telephone']);
});

test.each([
  ['an unknown field', 'name=a&idempotencyKey=chosen'],
  ['a prototype key', 'name=a&__proto__=x'],
  ['a field twice', 'name=a&name=b'],
])('refuses %s', (_case, body) => {
  expect(readContactForm(body).ok).toBe(false);
});

test("the form's key is the same for the same message from the same network, and differs otherwise", () => {
  const form = read('language=en&name=Asha&telephone=1&message=hi');
  expect(formKey(form, '203.0.113.5')).toBe(formKey(form, '203.0.113.5'));
  expect(formKey(form, '2001:db8::1')).toBe(formKey(form, '2001:db8::2'));
  expect(formKey(form, '203.0.113.5')).not.toBe(formKey(form, '203.0.113.6'));
  expect(formKey(read('language=en&name=Asha&telephone=1&message=hi!'), '203.0.113.5')).not.toBe(formKey(form, '203.0.113.5'));
  expect(formKey(form, '203.0.113.5')).toMatch(/^[A-Za-z0-9_-]{43}$/);
});
