/**
 * Times on messages in the person's locale: the clock time on each row (12 or 24 hours, as
 * their setting says), the full date on hover, and the day dividers' "Today" and "Yesterday".
 */

const clocks = new Map<boolean, Intl.DateTimeFormat>();

export function formatTime(unixSeconds: number, twentyFourHour: boolean): string {
  let clock = clocks.get(twentyFourHour);
  if (!clock) {
    clock = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit", hour12: !twentyFourHour });
    clocks.set(twentyFourHour, clock);
  }
  return clock.format(new Date(unixSeconds * 1000));
}

const fullDate = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "medium" });
export const formatFullDate = (unixSeconds: number) => fullDate.format(new Date(unixSeconds * 1000));

const sameYearDay = new Intl.DateTimeFormat(undefined, { weekday: "long", month: "long", day: "numeric" });
const otherYearDay = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "long", day: "numeric" });

/** Whole local calendar days from one date to another (daylight saving changes don't count). */
function daysBetween(from: Date, to: Date): number {
  const start = new Date(from.getFullYear(), from.getMonth(), from.getDate());
  const end = new Date(to.getFullYear(), to.getMonth(), to.getDate());
  return Math.round((end.getTime() - start.getTime()) / 86_400_000);
}

/** "Today", "Yesterday", or the date (with the year only when it is not this year's). */
export function dayLabel(unixSeconds: number, now: Date = new Date()): string {
  const date = new Date(unixSeconds * 1000);
  const ago = daysBetween(date, now);
  if (ago === 0) return "Today";
  if (ago === 1) return "Yesterday";
  return date.getFullYear() === now.getFullYear() ? sameYearDay.format(date) : otherYearDay.format(date);
}
