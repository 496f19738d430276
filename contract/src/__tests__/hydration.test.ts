import { hydratesOn, readHydration } from '../hydration';

test('a declaration reads back as the section wrote it, its triggers once each', () => {
  expect(readHydration({ mode: 'static' })).toEqual({ mode: 'static' });
  expect(readHydration({ mode: 'interactive', when: ['selected', 'interaction', 'selected'] })).toEqual({
    mode: 'interactive',
    when: ['selected', 'interaction'],
  });
  expect(readHydration(undefined)).toEqual({ mode: 'interactive', when: ['load'] });
});

test.each([
  ['not an object', 'static', /not an object/],
  ['an unknown mode', { mode: 'lazy' }, /hydration.mode is "lazy"/],
  ['no triggers', { mode: 'interactive', when: [] }, /not a list of triggers/],
  [
    'an unknown trigger',
    { mode: 'interactive', when: ['load', 'eval(alert(1))'] },
    /"eval\(alert\(1\)\)", not one of load, idle, visible, selected, interaction/,
  ],
])('a declaration that is %s is refused in words', (_what, value, message) => {
  const read = readHydration(value);
  expect('problem' in read && read.problem).toMatch(message);
});

test('a static section hydrates on nothing; an interactive one on its triggers only', () => {
  expect(hydratesOn({ mode: 'static' }, 'load')).toBe(false);
  expect(hydratesOn({ mode: 'interactive', when: ['selected'] }, 'selected')).toBe(true);
  expect(hydratesOn({ mode: 'interactive', when: ['selected'] }, 'load')).toBe(false);
});
