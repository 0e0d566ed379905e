/**
 * Standard VAT rates of the 27 EU member states, as dated data.
 *
 * Each member state lists its standard rates with the day each took effect, newest first; the rate
 * of a given day is the first entry whose `validFrom` is on or before it. The oldest entry of a
 * member state is a day from which its rate is known to apply (for a long-standing rate, not
 * necessarily the day it was introduced): the table is not a history of VAT. A change announced by a
 * member state can be added ahead of time with its future `validFrom`: it then applies from that
 * day on, with no deployment on the day. Dates are the member state's calendar days, compared with
 * the UTC date.
 *
 * Keys are ISO 3166-1 alpha-2 country codes (GR for Greece; its VAT prefix EL is a matter of VAT
 * numbers, see vat-number.ts). Membership of this table is what "in the EU VAT area" means here.
 *
 * Only the standard rate matters for this product: electronically supplied services are taxed at
 * the standard rate in every member state.
 */
export interface DatedRate {
  /** Percent. */
  rate: number;
  /** YYYY-MM-DD, the first day the rate applies. */
  validFrom: string;
}

export const euVatRates = {
  source: {
    title: 'VAT rates applied in the Member States of the European Union',
    publisher: 'European Commission, Directorate-General for Taxation and Customs Union',
    url: 'https://taxation-customs.ec.europa.eu/taxation/vat/vat-directive/vat-rates_en',
  },
  /**
   * The day the table was last checked against the source: every standard rate in force on that
   * day is here. (The changes of 1 January 2026 concerned reduced rates only.) Update it with
   * every review.
   */
  asOf: '2026-01-01',
  rates: {
    AT: [{ rate: 20, validFrom: '1984-01-01' }],
    BE: [{ rate: 21, validFrom: '1996-01-01' }],
    BG: [{ rate: 20, validFrom: '1999-01-01' }],
    CY: [{ rate: 19, validFrom: '2014-01-13' }],
    CZ: [{ rate: 21, validFrom: '2013-01-01' }],
    DE: [
      { rate: 19, validFrom: '2021-01-01' },
      // The temporary Covid-19 reduction of the second half of 2020.
      { rate: 16, validFrom: '2020-07-01' },
      { rate: 19, validFrom: '2007-01-01' },
    ],
    DK: [{ rate: 25, validFrom: '1992-07-01' }],
    EE: [
      { rate: 24, validFrom: '2025-07-01' },
      { rate: 22, validFrom: '2024-01-01' },
      { rate: 20, validFrom: '2009-07-01' },
    ],
    ES: [{ rate: 21, validFrom: '2012-09-01' }],
    FI: [
      { rate: 25.5, validFrom: '2024-09-01' },
      { rate: 24, validFrom: '2013-01-01' },
    ],
    FR: [{ rate: 20, validFrom: '2014-01-01' }],
    GR: [{ rate: 24, validFrom: '2016-06-01' }],
    HR: [{ rate: 25, validFrom: '2012-03-01' }],
    HU: [{ rate: 27, validFrom: '2012-01-01' }],
    IE: [
      { rate: 23, validFrom: '2021-03-01' },
      // The temporary reduction from September 2020 to February 2021.
      { rate: 21, validFrom: '2020-09-01' },
      { rate: 23, validFrom: '2012-01-01' },
    ],
    IT: [{ rate: 22, validFrom: '2013-10-01' }],
    LT: [{ rate: 21, validFrom: '2009-09-01' }],
    LU: [
      { rate: 17, validFrom: '2024-01-01' },
      // The temporary reduction of 2023.
      { rate: 16, validFrom: '2023-01-01' },
      { rate: 17, validFrom: '2015-01-01' },
    ],
    LV: [{ rate: 21, validFrom: '2012-07-01' }],
    MT: [{ rate: 18, validFrom: '2004-01-01' }],
    NL: [{ rate: 21, validFrom: '2012-10-01' }],
    PL: [{ rate: 23, validFrom: '2011-01-01' }],
    PT: [{ rate: 23, validFrom: '2011-01-01' }],
    RO: [
      { rate: 21, validFrom: '2025-08-01' },
      { rate: 19, validFrom: '2017-01-01' },
    ],
    SE: [{ rate: 25, validFrom: '1990-07-01' }],
    SI: [{ rate: 22, validFrom: '2013-07-01' }],
    SK: [
      { rate: 23, validFrom: '2025-01-01' },
      { rate: 20, validFrom: '2011-01-01' },
    ],
  } satisfies Record<string, readonly DatedRate[]>,
} as const;

export type MemberState = keyof typeof euVatRates.rates;

export function isMemberState(country: string): country is MemberState {
  return Object.hasOwn(euVatRates.rates, country);
}

/** The UTC calendar day of an instant, YYYY-MM-DD. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * The standard rate of every member state on a given day. Throws when the table has no rate for a
 * member state that early (it only goes back as far as its oldest entries).
 */
export function standardRatesOn(at: Date): Record<MemberState, number> {
  const day = dayOf(at);
  const rates = {} as Record<MemberState, number>;
  for (const [memberState, history] of Object.entries(euVatRates.rates) as [
    MemberState,
    readonly DatedRate[],
  ][]) {
    const entry = history.find((dated) => dated.validFrom <= day);
    if (!entry) throw new Error(`no standard VAT rate of ${memberState} is known for ${day}`);
    rates[memberState] = entry.rate;
  }
  return rates;
}
