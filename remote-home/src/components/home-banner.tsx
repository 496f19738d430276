export interface HomeBannerProps {
  label: string;
}

/**
 * The banner, drawn inline rather than fetched: it paints with the section
 * instead of one request later, and needs no image request (or `data:`
 * allowance in the page's CSP). Fixed dimensions, so nothing shifts.
 */
export function HomeBanner({ label }: HomeBannerProps) {
  return (
    <svg className="home-hero__banner" role="img" aria-label={label} xmlns="http://www.w3.org/2000/svg" width="480" height="320" viewBox="0 0 480 320">
      <rect width="480" height="320" rx="24" fill="#e3f1f3" />
      <circle cx="392" cy="72" r="44" fill="#cfe7eb" />
      <circle cx="84" cy="258" r="60" fill="#d8ecef" />
      <g transform="translate(176 36)">
        <rect width="132" height="248" rx="18" fill="#1b2430" />
        <rect x="8" y="16" width="116" height="216" rx="10" fill="#ffffff" />
        <rect x="50" y="6" width="32" height="4" rx="2" fill="#4a5565" />
        <circle cx="66" cy="86" r="34" fill="#0b5c6b" />
        <path d="M50 86 l11 11 l21 -23" fill="none" stroke="#ffffff" strokeWidth="7" strokeLinecap="round" strokeLinejoin="round" />
        <rect x="24" y="140" width="84" height="10" rx="5" fill="#0b5c6b" />
        <rect x="34" y="160" width="64" height="8" rx="4" fill="#b9c7d3" />
        <rect x="24" y="190" width="84" height="26" rx="8" fill="#084652" />
      </g>
      <g transform="translate(332 170)">
        <rect width="92" height="86" rx="10" fill="#ffffff" stroke="#0b5c6b" strokeWidth="4" />
        <rect width="92" height="24" rx="10" fill="#0b5c6b" />
        <g fill="#b9c7d3">
          <rect x="12" y="36" width="14" height="12" rx="2" />
          <rect x="39" y="36" width="14" height="12" rx="2" />
          <rect x="66" y="36" width="14" height="12" rx="2" />
          <rect x="12" y="58" width="14" height="12" rx="2" />
          <rect x="66" y="58" width="14" height="12" rx="2" />
        </g>
        <rect x="39" y="58" width="14" height="12" rx="2" fill="#0b5c6b" />
      </g>
      <g transform="translate(60 150)">
        <ellipse cx="44" cy="96" rx="40" ry="12" fill="#c9963a" />
        <ellipse cx="44" cy="84" rx="40" ry="12" fill="#e0b254" />
        <ellipse cx="44" cy="72" rx="40" ry="12" fill="#c9963a" />
        <ellipse cx="44" cy="60" rx="40" ry="12" fill="#f2c96b" />
        <ellipse cx="44" cy="60" rx="24" ry="6" fill="none" stroke="#c9963a" strokeWidth="3" />
      </g>
    </svg>
  );
}
