import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseModel, findUsableModel, listInstalledModels, type InstalledModel } from './model-registry.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const sharedModels = path.resolve(repoRoot, '../shared/models');

describe('model registry', () => {
  let dir: string;
  let installed: InstalledModel[];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'verbatim-registry-'));
    for (const file of ['ggml-base-q8_0.bin', 'ggml-tiny.en-q8_0.bin'])
      await symlink(path.join(sharedModels, file), path.join(dir, file));
    await writeFile(path.join(dir, 'ggml-small-q8_0.bin'), '<html>Not found</html>');
    await writeFile(path.join(dir, 'ggml-medium.bin.part'), 'half a download');
    await writeFile(path.join(dir, 'README.txt'), 'not a model');
    installed = await listInstalledModels(dir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lists every ggml-<name>.bin with its check, a bad file with its problem', () => {
    expect(installed.map(({ name, bytes, problem }) => ({ name, bytes, problem }))).toEqual([
      { name: 'base-q8_0', bytes: 81768585, problem: undefined },
      {
        name: 'small-q8_0',
        bytes: 22,
        problem: 'not a whisper.cpp model (wrong magic): the file is text ("<html>Not found</html>…")',
      },
      { name: 'tiny.en-q8_0', bytes: 43550778, problem: undefined },
    ]);
    expect(installed[0]?.info?.multilingual).toBe(true);
    expect(installed[2]?.info?.multilingual).toBe(false);
    expect(installed[0]?.path).toBe(path.join(dir, 'ggml-base-q8_0.bin'));
  });

  it('has no models in a folder that does not exist', async () => {
    expect(await listInstalledModels(path.join(dir, 'nowhere'))).toEqual([]);
  });

  it('finds a usable model by name, not a broken or missing one', async () => {
    expect((await findUsableModel(dir, 'base-q8_0'))?.info.modelType).toBe('base');
    expect(await findUsableModel(dir, 'small-q8_0')).toBeUndefined();
    expect(await findUsableModel(dir, 'large-v3')).toBeUndefined();
  });

  it('chooses the per-language model, else the default, never an English-only one for another language', () => {
    const choice = { defaultModel: 'base-q8_0', modelByLanguage: { en: 'tiny.en-q8_0', fr: 'tiny.en-q8_0' } };
    expect(chooseModel('en', choice, installed)?.name).toBe('tiny.en-q8_0');
    expect(chooseModel('EN-us', choice, installed)?.name).toBe('tiny.en-q8_0');
    expect(chooseModel('fr', choice, installed)?.name).toBe('base-q8_0');
    expect(chooseModel('de', choice, installed)?.name).toBe('base-q8_0');
    expect(chooseModel(undefined, choice, installed)?.name).toBe('base-q8_0');
    // A per-language choice that is broken or missing falls back to the default.
    const broken = { defaultModel: 'base-q8_0', modelByLanguage: { es: 'small-q8_0', it: 'medium' } };
    expect(chooseModel('es', broken, installed)?.name).toBe('base-q8_0');
    expect(chooseModel('it', broken, installed)?.name).toBe('base-q8_0');
  });

  it('falls back to an installed multilingual model when the default is missing or broken', () => {
    for (const defaultModel of ['small-q8_0', 'large-v3', 'tiny.en-q8_0']) {
      const choice = { defaultModel, modelByLanguage: {} };
      expect(chooseModel('fr', choice, installed)?.name).toBe('base-q8_0');
      expect(chooseModel(undefined, choice, installed)?.name).toBe('base-q8_0');
    }
    // An English-only default is fine for English.
    expect(chooseModel('en', { defaultModel: 'tiny.en-q8_0', modelByLanguage: {} }, installed)?.name).toBe(
      'tiny.en-q8_0',
    );
  });

  it('uses an English-only model only for English when it is all there is', () => {
    const englishOnly = installed.filter((model) => model.name !== 'base-q8_0');
    const choice = { defaultModel: 'base-q8_0', modelByLanguage: {} };
    expect(chooseModel('en', choice, englishOnly)?.name).toBe('tiny.en-q8_0');
    expect(chooseModel('fr', choice, englishOnly)).toBeUndefined();
    expect(chooseModel(undefined, choice, englishOnly)).toBeUndefined();
    expect(chooseModel('en', choice, [])).toBeUndefined();
  });
});
