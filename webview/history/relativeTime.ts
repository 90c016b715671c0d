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

/** `iso` relative to `now` ("5 seconds ago", "3 hours ago", "yesterday", "last week"), in `locale` (default: the panel's). */
export function relativeTime(iso: string, now = Date.now(), locale?: string): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  let amount = (then - now) / 1000;
  // Never "now" for something already past (it reads oddly: "deleted now"): at least a second.
  if (Math.abs(amount) < 1) amount = then > now ? 1 : -1;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return format.format(round(amount), unit);
    amount /= size;
  }
  return format.format(round(amount), 'year');
}

/** Rounded away from zero at .5 either way (Math.round takes -1.5 to -1). */
const round = (n: number): number => Math.sign(n) * Math.round(Math.abs(n));

/** The full date and time, in the panel's locale. */
export function fullTime(iso: string, locale?: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(locale, { dateStyle: 'full', timeStyle: 'short' });
}
