import { ROUTES, UNDESCRIBED_ROUTE_KEYS, WORD_ROUTE_KEYS } from '../routes';

const words = new Set<string>(WORD_ROUTE_KEYS);

test('every route except main, login, order and productDetail is a path suffix starting with a slash', () => {
  const paths = Object.entries(ROUTES).filter(([key]) => !words.has(key));

  expect(paths).toHaveLength(18);
  for (const [key, path] of paths) {
    expect({ key, path }).toEqual({ key, path: expect.stringMatching(/^\/[A-Za-z]+$/) });
  }
});

test('main, login, order and productDetail are words without a slash', () => {
  expect(WORD_ROUTE_KEYS.map((key) => ROUTES[key])).toEqual(['main', 'login', 'order', 'productDetail']);
});

test('the payment-instructions path is the one the specification gives', () => {
  expect(ROUTES.dragonpayPaymentInstructions).toBe('/dragonpayPaymentInstructions');
});

test('no two keys share a value', () => {
  const values = Object.values(ROUTES);
  expect(new Set(values).size).toBe(values.length);
});

test('the undescribed keys are not given made-up routes', () => {
  for (const key of UNDESCRIBED_ROUTE_KEYS) expect(ROUTES).not.toHaveProperty(key);
});
