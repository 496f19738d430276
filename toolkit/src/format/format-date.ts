import { format, isValid, parseISO } from 'date-fns';

export interface FormatDateOptions {
  /** Adds the time of day, 24-hour, to the second: `yyyy-MM-dd HH:mm:ss`. */
  withTime?: boolean;
}

/** What formatDate accepts: a Date, epoch milliseconds, or an ISO 8601 string. */
export type DateInput = Date | number | string;

function toDate(input: DateInput): Date {
  // parseISO, not new Date(text): new Date('2026-11-21') means midnight UTC,
  // which is the day before in the Americas; parseISO reads a date without a
  // zone as local, like the rest of this helper.
  return typeof input === 'string' ? parseISO(input) : new Date(input);
}

/**
 * A date in the visitor's local time as `yyyy-MM-dd`, or `yyyy-MM-dd HH:mm:ss`
 * with `withTime` (specification, point 9). An invalid date, an empty or
 * unreadable string gives '' instead of throwing, so a missing value shows as
 * nothing.
 */
export function formatDate(date: DateInput, { withTime = false }: FormatDateOptions = {}): string {
  const value = toDate(date);
  if (!isValid(value)) return '';
  return format(value, withTime ? 'yyyy-MM-dd HH:mm:ss' : 'yyyy-MM-dd');
}
