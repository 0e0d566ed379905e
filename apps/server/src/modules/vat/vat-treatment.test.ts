import { describe, expect, it } from 'vitest';
import { standardRatesOn } from './eu-vat-rates.js';
import { memberStateOf, vatTreatment, type VatTreatmentInput } from './vat-treatment.js';

const rates = standardRatesOn(new Date('2026-01-01T00:00:00Z'));
const treat = (input: Omit<VatTreatmentInput, 'rates'>) => vatTreatment({ ...input, rates });

describe('vatTreatment', () => {
  it('charges no EU VAT outside the EU, with or without a VAT number', () => {
    for (const vatNumberValidity of ['none', 'valid', 'invalid'] as const) {
      for (const customerCountry of ['US', 'GB', 'CH', 'NO', 'AX', 'RE']) {
        expect(treat({ customerCountry, vatNumberValidity, sellerCountry: 'FR' })).toEqual({
          treatment: 'outside_eu',
          rate: 0,
          reverseCharge: false,
          memberState: null,
          countryRate: null,
        });
      }
    }
  });

  it('charges a private customer of another member state its own standard rate', () => {
    expect(treat({ customerCountry: 'DE', vatNumberValidity: 'none', sellerCountry: 'FR' })).toEqual({
      treatment: 'eu_consumer',
      rate: 19,
      reverseCharge: false,
      memberState: 'DE',
      countryRate: 19,
    });
    expect(treat({ customerCountry: 'FI', vatNumberValidity: 'none', sellerCountry: 'FR' }).rate).toBe(25.5);
  });

  it('applies the reverse charge to a valid VAT number of another member state', () => {
    expect(treat({ customerCountry: 'DE', vatNumberValidity: 'valid', sellerCountry: 'FR' })).toEqual({
      treatment: 'reverse_charge',
      rate: 0,
      reverseCharge: true,
      memberState: 'DE',
      countryRate: 19,
    });
  });

  it('treats an invalid VAT number as a private customer', () => {
    expect(treat({ customerCountry: 'DE', vatNumberValidity: 'invalid', sellerCountry: 'FR' })).toMatchObject(
      {
        treatment: 'eu_consumer',
        rate: 19,
        reverseCharge: false,
      },
    );
  });

  it("charges the seller's own rate in its own member state, company or not", () => {
    for (const vatNumberValidity of ['none', 'valid', 'invalid'] as const) {
      expect(treat({ customerCountry: 'FR', vatNumberValidity, sellerCountry: 'FR' })).toEqual({
        treatment: 'domestic',
        rate: 20,
        reverseCharge: false,
        memberState: 'FR',
        countryRate: 20,
      });
    }
  });

  it('follows the configured seller country', () => {
    expect(treat({ customerCountry: 'FR', vatNumberValidity: 'valid', sellerCountry: 'DE' })).toMatchObject({
      treatment: 'reverse_charge',
      rate: 0,
    });
    expect(treat({ customerCountry: 'DE', vatNumberValidity: 'valid', sellerCountry: 'DE' })).toMatchObject({
      treatment: 'domestic',
      rate: 19,
    });
  });

  it('taxes Monaco as France', () => {
    expect(memberStateOf('MC')).toBe('FR');
    expect(treat({ customerCountry: 'MC', vatNumberValidity: 'valid', sellerCountry: 'FR' })).toMatchObject({
      treatment: 'domestic',
      rate: 20,
      memberState: 'FR',
    });
    expect(treat({ customerCountry: 'MC', vatNumberValidity: 'none', sellerCountry: 'IT' })).toMatchObject({
      treatment: 'eu_consumer',
      rate: 20,
    });
    expect(treat({ customerCountry: 'FR', vatNumberValidity: 'valid', sellerCountry: 'MC' })).toMatchObject({
      treatment: 'domestic',
    });
  });

  it('works for a seller outside the EU: destination rate for consumers, reverse charge for companies', () => {
    expect(treat({ customerCountry: 'IT', vatNumberValidity: 'none', sellerCountry: 'US' })).toMatchObject({
      treatment: 'eu_consumer',
      rate: 22,
    });
    expect(treat({ customerCountry: 'IT', vatNumberValidity: 'valid', sellerCountry: 'US' })).toMatchObject({
      treatment: 'reverse_charge',
      rate: 0,
    });
    expect(treat({ customerCountry: 'CA', vatNumberValidity: 'none', sellerCountry: 'US' })).toMatchObject({
      treatment: 'outside_eu',
      rate: 0,
    });
  });
});
