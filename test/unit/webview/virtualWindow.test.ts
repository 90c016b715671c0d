import { describe, expect, test } from 'vitest';
import { rowWindow } from '../../../webview/virtualWindow';

const even = (height: number) => () => height;

describe('rowWindow: which transcript rows are in the DOM', () => {
  test('at the top: the rows in view plus the margin, a bottom spacer for the rest', () => {
    const w = rowWindow(2000, even(50), 0, 500, 250);
    expect(w).toEqual({ start: 0, end: 15, top: 0, bottom: (2000 - 15) * 50, total: 100_000 });
  });

  test('pinned to the end (scrollTop Infinity): the last rows, a top spacer for the rest', () => {
    const w = rowWindow(2000, even(50), Infinity, 500, 250);
    expect(w.end).toBe(2000);
    expect(w.start).toBe(2000 - 15);
    expect(w.top).toBe((2000 - 15) * 50);
    expect(w.bottom).toBe(0);
  });

  test('in the middle: spacers and rows add up to the whole height', () => {
    const heights = Array.from({ length: 500 }, (_, i) => 20 + (i % 7) * 13);
    const w = rowWindow(500, (i) => heights[i]!, 4000, 600, 300);
    const rendered = heights.slice(w.start, w.end).reduce((a, b) => a + b, 0);
    expect(w.top + rendered + w.bottom).toBe(w.total);
    expect(w.top).toBeLessThanOrEqual(4000 - 300);
    expect(w.total - w.bottom).toBeGreaterThanOrEqual(4000 + 600 + 300);
  });

  test('a list shorter than the view renders every row', () => {
    expect(rowWindow(3, even(40), 0, 800, 100)).toEqual({ start: 0, end: 3, top: 0, bottom: 0, total: 120 });
    expect(rowWindow(0, even(40), Infinity, 800, 100)).toEqual({ start: 0, end: 0, top: 0, bottom: 0, total: 0 });
  });
});
