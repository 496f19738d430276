/** The custom property base.css's `scroll-padding-top` reads: the sticky header's height, published by the page script. */
export const STICKY_HEADER_PROPERTY = '--sticky-header-height';
