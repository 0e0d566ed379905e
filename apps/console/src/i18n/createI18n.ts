import i18next, { type i18n } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { defaultLanguage, isLanguageCode, resources, supportedLanguages } from './resources';

/** Where the language chosen in the header is remembered between visits. */
export const languageStorageKey = 'verbatim.language';

/**
 * A ready i18next instance: the saved choice wins, then the browser's language, then English.
 * Every change is saved and mirrored on `<html lang>` so screen readers and hyphenation follow.
 */
export async function createI18n(): Promise<i18n> {
  const instance = i18next.createInstance();
  instance.on('languageChanged', () => {
    document.documentElement.lang = currentLanguage(instance);
  });
  await instance
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      resources,
      supportedLngs: supportedLanguages.map((language) => language.code),
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: defaultLanguage,
      interpolation: { escapeValue: false }, // React escapes what it renders
      returnNull: false,
      showSupportNotice: false,
      detection: {
        order: ['localStorage', 'navigator'],
        lookupLocalStorage: languageStorageKey,
        caches: ['localStorage'],
        // `fr-CA` from the browser is stored and shown as `fr`.
        convertDetectedLanguage: (language: string) => language.split('-')[0] ?? language,
      },
    });
  return instance;
}

/** The supported language in use, whatever regional variant the browser asked for. */
export function currentLanguage(instance: i18n) {
  const resolved = instance.resolvedLanguage;
  return isLanguageCode(resolved) ? resolved : defaultLanguage;
}
