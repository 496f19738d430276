import { isChinese, isDecimal, isEmail, isInteger, isPhone, isUrl } from '../validators';

describe('isEmail', () => {
  test.each(['support@portico.example', 'a.b+loan@mail.co.id', 'x@sub-domain.example.in', "o'neil@example.com"])('accepts %p', (value) =>
    expect(isEmail(value)).toBe(true),
  );
  test.each([
    '',
    'support',
    'support@',
    '@portico.example',
    'support@localhost',
    'two@@example.com',
    'space in@example.com',
    'support@-example.com',
    'support@example-.com',
    'support@example..com',
    ` support@portico.example`,
    `${'a'.repeat(250)}@ex.com`,
  ])('rejects %p', (value) => expect(isEmail(value)).toBe(false));
});

describe('isPhone', () => {
  test.each(['13812345678', '+919876543210', '08123456789', '12345678', '123456789012345', '+628123456789'])('accepts %p', (value) =>
    expect(isPhone(value)).toBe(true),
  );
  test.each(['', '1234567', '1234567890123456', '+', '++919876543210', '98765 43210', '987-654-3210', '(0)8123456789', '9876543210+', '٩٨٧٦٥٤٣٢١٠'])(
    'rejects %p',
    (value) => expect(isPhone(value)).toBe(false),
  );
});

describe('isChinese', () => {
  test.each(['中文', '借款', '\u3400', '\u{20000}', '\u9FA5'])('accepts %p', (value) => expect(isChinese(value)).toBe(true));
  test.each(['', 'abc', '中文abc', '中 文', '中文。', 'ひらがな', '한국어', '\u2E80', '\uF900', '\u{2F800}', '1中'])('rejects %p', (value) =>
    expect(isChinese(value)).toBe(false),
  );
});

describe('isUrl', () => {
  test.each(['https://portico.example', 'http://localhost:8080/path?q=1#top', 'HTTPS://EXAMPLE.COM', 'https://例子.测试/'])('accepts %p', (value) =>
    expect(isUrl(value)).toBe(true),
  );
  test.each([
    '',
    'portico.example',
    '//portico.example',
    'ftp://portico.example',
    'javascript:alert(1)',
    'http:portico.example',
    'http://',
    'https://exa mple.com',
    ' https://portico.example',
    'https://portico.example\n',
    'https://[::1',
  ])('rejects %p', (value) => expect(isUrl(value)).toBe(false));
});

describe('isInteger', () => {
  test.each(['0', '42', '-7', '+007', '12345678901234567890'])('accepts %p', (value) => expect(isInteger(value)).toBe(true));
  test.each(['', '-', '1.0', '1e3', ' 1', '1 ', '1,000', '0x10', '٣'])('rejects %p', (value) => expect(isInteger(value)).toBe(false));
});

describe('isDecimal', () => {
  test.each(['3', '-0.5', '+12.50', '0.0001', '2000'])('accepts %p', (value) => expect(isDecimal(value)).toBe(true));
  test.each(['', '.5', '5.', '-', '1.2.3', '1,5', '1e3', 'NaN', ' 1.5'])('rejects %p', (value) => expect(isDecimal(value)).toBe(false));
});
