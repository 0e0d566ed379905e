import type { Country, VatNumberValidation, VatRate } from '@verbatim/contracts';
import type { Logger } from 'pino';
import { AppError } from '../../errors/app-error.js';
import { countries, countryName } from './countries.js';
import { euVatRates, standardRatesOn } from './eu-vat-rates.js';
import { checkVatNumber, compactVatNumber } from './vat-number.js';
import type { VatNumberRegistry } from './vat-number-registry.js';
import { memberStateOf, vatTreatment, type VatNumberValidity } from './vat-treatment.js';

export interface VatServiceOptions {
  /** ISO 3166-1 alpha-2 code of the seller's country (SELLER_COUNTRY). */
  sellerCountry: string;
  /** VIES, when configured; without it numbers are judged on their format and check digits. */
  registry: VatNumberRegistry | null;
  logger: Logger;
  now?: () => Date;
}

/**
 * Countries and VAT: the one place that decides what VAT a customer pays. The vat-rate route and
 * the creation of a payment both ask `quote`, so the price shown is the price charged.
 */
export class VatService {
  readonly #now: () => Date;

  constructor(private readonly options: VatServiceOptions) {
    this.#now = options.now ?? (() => new Date());
  }

  countries(): readonly Country[] {
    return countries;
  }

  /**
   * The VAT treatment of a customer in `country` (ISO 3166-1 alpha-2, any case) with an optional
   * VAT number, on the current day. Throws COUNTRY_UNKNOWN for a code that is not a country.
   */
  async quote(country: string, vatNumber?: string | null): Promise<VatRate> {
    const iso = country.trim().toUpperCase();
    const name = countryName(iso);
    if (name === undefined) {
      throw new AppError(
        'COUNTRY_UNKNOWN',
        `Select valid country: "${country}" is not an ISO 3166-1 country code.`,
      );
    }
    const number = await this.#judge(iso, vatNumber?.trim() ? vatNumber : null);
    const treatment = vatTreatment({
      customerCountry: iso,
      vatNumberValidity: number.validity,
      sellerCountry: this.options.sellerCountry,
      rates: standardRatesOn(this.#now()),
    });
    return {
      country: iso,
      countryName: name,
      isValidVATNumber: number.validity === 'valid',
      vatNumber: number.normalized,
      validation: number.validation,
      treatment: treatment.treatment,
      reverseCharge: treatment.reverseCharge,
      standardRate: treatment.rate,
      countryStandardRate: treatment.countryRate,
      ratesAsOf: euVatRates.asOf,
    };
  }

  async #judge(
    country: string,
    vatNumber: string | null,
  ): Promise<{ validity: VatNumberValidity; validation: VatNumberValidation; normalized: string | null }> {
    if (vatNumber === null) return { validity: 'none', validation: 'none', normalized: null };
    const memberState = memberStateOf(country);
    if (!memberState) {
      // Outside the EU no EU VAT is due whatever the number: it is kept, for the invoice, as typed.
      return { validity: 'valid', validation: 'not_checked', normalized: compactVatNumber(vatNumber) };
    }
    const checked = checkVatNumber(vatNumber, memberState);
    if (!checked.valid) {
      return { validity: 'invalid', validation: 'format', normalized: checked.normalized };
    }
    const registry = this.options.registry;
    if (!registry) return { validity: 'valid', validation: 'format', normalized: checked.normalized };
    const answer = await registry.check(checked.prefix, checked.national);
    switch (answer.status) {
      case 'valid':
      case 'invalid':
        return { validity: answer.status, validation: 'vies', normalized: checked.normalized };
      case 'unavailable':
        // The number is not logged: a sole trader's VAT number can identify a person.
        this.options.logger.warn(
          { vatPrefix: checked.prefix, reason: answer.reason },
          'VIES unavailable: VAT number judged on its format and check digits only',
        );
        return { validity: 'valid', validation: 'format', normalized: checked.normalized };
    }
  }
}
