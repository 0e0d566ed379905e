import { countries } from '@verbatim/contracts';

/** The list lives in the contracts: the OpenAPI document names every code the API takes. */
export { countries };

const namesByIso = new Map(countries.map((country) => [country.iso, country.name]));

/** The English name of a country code (upper-case ISO 3166-1 alpha-2), or undefined for an unknown code. */
export function countryName(iso: string): string | undefined {
  return namesByIso.get(iso);
}

export function isCountryCode(iso: string): boolean {
  return namesByIso.has(iso);
}
