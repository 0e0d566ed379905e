/**
 * Dollar amounts for people, from integer cents, without floating point: "$1,234.50" in English,
 * "1 234,50 $US" in French (the French typographic convention, with a plain space so every font
 * and text extractor reads it the same).
 */
export function formatUsd(cents: number, locale: 'en' | 'fr' = 'en'): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  const dollars = Math.floor(absolute / 100).toString();
  const fraction = (absolute % 100).toString().padStart(2, '0');
  const grouped = dollars.replace(/\B(?=(\d{3})+(?!\d))/g, locale === 'fr' ? ' ' : ',');
  return locale === 'fr' ? `${sign}${grouped},${fraction} $US` : `${sign}$${grouped}.${fraction}`;
}

/** A percentage such as a VAT rate: "21%", "25.5%"; in French "21 %", "25,5 %". */
export function formatPercent(rate: number, locale: 'en' | 'fr' = 'en'): string {
  const text = Number(rate.toFixed(2)).toString();
  return locale === 'fr' ? `${text.replace('.', ',')} %` : `${text}%`;
}
