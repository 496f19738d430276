import '@testing-library/jest-dom';

// A test file may opt into the node environment (`@jest-environment node`),
// where there is no window to patch.
if (typeof window !== 'undefined') {
  // jsdom implements no layout, so the scrolling APIs the shell calls are absent.
  window.scrollTo = () => {};
  Element.prototype.scrollIntoView = function scrollIntoView() {};
}
