import type en from './en.json';

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

/**
 * The strings of one language, loaded when the language is first used: a visit downloads its own
 * language only. English is the reference: the French file's type must be English's, so the
 * compiler rejects a French file missing a key.
 */
export async function loadTranslation(code: LanguageCode): Promise<typeof en> {
  switch (code) {
    case 'en':
      return (await import('./en.json')).default;
    case 'fr': {
      const fr: typeof en = (await import('./fr.json')).default;
      return fr;
    }
  }
}

export function isLanguageCode(value: string | undefined): value is LanguageCode {
  return supportedLanguages.some((language) => language.code === value);
}
