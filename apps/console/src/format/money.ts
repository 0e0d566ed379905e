import { type Credits, creditBalanceDollars } from '@verbatim/contracts';

/** Dollars in the interface language's way of writing them: `$5.00` in English, `5,00 $US` in French. */
export function formatDollars(dollars: number, language: string): string {
  return new Intl.NumberFormat(language, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(dollars);
}

export function formatCents(cents: number, language: string): string {
  return formatDollars(cents / 100, language);
}

/** Spec §9: the balance shown is (ceiling − currentUsage) / 100, with 2 decimals. */
export function formatCreditBalance(credits: Credits, language: string): string {
  return formatDollars(creditBalanceDollars(credits), language);
}

/** A price per hour given in millionths of a dollar; up to 4 decimals, so $0.125 is not rounded away. */
export function formatPricePerHour(micros: number, language: string): string {
  return new Intl.NumberFormat(language, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
  }).format(micros / 1_000_000);
}
