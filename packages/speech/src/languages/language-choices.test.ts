import { describe, expect, it } from 'vitest';
import { languageChoices, servesLanguage } from './language-choices.js';

const multilingual = [{ multilingual: true }, { multilingual: false }];
const englishOnly = [{ multilingual: false }];

describe('servesLanguage', () => {
  it('serves exactly the codes languageChoices lists, for every set of installed models', () => {
    for (const models of [multilingual, englishOnly, []]) {
      const listed = new Set(languageChoices(models).map((choice) => choice.code));
      for (const code of [...listed, 'en', 'fr', 'fr-medical', 'de', 'yue', 'xx', 'auto', '']) {
        expect(servesLanguage(models, code), `${code} with ${JSON.stringify(models)}`).toBe(listed.has(code));
      }
    }
  });

  it('serves French (Medical) with a multilingual model only, and nothing without a model', () => {
    expect(servesLanguage(multilingual, 'fr-medical')).toBe(true);
    expect(servesLanguage(englishOnly, 'fr-medical')).toBe(false);
    expect(servesLanguage(englishOnly, 'en')).toBe(true);
    expect(servesLanguage([], 'en')).toBe(false);
  });
});
