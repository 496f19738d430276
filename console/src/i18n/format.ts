import { localeOf, type Language } from '@portico/contract/languages';

/** An ISO instant as the reader's language writes a date and time, in UTC (servers and teams span time zones). */
export function formatInstant(iso: string, language: Language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
}

/** 0.025 as "2.5 %" ("2,5 %" in Indonesian). */
export function formatRate(rate: number, language: Language): string {
  return `${new Intl.NumberFormat(localeOf(language), { maximumFractionDigits: 1 }).format(rate * 100)} %`;
}

export function formatNumber(value: number | null, language: Language, unit = ''): string {
  if (value === null) return '–';
  return `${new Intl.NumberFormat(localeOf(language), { maximumFractionDigits: value < 1 ? 3 : 0 }).format(value)}${unit}`;
}

/** A visit count: the canary judge's are weighted (a network bounded to its share), so a tenth may show. */
export function formatCount(value: number, language: Language): string {
  return new Intl.NumberFormat(localeOf(language), { maximumFractionDigits: 1 }).format(value);
}
