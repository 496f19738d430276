import { applyTheme } from '../apply-theme';

afterEach(() => {
  document.documentElement.removeAttribute('style');
  document.head.innerHTML = '';
});

test('a theme becomes custom properties on <html>, with no <style> element', () => {
  document.head.innerHTML = '<meta name="theme-color" content="#0b5c6b">';
  applyTheme({ background: '#fbf9f4', primary: '#6b2d5c' });

  const style = document.documentElement.style;
  expect(style.getPropertyValue('--color-bg')).toBe('#fbf9f4');
  expect(style.getPropertyValue('--color-primary')).toBe('#6b2d5c');
  expect(style.getPropertyValue('--color-primary-strong')).toMatch(/^#[0-9a-f]{6}$/);
  expect(style.getPropertyValue('--color-text')).toBe('');
  expect(document.querySelector('meta[name="theme-color"]')).toHaveAttribute('content', '#6b2d5c');
  expect(document.querySelectorAll('style')).toHaveLength(0);
});

test('without a theme nothing is set', () => {
  applyTheme(undefined);
  expect(document.documentElement).not.toHaveAttribute('style');
});
