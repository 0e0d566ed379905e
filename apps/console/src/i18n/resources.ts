import en from './en.json';
import fr from './fr.json';

/**
 * Languages the console is translated into. Names are autonyms on purpose: a reader who cannot
 * read the current language must still recognise their own, so they are never translated.
 */
export const supportedLanguages = [
  { code: 'en', shortLabel: 'EN', name: 'English' },
  { code: 'fr', shortLabel: 'FR', name: 'Français' },
] as const;

export type LanguageCode = (typeof supportedLanguages)[number]['code'];

export const defaultLanguage: LanguageCode = 'en';

/** English is the reference: `satisfies` makes the compiler reject a French file missing a key. */
export const resources = {
  en: { translation: en },
  fr: { translation: fr satisfies typeof en },
} as const;

export function isLanguageCode(value: string | undefined): value is LanguageCode {
  return supportedLanguages.some((language) => language.code === value);
}
