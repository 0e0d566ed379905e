import { describe, expect, it } from 'vitest';
import { dayOf, euVatRates, isMemberState, standardRatesOn } from './eu-vat-rates.js';

describe('EU standard VAT rates', () => {
  it('cover the 27 member states, with their source', () => {
    expect(Object.keys(euVatRates.rates).sort()).toEqual(
      'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '),
    );
    expect(euVatRates.source.url).toMatch(/^https:\/\/taxation-customs\.ec\.europa\.eu\//);
    expect(euVatRates.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('list each history newest first, with rates the VAT Directive allows', () => {
    for (const [memberState, history] of Object.entries(euVatRates.rates)) {
      const days = history.map((entry) => entry.validFrom);
      expect([...days].sort().reverse(), memberState).toEqual(days);
      for (const { rate, validFrom } of history) {
        expect(Number.isNaN(Date.parse(validFrom)), `${memberState} ${validFrom}`).toBe(false);
        // Art. 97: a standard rate of at least 15%.
        expect(rate, memberState).toBeGreaterThanOrEqual(15);
        expect(rate, memberState).toBeLessThanOrEqual(30);
      }
    }
  });

  it('give the rates in force on the day of the table', () => {
    const rates = standardRatesOn(new Date(`${euVatRates.asOf}T12:00:00Z`));
    expect(rates).toMatchObject({
      AT: 20,
      BE: 21,
      DE: 19,
      DK: 25,
      EE: 24,
      FI: 25.5,
      FR: 20,
      GR: 24,
      HU: 27,
      IE: 23,
      IT: 22,
      LU: 17,
      NL: 21,
      PL: 23,
      RO: 21,
      SE: 25,
      SK: 23,
    });
  });

  it('switch rates on the day a change takes effect', () => {
    const on = (day: string) => standardRatesOn(new Date(`${day}T00:00:00Z`));
    expect(on('2025-06-30').EE).toBe(22);
    expect(on('2025-07-01').EE).toBe(24);
    expect(on('2025-07-31').RO).toBe(19);
    expect(on('2025-08-01').RO).toBe(21);
    expect(on('2024-08-31').FI).toBe(24);
    expect(on('2024-09-01').FI).toBe(25.5);
    expect(on('2024-12-31').SK).toBe(20);
    expect(on('2025-01-01').SK).toBe(23);
    expect(on('2020-10-01').DE).toBe(16);
  });

  it('refuse a day older than the table', () => {
    expect(() => standardRatesOn(new Date('1980-01-01T00:00:00Z'))).toThrow(/no standard VAT rate/);
  });

  it('key member states by ISO code, GR for Greece', () => {
    expect(isMemberState('GR')).toBe(true);
    expect(isMemberState('EL')).toBe(false);
    expect(isMemberState('GB')).toBe(false);
    expect(isMemberState('toString')).toBe(false);
    expect(dayOf(new Date('2025-07-01T23:59:59Z'))).toBe('2025-07-01');
  });
});
