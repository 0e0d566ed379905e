import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { readManifest } from './manifest.js';
import { repoRoot, sharedModelsDir, testdataDir } from './paths.js';

describe('readManifest', () => {
  const entries = readManifest();

  it('resolves the shared folders beside the checkout', () => {
    expect(existsSync(path.join(repoRoot, 'packages/speech/package.json'))).toBe(true);
    expect(testdataDir).toBe(path.resolve(repoRoot, '../shared/testdata'));
    expect(existsSync(path.join(testdataDir, 'manifest.tsv'))).toBe(true);
    expect(existsSync(path.join(sharedModelsDir, 'ggml-base-q8_0.bin'))).toBe(true);
  });

  it('lists every recording with its language, duration, reference and subset', () => {
    expect(entries.length).toBeGreaterThanOrEqual(30);
    for (const entry of entries) {
      expect(statSync(entry.absolutePath).size).toBeGreaterThan(0);
      expect(entry.absolutePath).toBe(path.join(testdataDir, entry.path));
      expect(entry.language).toMatch(/^(en|fr|de|es)$/);
      expect(entry.durationSeconds).toBeGreaterThan(1);
      expect(entry.referenceText.length).toBeGreaterThan(10);
    }
    expect(new Set(entries.map((entry) => entry.subset))).toEqual(new Set(['utt', 'long', 'container']));
    expect(entries.find((entry) => entry.path === 'en/jfk-inaugural.flac')).toMatchObject({
      language: 'en',
      durationSeconds: 11,
      subset: 'utt',
      referenceText: expect.stringMatching(/^And so my fellow Americans/) as unknown,
    });
  });
});
