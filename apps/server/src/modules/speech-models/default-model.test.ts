import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../../test-support/log-capture.js';
import {
  sharedModelsDir,
  startModelRepositoryStandIn,
  type ModelRepositoryStandIn,
} from '../../test-support/model-repository-stand-in.js';
import { ensureDefaultModel } from './default-model.js';
import type { SpeechModelsConfig } from './models.cli.js';

/**
 * The "offline" case, without any real network: port 2, where nothing listens, below the range the
 * system hands out (a port taken from it and let go goes to the next test file's server, which would
 * answer instead), and not one of the ports fetch refuses to try (1 is).
 */
const offlineUrl = 'http://127.0.0.1:2/m';

describe('ensureDefaultModel', () => {
  let repository: ModelRepositoryStandIn;
  let root: string;
  let folders = 0;
  const newConfig = (overrides: Partial<SpeechModelsConfig> = {}): SpeechModelsConfig => ({
    modelsDir: path.join(root, `models-${++folders}`),
    defaultModel: 'tiny.en-q8_0',
    modelByLanguage: {},
    downloadBaseUrl: repository.url,
    autoDownload: true,
    ...overrides,
  });

  beforeAll(async () => {
    repository = await startModelRepositoryStandIn(['ggml-tiny.en-q8_0.bin']);
    root = await mkdtemp(path.join(tmpdir(), 'verbatim-default-model-'));
  });
  afterAll(async () => {
    await repository.close();
    await rm(root, { recursive: true, force: true });
  });

  it('downloads the missing default model, logging progress about every 10 %, then finds it present', async () => {
    const speech = newConfig();
    const { logger, lines } = captureLogs();
    expect(await ensureDefaultModel(speech, logger)).toBe('downloaded');
    const percents = lines.filter((line) => line.percent !== undefined).map((line) => line.percent);
    expect(percents.map((percent) => Math.floor(Number(percent) / 10) * 10)).toEqual([
      10, 20, 30, 40, 50, 60, 70, 80, 90, 100,
    ]);
    expect(lines.find((line) => line.percent === percents[4])?.msg).toMatch(
      /^downloading speech model tiny\.en-q8_0: 5\d% \(2\d\.\d MB of 43\.6 MB\)$/,
    );
    expect(lines.at(-1)).toMatchObject({
      level: 30,
      model: 'tiny.en-q8_0',
      msg: 'speech model tiny.en-q8_0 downloaded and checked',
      bytes: 43550778,
      multilingual: false,
    });
    expect(await readdir(speech.modelsDir)).toEqual(['ggml-tiny.en-q8_0.bin']);

    const again = captureLogs();
    expect(await ensureDefaultModel(speech, again.logger)).toBe('present');
    expect(again.lines).toEqual([]);
  });

  it('when offline, warns how to add a model by hand and resolves "failed" without throwing', async () => {
    const speech = newConfig({
      defaultModel: 'base-q8_0',
      downloadBaseUrl: offlineUrl,
    });
    const { logger, lines } = captureLogs();
    expect(await ensureDefaultModel(speech, logger)).toBe('failed');
    const warning = lines.find((line) => line.level === 40);
    expect(warning?.msg).toMatch(
      /^speech model base-q8_0 could not be downloaded: cannot reach 127\.0\.0\.1:\d+ \(ECONNREFUSED\)\. /,
    );
    expect(warning?.msg).toContain('run "npx node apps/server/dist/cli.js models download base-q8_0"');
    expect(warning?.msg).toContain(
      `copy a whisper.cpp ggml file named ggml-base-q8_0.bin into ${speech.modelsDir} (SPEECH_MODELS_DIR)`,
    );
    expect(warning).toMatchObject({ reason: 'UNREACHABLE', model: 'base-q8_0' });
  });

  it('reports a default model the repository does not have', async () => {
    const speech = newConfig({ defaultModel: 'base-q8_0' });
    const { logger, lines } = captureLogs();
    expect(await ensureDefaultModel(speech, logger)).toBe('failed');
    expect(lines.find((line) => line.level === 40)?.msg).toContain(
      `could not be downloaded: no model named base-q8_0 at ${repository.url}/ggml-base-q8_0.bin.`,
    );
  });

  it('downloads nothing when automatic download is off, saying what the engine uses meanwhile', async () => {
    const speech = newConfig({ defaultModel: 'small-q8_0', autoDownload: false });
    await mkdir(speech.modelsDir);
    await symlink(
      path.join(sharedModelsDir, 'ggml-base-q8_0.bin'),
      path.join(speech.modelsDir, 'ggml-base-q8_0.bin'),
    );
    const { logger, lines } = captureLogs();
    const requestsBefore = repository.ranges.length;
    expect(await ensureDefaultModel(speech, logger)).toBe('disabled');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toMatch(
      /^speech model small-q8_0 is not installed \(automatic download is off\); until then the engine uses base-q8_0\. To add it: /,
    );
    expect(repository.ranges).toHaveLength(requestsBefore);
  });

  it('stops when asked, keeping what it fetched for the next start', async () => {
    const speech = newConfig();
    const controller = new AbortController();
    const { logger, lines } = captureLogs();
    const outcome = ensureDefaultModel(speech, logger, { signal: controller.signal });
    const deadline = Date.now() + 10_000;
    while (!lines.some((line) => line.percent !== undefined) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await outcome).toBe('failed');
    expect(lines.at(-1)?.msg).toBe(
      'download of speech model tiny.en-q8_0 stopped; the next start resumes it',
    );
    expect(await readdir(speech.modelsDir)).toEqual(['ggml-tiny.en-q8_0.bin.part']);
  });
});
