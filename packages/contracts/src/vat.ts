import { z } from 'zod';
import { countries } from './countries.js';

export { countries };

/**
 * The messages of the payment form's rules (spec §5), word for word. The server answers them as
 * validation details of `GET /limiter/vat-rate/{country}`.
 */
export const vatValidationMessages = {
  countryInvalid: 'Select valid country',
  vatNumberInvalid: 'Invalid vatNumber',
} as const;

/** Every country code the API takes, upper-case (as answered) or lower-case. */
const countryCodes = countries.flatMap(({ iso }) => [iso, iso.toLowerCase()]);

/**
 * One of the countries of `GET /limiter/countries` (ISO 3166-1 alpha-2, and XK), upper- or
 * lower-case; answered upper-case. The document lists them, so an unknown code is a bad request.
 */
export const countryIsoSchema = z
  .enum(countryCodes, vatValidationMessages.countryInvalid)
  .transform((iso) => iso.toUpperCase());

export const countrySchema = z
  .object({
    /** ISO 3166-1 alpha-2 code, upper-case. */
    iso: z.string(),
    /** English short name. */
    name: z.string(),
  })
  .meta({ id: 'Country' });
export type Country = z.infer<typeof countrySchema>;

/** Every country a customer can be in, sorted by name. */
export const countriesSchema = z.array(countrySchema).meta({ id: 'Countries' });

/**
 * A VAT number as typed in the payment form: letters, digits, underscores and hyphens (spec §5),
 * with or without its country prefix. An empty value means "no VAT number".
 */
export const vatNumberInputSchema = z
  .string()
  .trim()
  .max(32, vatValidationMessages.vatNumberInvalid)
  .regex(/^[A-Za-z0-9_-]*$/, vatValidationMessages.vatNumberInvalid);

export const vatRateParamsSchema = z.object({ country: countryIsoSchema });

export const vatRateQuerySchema = z.object({ vatNumber: vatNumberInputSchema.optional() });
export type VatRateQuery = z.input<typeof vatRateQuerySchema>;

/**
 * How the customer's VAT number was judged.
 * - `vies`: confirmed or refuted by the EU's VIES service.
 * - `format`: on its format and check digits only, because VIES is not configured or did not
 *   answer in time (the server logs why).
 * - `not_checked`: the customer is outside the EU, where no EU VAT is due whatever the number.
 * - `none`: no number was given.
 */
export const vatNumberValidationSchema = z.enum(['vies', 'format', 'not_checked', 'none']);
export type VatNumberValidation = z.infer<typeof vatNumberValidationSchema>;

/**
 * Why the rate is what it is; invoices print the matching mention.
 * - `domestic`: customer in the seller's own member state, company or not: its standard rate.
 * - `eu_consumer`: customer in another member state without a valid VAT number: the standard
 *   rate of the customer's member state (the destination rule of electronically supplied
 *   services, declared through the One-Stop Shop).
 * - `reverse_charge`: company with a valid VAT number of another member state than the seller's:
 *   no VAT charged, the customer accounts for it (art. 196 of Directive 2006/112/EC).
 * - `outside_eu`: customer outside the EU VAT area: no EU VAT.
 */
export const vatTreatmentSchema = z.enum(['domestic', 'eu_consumer', 'reverse_charge', 'outside_eu']);
export type VatTreatmentKind = z.infer<typeof vatTreatmentSchema>;

/**
 * The answer of `GET /limiter/vat-rate/{country}?vatNumber=`: the VAT to charge a customer of that
 * country, with or without a VAT number.
 *
 * `standardRate` is the rate to APPLY, in percent, so that the console's formula
 * VAT = credits × standardRate / 100 (spec §9) gives the right amount in every case: 0 under the
 * reverse charge and outside the EU. The country's own standard rate, whatever the treatment, is
 * `countryStandardRate`.
 */
export const vatRateSchema = z
  .object({
    country: z.string().describe("The customer's country, ISO 3166-1 alpha-2."),
    countryName: z.string(),
    isValidVATNumber: z
      .boolean()
      .describe(
        'False when a number given for an EU country was judged invalid (the console then shows the invalid ' +
          'VAT error) and when no number was given; true for a valid number, and for any number of a customer ' +
          'outside the EU (not checked: it changes nothing there).',
      ),
    vatNumber: z
      .string()
      .nullable()
      .describe('The number as understood: no separators, upper-case, with its VAT prefix (EL for Greece).'),
    validation: vatNumberValidationSchema,
    treatment: vatTreatmentSchema,
    reverseCharge: z.boolean().describe('True when the customer, not the seller, accounts for the VAT.'),
    standardRate: z
      .number()
      .min(0)
      .max(100)
      .describe('The rate to apply, in percent: 0 under the reverse charge and outside the EU.'),
    countryStandardRate: z
      .number()
      .min(0)
      .max(100)
      .nullable()
      .describe(
        "The standard rate of the customer's EU member state, whatever the treatment; null outside the EU.",
      ),
    ratesAsOf: z.string().describe('The date of the rates table the rate comes from (YYYY-MM-DD).'),
  })
  .meta({ id: 'VatRate' });
export type VatRate = z.infer<typeof vatRateSchema>;
