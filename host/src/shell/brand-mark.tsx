/**
 * The site's mark, also drawn by index.html before any script runs (keep the
 * two in step): the first paint shows the header, and React's render then
 * lands on the same pixels.
 */
export function BrandMark() {
  return (
    <svg className="brand-mark" viewBox="0 0 64 64" width="32" height="32" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#0b5c6b" />
      <path d="M20 48V16h14a10 10 0 0 1 0 20H26" fill="none" stroke="#fff" strokeWidth="7" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
