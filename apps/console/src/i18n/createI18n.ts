import i18next, { type BackendModule, type i18n } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { defaultLanguage, isLanguageCode, loadTranslation, supportedLanguages } from './resources';

/** Where the language chosen in the header is remembered between visits. */
export const languageStorageKey = 'verbatim.language';

/** Reads a language's strings from its own chunk (resources.ts), when i18next first needs them. */
const translationChunks: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language, _namespace, callback) => {
    loadTranslation(isLanguageCode(language) ? language : defaultLanguage).then(
      (strings) => callback(null, strings),
      (error: Error) => callback(error, false),
    );
  },
};

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
    .use(translationChunks)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      supportedLngs: supportedLanguages.map((language) => language.code),
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      // French has every key (resources.ts), so a French visit need not download English too.
      fallbackLng: { fr: [], default: [defaultLanguage] },
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
