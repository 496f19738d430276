import { act, renderHook } from '@testing-library/react';
import { useCarousel } from '../use-carousel';

test('holds five images and starts on the second by default', () => {
  const { result } = renderHook(() => useCarousel());

  expect(result.current.count).toBe(5);
  expect(result.current.index).toBe(1);
});

test('previous stops at the first image', () => {
  const { result } = renderHook(() => useCarousel());

  act(() => result.current.previous());
  expect(result.current.index).toBe(0);

  act(() => result.current.previous());
  expect(result.current.index).toBe(0);
});

test('next stops at the last image', () => {
  const { result } = renderHook(() => useCarousel());

  for (const expected of [2, 3, 4, 4, 4]) {
    act(() => result.current.next());
    expect(result.current.index).toBe(expected);
  }
});

test('several moves in one update each count', () => {
  const { result } = renderHook(() => useCarousel(5, 0));

  act(() => {
    result.current.next();
    result.current.next();
    result.current.next();
    result.current.previous();
  });

  expect(result.current.index).toBe(2);
});

test('takes another count and start, and keeps a start outside the range at the nearest end', () => {
  expect(renderHook(() => useCarousel(3, 2)).result.current.index).toBe(2);
  expect(renderHook(() => useCarousel(3, 9)).result.current.index).toBe(2);
  expect(renderHook(() => useCarousel(3, -1)).result.current.index).toBe(0);
  expect(renderHook(() => useCarousel(1)).result.current.index).toBe(0);
  expect(renderHook(() => useCarousel(3, Number.NaN)).result.current.index).toBe(0);
});

test('a count that shrinks below the current image shows the new last one, and next stops there', () => {
  const { result, rerender } = renderHook(({ count }) => useCarousel(count, 4), { initialProps: { count: 5 } });
  expect(result.current.index).toBe(4);

  rerender({ count: 3 });
  expect(result.current.index).toBe(2);

  act(() => result.current.next());
  expect(result.current.index).toBe(2);

  act(() => result.current.previous());
  expect(result.current.index).toBe(1);
});

test('pressing next at the last image does not skip ahead when more images arrive', () => {
  const { result, rerender } = renderHook(({ count }) => useCarousel(count, 2), { initialProps: { count: 3 } });

  act(() => result.current.next());
  rerender({ count: 5 });

  expect(result.current.index).toBe(2);
});

test.each([0, -1, 2.5, Number.NaN])('refuses a count of %p', (count) => {
  // React reports the error it rethrows; keep the test output to the assertion.
  jest.spyOn(console, 'error').mockImplementation(() => {});
  expect(() => renderHook(() => useCarousel(count))).toThrow('useCarousel: count must be a whole number of images');
});
