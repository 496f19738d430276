import { render } from '@testing-library/react';
import { useRef, type CSSProperties } from 'react';
import { STICKY_HEADER_PROPERTY, useStickyHeaderHeight } from '../use-sticky-header-height';

interface PageProps {
  position: CSSProperties['position'];
}

function Page({ position }: PageProps) {
  const header = useRef<HTMLElement>(null);
  useStickyHeaderHeight(header);
  return <header ref={header} style={{ position }} />;
}

// jsdom lays nothing out and has no ResizeObserver: both stand in here.
let resized: (() => void) | undefined;
beforeEach(() => {
  window.ResizeObserver = class {
    constructor(callback: () => void) {
      resized = callback;
    }
    observe() {
      resized?.();
    }
    unobserve() {}
    disconnect() {
      resized = undefined;
    }
  } as unknown as typeof ResizeObserver;
  jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ height: 112.4 } as DOMRect);
});

const published = () => document.documentElement.style.getPropertyValue(STICKY_HEADER_PROPERTY);

test('a sticky header publishes its height, rounded up, and follows its resizes', () => {
  const { unmount } = render(<Page position="sticky" />);
  expect(published()).toBe('113px');

  jest.mocked(HTMLElement.prototype.getBoundingClientRect).mockReturnValue({ height: 64 } as DOMRect);
  resized?.();
  expect(published()).toBe('64px');

  unmount();
  expect(published()).toBe('');
});

test('a header that does not stick covers nothing', () => {
  render(<Page position="static" />);
  expect(published()).toBe('0px');
});
