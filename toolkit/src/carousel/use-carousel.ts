import { useCallback, useState } from 'react';

/** The page state holds five images and starts on the second (specification, points 2 and 4). */
export const CAROUSEL_IMAGE_COUNT = 5;
export const CAROUSEL_START_INDEX = 1;

export interface CarouselState {
  /** The current image, from 0 to count - 1. */
  index: number;
  /** One image back; stays on the first. */
  previous: () => void;
  /** One image on; stays on the last. */
  next: () => void;
  count: number;
}

function clamp(index: number, last: number): number {
  return Math.min(Math.max(index, 0), last);
}

/**
 * The carousel's index and its two handlers. It does not wrap around: the
 * specification stops at both ends. The site keeps this state without
 * rendering a carousel, as the specification describes.
 */
export function useCarousel(count = CAROUSEL_IMAGE_COUNT, start = CAROUSEL_START_INDEX): CarouselState {
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(`useCarousel: count must be a whole number of images, at least 1 (got ${count})`);
  }
  const last = count - 1;
  const [stored, setStored] = useState(() => (Number.isFinite(start) ? Math.trunc(start) : 0));

  // Clamped on every read, not only when stored: a count that shrinks below
  // the current image leaves the carousel on the new last one.
  const previous = useCallback(() => setStored((index) => clamp(clamp(index, last) - 1, last)), [last]);
  const next = useCallback(() => setStored((index) => clamp(clamp(index, last) + 1, last)), [last]);

  return { index: clamp(stored, last), previous, next, count };
}
