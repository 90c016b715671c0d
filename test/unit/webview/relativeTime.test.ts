import { expect, test } from 'vitest';
import { fullTime, relativeTime } from '../../../webview/history/relativeTime';

const NOW = Date.parse('2025-06-15T12:00:00.000Z');
const at = (ms: number): string => new Date(NOW - ms).toISOString();

test.each([
  [200, 'en', '1 second ago'],
  [5_000, 'en', '5 seconds ago'],
  [90_000, 'en', '2 minutes ago'],
  [3 * 3600_000, 'en', '3 hours ago'],
  [26 * 3600_000, 'en', 'yesterday'],
  [9 * 86400_000, 'en', 'last week'],
  [70 * 86400_000, 'en', '2 months ago'],
  [800 * 86400_000, 'en', '2 years ago'],
  [26 * 3600_000, 'de', 'gestern'],
  [3 * 3600_000, 'fr', 'il y a 3 heures'],
])('%i ms ago in %s reads %j', (ms, locale, text) => {
  expect(relativeTime(at(ms), NOW, locale)).toBe(text);
});

test('the full date is in the locale asked for; a date that is not one is shown as it came', () => {
  expect(fullTime('2025-06-15T12:00:00.000Z', 'en-US')).toMatch(/Sunday, June 15, 2025/);
  expect(fullTime('2025-06-15T12:00:00.000Z', 'de-DE')).toMatch(/Sonntag, 15\. Juni 2025/);
  expect(relativeTime('not a date', NOW)).toBe('not a date');
});
