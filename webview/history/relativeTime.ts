// When something happened, as people say it ("5 minutes ago", "yesterday"), in the
// panel's locale; the full date and time goes in a tooltip.

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Infinity],
];

/** `iso` relative to `now` ("now", "3 hours ago", "yesterday", "last week"), in `locale` (default: the panel's). */
export function relativeTime(iso: string, now = Date.now(), locale?: string): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  let amount = (then - now) / 1000;
  // A few seconds is "now", not "5 seconds ago".
  if (Math.abs(amount) < 10) return format.format(0, 'second');
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return format.format(Math.round(amount), 'year');
}

/** The full date and time, in the panel's locale. */
export function fullTime(iso: string, locale?: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(locale, { dateStyle: 'full', timeStyle: 'short' });
}
