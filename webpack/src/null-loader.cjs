// The node build of a section renders HTML only; the page links the browser
// build's CSS, so a stylesheet import becomes an empty module there.
module.exports = function nullLoader() {
  return 'export {};';
};
