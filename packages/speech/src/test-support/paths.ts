import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository's root: this file is packages/speech/src/test-support/paths.ts. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Real recordings with reference texts, beside the checkout (never copied into it). */
export const testdataDir = path.resolve(repoRoot, '../shared/testdata');

/** Real whisper.cpp models beside the checkout; `SPEECH_MODELS_DIR` wins when set. */
export const sharedModelsDir = process.env.SPEECH_MODELS_DIR?.trim()
  ? path.resolve(process.env.SPEECH_MODELS_DIR.trim())
  : path.resolve(repoRoot, '../shared/models');

/** The absolute path of a test recording given relative to the test data folder, e.g. `en/jfk-inaugural.flac`. */
export function testdataFile(relativePath: string): string {
  return path.join(testdataDir, relativePath);
}
