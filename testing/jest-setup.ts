import '@testing-library/jest-dom';

// jsdom implements no layout, so the scrolling APIs the shell calls are absent.
// Node-environment test files (servers, HTTP) have no window at all.
if (typeof window !== 'undefined') {
  window.scrollTo = () => {};
  Element.prototype.scrollIntoView = function scrollIntoView() {};
}
