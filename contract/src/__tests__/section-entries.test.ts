import { remoteNameOf } from '../sections';
import { BUILT_IN_SECTIONS, labelsProblems, marketsProblem, placeAfter, sectionIdProblem, shownSections } from '../section-entries';

describe('a section id', () => {
  it.each(['faq', 'repay-calc', 'a1', 'calculator'])('accepts %s', (id) => {
    expect(sectionIdProblem(id)).toBeUndefined();
  });

  it.each([
    ['x', '2 to 24'],
    ['Faq', 'lowercase'],
    ['1faq', 'starting with a letter'],
    ['faq_2', 'lowercase ASCII'],
    ['a'.repeat(25), '2 to 24'],
    ['faq-', 'end with'],
    ['f--q', 'hold "--"'],
    ['api', 'reserved'],
    ['root', 'reserved'],
    ['privacy', 'reserved'],
    ['tab-home', '"tab-"'],
    ['portico-page-data', '"portico-"'],
    ['faq\u00a0', 'lowercase'],
  ])('refuses %j, saying why', (id, reason) => {
    expect(sectionIdProblem(id)).toContain(reason);
  });

  it('names its remote with each "-" as "_"', () => {
    expect(remoteNameOf('repay-calc')).toBe('portico_repay_calc');
  });
});

describe('labels', () => {
  it('need both languages', () => {
    expect(labelsProblems({ en: 'FAQ' })).toEqual([{ field: 'labels.id', message: expect.stringContaining('required') }]);
  });

  it.each(['', ' FAQ', 'x'.repeat(41), '<b>FAQ</b>', 'FAQ\u202e', 'F\u0000Q'])('refuse %j', (label) => {
    expect(labelsProblems({ en: label, id: 'Tanya' })).toHaveLength(1);
  });

  it('count characters as a reader does', () => {
    expect(labelsProblems({ en: '😀'.repeat(40), id: 'Tanya jawab' })).toEqual([]);
  });
});

it('refuses an empty or unknown market list', () => {
  expect(marketsProblem([])).toBeDefined();
  expect(marketsProblem(['IN', 'US'])).toContain('"US"');
  expect(marketsProblem(['ID'])).toBeUndefined();
});

describe('placing a section', () => {
  const order = ['home', 'about', 'contact'];
  it('puts it after the named one, first for null, last when not given', () => {
    expect(placeAfter(order, 'faq', 'home')).toEqual(['home', 'faq', 'about', 'contact']);
    expect(placeAfter(order, 'faq', null)).toEqual(['faq', 'home', 'about', 'contact']);
    expect(placeAfter(order, 'faq', undefined)).toEqual([...order, 'faq']);
    expect(placeAfter(order, 'contact', null)).toEqual(['contact', 'home', 'about']);
  });
});

it('shows a market only its sections, and no hidden one', () => {
  const faq = { ...BUILT_IN_SECTIONS[0]!, id: 'faq', builtIn: false, markets: ['ID' as const] };
  const hiddenAbout = { ...BUILT_IN_SECTIONS[1]!, hidden: true };
  const list = [BUILT_IN_SECTIONS[0]!, hiddenAbout, BUILT_IN_SECTIONS[2]!, faq];
  expect(shownSections(list, 'IN').map(({ id }) => id)).toEqual(['home', 'contact']);
  expect(shownSections(list, 'ID').map(({ id }) => id)).toEqual(['home', 'contact', 'faq']);
});
