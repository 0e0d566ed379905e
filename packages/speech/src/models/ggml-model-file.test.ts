import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, open, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSpeechError } from '../speech-error.js';
import { inspectModelFile } from './ggml-model-file.js';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const sharedModels = path.resolve(repoRoot, '../shared/models');
const base = path.join(sharedModels, 'ggml-base-q8_0.bin');
const tinyEn = path.join(sharedModels, 'ggml-tiny.en-q8_0.bin');

/** The reason inspectModelFile gives for refusing the file (fails the test if it accepts it). */
async function refusal(filePath: string): Promise<string> {
  try {
    await inspectModelFile(filePath);
  } catch (error) {
    if (!isSpeechError(error)) throw error;
    expect(error.code).toBe('INVALID_MODEL');
    expect(error.message).toContain(path.basename(filePath));
    return error.message;
  }
  throw new Error(`${filePath} was accepted`);
}

describe('inspectModelFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'verbatim-ggml-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the multilingual base model, walking all its tensors in well under a second', async () => {
    const started = performance.now();
    const info = await inspectModelFile(base);
    const elapsedMs = performance.now() - started;
    console.log(
      `walked ggml-base-q8_0.bin (81.8 MB, ${info.tensorCount} tensors) in ${elapsedMs.toFixed(1)} ms`,
    );
    expect(elapsedMs).toBeLessThan(1000);
    expect(info).toMatchObject({
      multilingual: true,
      modelType: 'base',
      vocabularySize: 51865,
      melBins: 80,
      ftype: 7,
      weightType: 'q8_0',
      quantizationVersion: 2,
      // whisper.cpp: 7 encoder + 15 per encoder layer + 4 decoder + 24 per decoder layer.
      tensorCount: 7 + 15 * 6 + 4 + 24 * 6,
      bytes: 81768585,
    });
    expect(info.hyperParameters).toMatchObject({
      audioLayers: 6,
      textLayers: 6,
      audioState: 512,
      audioContext: 1500,
    });
  });

  it('reads the English-only tiny model', async () => {
    const info = await inspectModelFile(tinyEn);
    expect(info).toMatchObject({
      multilingual: false,
      modelType: 'tiny',
      vocabularySize: 51864,
      weightType: 'q8_0',
      tensorCount: 7 + 15 * 4 + 4 + 24 * 4,
      bytes: 43550778,
    });
  });

  it('refuses a copy cut short, saying how much is missing', async () => {
    const cut = path.join(dir, 'ggml-base-q8_0.bin');
    const source = await open(base, 'r');
    const buffer = Buffer.alloc(10_000_000);
    await source.read(buffer, 0, buffer.length, 0);
    await source.close();
    await writeFile(cut, buffer);
    // The expected size comes from the header alone, and is exact.
    expect(await refusal(cut)).toBe('ggml-base-q8_0.bin: cut short: 10.0 MB of 81.8 MB expected');
  });

  it('refuses random bytes, text, an empty file, a missing file and a broken link', async () => {
    const random = path.join(dir, 'random.bin');
    await writeFile(random, randomBytes(1_000_000));
    expect(await refusal(random)).toBe('random.bin: not a whisper.cpp model (wrong magic)');

    const text = path.join(dir, 'notes.txt');
    await writeFile(text, 'Entry not found\n'.repeat(10));
    expect(await refusal(text)).toMatch(
      /^notes\.txt: not a whisper\.cpp model \(wrong magic\): the file is text \("Entry not found/,
    );

    const empty = path.join(dir, 'ggml-empty.bin');
    await writeFile(empty, '');
    expect(await refusal(empty)).toBe('ggml-empty.bin: empty file');

    const lfs = path.join(dir, 'ggml-lfs.bin');
    await writeFile(lfs, 'version https://git-lfs.github.com/spec/v1\noid sha256:a3bc\nsize 81768585\n');
    expect(await refusal(lfs)).toBe('ggml-lfs.bin: a Git LFS pointer file, not the model itself');

    expect(await refusal(path.join(dir, 'ggml-absent.bin'))).toBe('ggml-absent.bin: no such file');
    const link = path.join(dir, 'ggml-dangling.bin');
    await symlink(path.join(dir, 'gone.bin'), link);
    expect(await refusal(link)).toMatch(/^ggml-dangling\.bin: a link to .*gone\.bin, which does not exist$/);
  });

  it('refuses a valid header followed by garbage, naming the first bad tensor record', async () => {
    const head = await readFile(base).then((bytes) => {
      // The first tensor record starts 20 bytes (n_dims, name length, type, ne0, ne1) before its name.
      const firstTensor = bytes.indexOf('encoder.positional_embedding') - 20;
      return bytes.subarray(0, firstTensor);
    });
    const garbage = Buffer.alloc(4_000_000, 0x5a);
    const file = path.join(dir, 'ggml-garbage.bin');
    await writeFile(file, Buffer.concat([head, garbage]));
    expect(await refusal(file)).toMatch(
      new RegExp(
        `^ggml-garbage\\.bin: corrupt tensor record at byte ${head.length} \\(1515870810 dimensions\\)`,
      ),
    );
  });

  it('refuses trailing bytes after the last tensor, and a tensor of the wrong type', async () => {
    const longer = path.join(dir, 'ggml-longer.bin');
    await copyFile(tinyEn, longer);
    await writeFile(longer, Buffer.from('extra bytes'), { flag: 'a' });
    expect(await refusal(longer)).toBe(
      'ggml-longer.bin: 11 bytes of unexpected data after the last tensor (43.6 MB expected)',
    );

    const retyped = path.join(dir, 'ggml-retyped.bin');
    await copyFile(tinyEn, retyped);
    const bytes = await readFile(tinyEn);
    const typeOffset = bytes.indexOf('encoder.positional_embedding') - 12;
    const handle = await open(retyped, 'r+');
    await handle.write(Buffer.from([1, 0, 0, 0]), 0, 4, typeOffset);
    await handle.close();
    expect(await refusal(retyped)).toBe(
      'ggml-retyped.bin: tensor "encoder.positional_embedding" is stored as f16, whisper.cpp expects f32',
    );
  });
});
