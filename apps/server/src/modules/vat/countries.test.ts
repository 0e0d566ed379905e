import { describe, expect, it } from 'vitest';
import { countries, countryName, isCountryCode } from './countries.js';
import { euVatRates } from './eu-vat-rates.js';

describe('countries', () => {
  it('are the 249 ISO 3166-1 countries and Kosovo, once each', () => {
    expect(countries).toHaveLength(250);
    expect(new Set(countries.map((country) => country.iso)).size).toBe(250);
    for (const { iso, name } of countries) {
      expect(iso).toMatch(/^[A-Z]{2}$/);
      expect(name.trim()).toBe(name);
      expect(name.length).toBeGreaterThan(2);
    }
  });

  it('are sorted by English name', () => {
    const names = countries.map((country) => country.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
  });

  it('include every member state and customers from anywhere', () => {
    for (const memberState of Object.keys(euVatRates.rates)) expect(isCountryCode(memberState)).toBe(true);
    expect(countryName('GR')).toBe('Greece');
    expect(countryName('CI')).toBe("Côte d'Ivoire");
    expect(countryName('AX')).toBe('Åland Islands');
    expect(countryName('XK')).toBe('Kosovo');
    expect(countryName('US')).toBe('United States');
    expect(countryName('EL')).toBeUndefined();
    expect(countryName('UK')).toBeUndefined();
    expect(isCountryCode('ZZ')).toBe(false);
    expect(isCountryCode('fr')).toBe(false);
  });
});
