import { describe, expect, it } from 'vitest';
import { isSpeechError } from '../speech-error.js';
import {
  closeModelNames,
  findCatalogueModel,
  modelCatalogue,
  modelNameOfFile,
  requireCatalogueModel,
} from './model-catalogue.js';

describe('model catalogue', () => {
  it('lists the 33 official whisper.cpp ggml models with file names, language scope and sizes', () => {
    expect(modelCatalogue).toHaveLength(33);
    expect(new Set(modelCatalogue.map((model) => model.name)).size).toBe(33);
    for (const model of modelCatalogue) {
      expect(model.fileName).toBe(`ggml-${model.name}.bin`);
      expect(model.englishOnly).toBe(model.name.includes('.en'));
      expect(model.approximateBytes).toBeGreaterThan(30e6);
      expect(model.description).toMatch(model.englishOnly ? /English only/ : /multilingual/);
    }
    expect(findCatalogueModel('base-q8_0')).toMatchObject({
      modelType: 'base',
      weights: 'q8_0',
      approximateBytes: 81768585,
    });
    expect(findCatalogueModel('tiny.en-q8_0')).toMatchObject({
      modelType: 'tiny',
      englishOnly: true,
      approximateBytes: 43550778,
    });
    expect(findCatalogueModel('large-v3-turbo-q5_0')).toMatchObject({ modelType: 'large', weights: 'q5_0' });
    expect(findCatalogueModel('large-v3-turbo')?.description).toMatch(/turbo/);
    expect(findCatalogueModel('medium')?.approximateBytes).toBeCloseTo(1.53e9, -8);
  });

  it('refuses an unknown name, listing the close official ones', () => {
    const attempt = (name: string) => {
      try {
        requireCatalogueModel(name);
      } catch (error) {
        if (isSpeechError(error)) return error.message;
        throw error;
      }
      throw new Error(`${name} was accepted`);
    };
    expect(attempt('base-q8')).toBe('unknown model "base-q8": did you mean base-q8_0?');
    expect(closeModelNames('large-v3-turb')).toEqual([
      'large-v3-turbo',
      'large-v3-turbo-q5_0',
      'large-v3-turbo-q8_0',
      'large-v3-q5_0',
    ]);
    expect(closeModelNames('large-v3-turbo-q8')[0]).toBe('large-v3-turbo-q8_0');
    expect(closeModelNames('ggml-smal.bin')).toContain('small');
    expect(closeModelNames('tiny-en')).toContain('tiny.en');
    expect(attempt('whisper-xxl')).toBe(
      'unknown model "whisper-xxl": see `verbatim models list` for the official names',
    );
  });

  it('reads model names from file names, ignoring partial downloads and unsafe names', () => {
    expect(modelNameOfFile('ggml-base-q8_0.bin')).toBe('base-q8_0');
    expect(modelNameOfFile('ggml-base-q8_0.bin.part')).toBeUndefined();
    expect(modelNameOfFile('ggml-base-q8_0.bin.lock')).toBeUndefined();
    expect(modelNameOfFile('base-q8_0.bin')).toBeUndefined();
    expect(modelNameOfFile('ggml-Base Model.bin')).toBeUndefined();
  });
});
