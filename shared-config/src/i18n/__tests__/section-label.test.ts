import { en } from '../en';
import { id } from '../id';
import { sectionLabel } from '../section-label';

it('names a built-in section in the pack language, an added one by its label or id', () => {
  expect(sectionLabel(en, 'about')).toBe('About Us');
  expect(sectionLabel(id, 'contact')).toBe('Hubungi Kami');
  expect(sectionLabel(en, 'repay-calc', 'Repayments')).toBe('Repayments');
  expect(sectionLabel(en, 'repay-calc')).toBe('repay-calc');
});
