import { frenchMedicalCode } from './fr-medical.js';
import { isRealtimeLanguage, whisperLanguages, type WhisperLanguage } from './whisper-languages.js';

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

/** Every Whisper language with a multilingual model, English alone with English-only models, none without a model. */
function servedWhisperLanguages(models: { multilingual: boolean }[]): WhisperLanguage[] {
  const multilingual = models.some((model) => model.multilingual);
  const englishOnly = !multilingual && models.length > 0;
  return whisperLanguages().filter((language) => multilingual || (englishOnly && language.code === 'en'));
}

/**
 * Whether the installed models serve `code` (one of languageChoices' codes), without naming every
 * language as languageChoices does: each request checks its language.
 */
export function servesLanguage(models: { multilingual: boolean }[], code: string): boolean {
  const whisperCode = recogniserLanguage(code);
  return servedWhisperLanguages(models).some((language) => language.code === whisperCode);
}

const medicalSuffix: Record<string, string> = { en: 'Medical', fr: 'médical' };

/**
 * The languages the installed models can serve, named in the interface language: every Whisper
 * language when a multilingual model is installed, English alone with English-only models, none
 * without a model; French (Medical) whenever French can be served.
 */
export function languageChoices(models: { multilingual: boolean }[], locale = 'en'): LanguageChoice[] {
  const name = displayNames(locale);
  const choices = servedWhisperLanguages(models).map((language) => ({
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
