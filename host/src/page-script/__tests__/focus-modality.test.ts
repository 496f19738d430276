import userEvent from '@testing-library/user-event';
import { FOCUS_INPUT_ATTRIBUTE, trackFocusInput } from '../focus-modality';

// app.css draws the panel's focus bar under `keyboard` only (issue 49): the
// attribute must follow the visitor's last way of moving the focus.

const focusInput = () => document.documentElement.getAttribute(FOCUS_INPUT_ATTRIBUTE);

describe('trackFocusInput', () => {
  let stop: () => void = () => undefined;

  beforeEach(() => {
    document.body.innerHTML = '<a href="#contact">Contact us</a><section id="contact" tabindex="0">Contact</section>';
  });

  afterEach(() => stop());

  it('says none for a focus nobody moved, keyboard after a key, pointer after a click', async () => {
    const user = userEvent.setup();
    stop = trackFocusInput(document);
    expect(focusInput()).toBe('none');

    await user.tab();
    expect(focusInput()).toBe('keyboard');

    await user.click(document.getElementById('contact')!);
    expect(focusInput()).toBe('pointer');

    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(focusInput()).toBe('keyboard');
  });

  it('keeps the pointer for a modifier pressed alone, and forgets it all when stopped', async () => {
    const user = userEvent.setup();
    stop = trackFocusInput(document);
    await user.click(document.getElementById('contact')!);
    await user.keyboard('{Control}');
    expect(focusInput()).toBe('pointer');

    stop();
    expect(focusInput()).toBeNull();
    await user.tab();
    expect(focusInput()).toBeNull();
  });
});
