export { CAROUSEL_IMAGE_COUNT, CAROUSEL_START_INDEX, useCarousel, type CarouselState } from './use-carousel';
