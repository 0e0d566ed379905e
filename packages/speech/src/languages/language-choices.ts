import { frenchMedicalCode } from './fr-medical.js';
import { isRealtimeLanguage, whisperLanguages } from './whisper-languages.js';

export interface LanguageChoice {
  code: string;
  name: string;
  isRealtimeSupported: boolean;
}

function displayNames(locale: string): (code: string, fallback: string) => string {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([locale, 'en'], { type: 'language', fallback: 'none' });
  } catch {
    names = undefined;
  }
  return (code, fallback) => {
    const name = names?.of(code) ?? fallback;
    return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
  };
}

const medicalSuffix: Record<string, string> = { en: 'Medical', fr: 'médical' };

/**
 * The languages the installed models can serve, named in the interface language: every Whisper
 * language when a multilingual model is installed, English alone with English-only models, none
 * without a model; French (Medical) whenever French can be served.
 */
export function languageChoices(models: { multilingual: boolean }[], locale = 'en'): LanguageChoice[] {
  const multilingual = models.some((model) => model.multilingual);
  const englishOnly = !multilingual && models.length > 0;
  const name = displayNames(locale);
  const choices = whisperLanguages()
    .filter((language) => multilingual || (englishOnly && language.code === 'en'))
    .map((language) => ({
      code: language.code,
      name: name(language.code, language.englishName),
      isRealtimeSupported: isRealtimeLanguage(language.code),
    }));
  const french = choices.find((choice) => choice.code === 'fr');
  if (french) {
    const suffix = medicalSuffix[locale.slice(0, 2)] ?? medicalSuffix.en;
    choices.push({ code: frenchMedicalCode, name: `${french.name} (${suffix})`, isRealtimeSupported: true });
  }
  return choices;
}

/** The recogniser's language for a requested code: `fr-medical` is French; undefined = detect. */
export function recogniserLanguage(code: string | undefined): string | undefined {
  if (!code || code === 'auto') return undefined;
  return code === frenchMedicalCode ? 'fr' : code;
}

export function isKnownLanguage(code: string): boolean {
  return code === frenchMedicalCode || whisperLanguages().some((language) => language.code === code);
}
