import '@testing-library/jest-dom';

// jsdom implements no layout, so the scrolling APIs the shell calls are absent.
window.scrollTo = () => {};
Element.prototype.scrollIntoView = function scrollIntoView() {};
