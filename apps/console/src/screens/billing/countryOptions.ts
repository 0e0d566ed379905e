import type { Country } from '@verbatim/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/createI18n';

/**
 * The countries of `GET /limiter/countries` as options of a select, named in the interface
 * language when the browser knows the code (the API names them in English), sorted by that name.
 */
export function useCountryOptions(countries: readonly Country[] | undefined) {
  const { i18n } = useTranslation();
  const language = currentLanguage(i18n);
  return useMemo(() => {
    const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
    const localName = (country: Country) => {
      try {
        return names.of(country.iso) ?? country.name;
      } catch {
        return country.name; // a code Intl does not accept
      }
    };
    return (countries ?? [])
      .map((country) => ({ value: country.iso, label: localName(country) }))
      .sort((a, b) => a.label.localeCompare(b.label, language));
  }, [countries, language]);
}
