import type { VatTreatmentKind } from '@verbatim/contracts';
import { isMemberState, type MemberState } from './eu-vat-rates.js';

/**
 * Countries with their own ISO code that belong to a member state's VAT area: Monaco is taxed as
 * France (art. 7 of Directive 2006/112/EC). The reverse does not arise here: territories outside
 * the EU VAT area with their own code (Åland, the French overseas departments, the Channel
 * Islands…) are simply not member states. Territories outside it that share their member state's
 * code (Canary Islands, Ceuta, Melilla, Mount Athos, Livigno, Campione d'Italia, Büsingen,
 * Heligoland) cannot be told apart by a country code: they are taxed as their member state.
 */
const vatAreaOf: Readonly<Record<string, MemberState>> = { MC: 'FR' };

/** The member state whose VAT applies in a country, or undefined outside the EU VAT area. */
export function memberStateOf(country: string): MemberState | undefined {
  const area = vatAreaOf[country] ?? country;
  return isMemberState(area) ? area : undefined;
}

export type VatNumberValidity =
  /** No number given: a private customer, as far as VAT goes. */
  'none' | 'valid' | 'invalid';

export interface VatTreatmentInput {
  /** ISO 3166-1 alpha-2 code of the customer's country. */
  customerCountry: string;
  /** The customer's VAT number, judged for the customer's member state. */
  vatNumberValidity: VatNumberValidity;
  /** ISO 3166-1 alpha-2 code of the seller's country; a seller outside the EU works too. */
  sellerCountry: string;
  /** The standard rate of every member state on the day of the sale, in percent. */
  rates: Readonly<Record<MemberState, number>>;
}

export interface VatTreatment {
  treatment: VatTreatmentKind;
  /** The rate to charge, in percent. */
  rate: number;
  reverseCharge: boolean;
  /** The member state whose VAT area the customer is in, or null outside the EU. */
  memberState: MemberState | null;
  /** The standard rate of that member state, whatever the treatment; null outside the EU. */
  countryRate: number | null;
}

/**
 * The EU VAT rules of an electronically supplied service (a prepaid speech-to-text credit):
 * - customer outside the EU VAT area: no EU VAT (the service is supplied where the customer is);
 * - a valid VAT number of another member state than the seller's: reverse charge, no VAT
 *   (art. 44 and 196 of Directive 2006/112/EC);
 * - otherwise (a private customer, a company of the seller's own member state, or a VAT number
 *   judged invalid): the standard rate of the customer's member state. For a customer in another
 *   member state that is the destination rule of art. 58, declared through the One-Stop Shop; it
 *   is applied from the first sale, which is always allowed (the EUR 10,000 threshold only
 *   permits the seller's own rate below it).
 */
export function vatTreatment(input: VatTreatmentInput): VatTreatment {
  const memberState = memberStateOf(input.customerCountry);
  if (!memberState) {
    return { treatment: 'outside_eu', rate: 0, reverseCharge: false, memberState: null, countryRate: null };
  }
  const countryRate = input.rates[memberState];
  const domestic = memberStateOf(input.sellerCountry) === memberState;
  if (input.vatNumberValidity === 'valid' && !domestic) {
    return { treatment: 'reverse_charge', rate: 0, reverseCharge: true, memberState, countryRate };
  }
  return {
    treatment: domestic ? 'domestic' : 'eu_consumer',
    rate: countryRate,
    reverseCharge: false,
    memberState,
    countryRate,
  };
}
