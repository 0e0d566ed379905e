import { loadNativeAddon } from '../recogniser/native-addon.js';

export interface WhisperLanguage {
  /** ISO 639-1 (or Whisper's own, e.g. `haw`, `yue`) code. */
  code: string;
  /** Whisper's English name, lower case. */
  englishName: string;
}

/**
 * Languages Whisper models recognise well enough to follow live speech with the small models a
 * single machine runs: the high-resource languages of Whisper's training set (word error rates
 * under ~15% on FLEURS for the larger models, published in the Whisper paper). Others work for
 * files, where a larger model and beam search have time to make up for less training data.
 */
const realtimeLanguageCodes = new Set([
  'en',
  'zh',
  'de',
  'es',
  'ru',
  'ko',
  'fr',
  'ja',
  'pt',
  'tr',
  'pl',
  'ca',
  'nl',
  'ar',
  'sv',
  'it',
  'id',
  'hi',
  'fi',
  'vi',
  'he',
  'uk',
  'el',
  'ms',
  'cs',
  'ro',
  'da',
  'hu',
  'no',
  'th',
  'sk',
  'hr',
  'bg',
  'lt',
  'gl',
  'sl',
  'lv',
  'et',
]);

export function isRealtimeLanguage(code: string): boolean {
  return realtimeLanguageCodes.has(code);
}

let cached: WhisperLanguage[] | undefined;

/** Every language of whisper.cpp, in its own order (English first). */
export function whisperLanguages(): WhisperLanguage[] {
  cached ??= loadNativeAddon()
    .languages()
    .map((language) => ({ code: language.code, englishName: language.name }));
  return cached;
}
