import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test-support/cli.js';
import {
  sharedModelsDir,
  startModelRepositoryStandIn,
  type ModelRepositoryStandIn,
} from '../../test-support/model-repository-stand-in.js';
import {
  ModelsCommandError,
  ModelsUsageError,
  runModelsCommand,
  type SpeechModelsConfig,
} from './models.cli.js';

// From ../shared/models/README.md.
const tinyEnSha256 = '66955b15d73b71cc7306d7d735f8439bdb78e208b62422ff9f101f7b880a4441';

async function sha256(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Runs the command in this process (the CLI's own code path, minus process start-up). */
async function runInProcess(speech: SpeechModelsConfig, args: string[]): Promise<string> {
  const lines: string[] = [];
  const progress = new Writable({ write: (_chunk, _encoding, done) => done() });
  await runModelsCommand(speech, args, { print: (text) => lines.push(text), progress });
  return lines.join('\n');
}

async function refusal(work: Promise<unknown>): Promise<Error> {
  try {
    await work;
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error('the command succeeded');
}

describe('verbatim models', () => {
  let repository: ModelRepositoryStandIn;
  let dataDir: string;
  let modelsDir: string;
  let env: Record<string, string>;
  let speech: SpeechModelsConfig;
  const modelPath = () => path.join(modelsDir, 'ggml-tiny.en-q8_0.bin');

  beforeAll(async () => {
    repository = await startModelRepositoryStandIn(['ggml-tiny.en-q8_0.bin']);
    dataDir = await mkdtemp(path.join(tmpdir(), 'verbatim-models-cli-'));
    modelsDir = path.join(dataDir, 'models');
    env = {
      DATA_DIR: dataDir,
      SPEECH_MODELS_DIR: modelsDir,
      SPEECH_MODELS_URL: repository.url,
      SPEECH_MODEL_EN: 'tiny.en-q8_0',
    };
    speech = {
      modelsDir,
      defaultModel: 'base-q8_0',
      modelByLanguage: { en: 'tiny.en-q8_0' },
      downloadBaseUrl: repository.url,
      autoDownload: true,
    };
  });
  afterAll(async () => {
    await repository.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists the catalogue with the default and per-language choices before anything is installed', async () => {
    const result = await runCli(['models', 'list'], env);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`Models folder: ${modelsDir}`);
    expect(lines[1]).toBe('Default model: base-q8_0; per language: en=tiny.en-q8_0');
    expect(lines.find((line) => line.includes(' base-q8_0 '))).toMatch(
      /^ +base-q8_0 +~81\.8 MB +multilingual +NOT INSTALLED, default$/,
    );
    expect(lines.find((line) => line.includes(' tiny.en-q8_0 '))).toMatch(
      /^ +tiny\.en-q8_0 +~43\.6 MB +English only +NOT INSTALLED, for en$/,
    );
    expect(lines.find((line) => line.includes(' large-v3-turbo '))).toMatch(/~1\.62 GB +multilingual$/);
    // 33 Whisper models and the 2 speaker diarization networks.
    expect(lines.filter((line) => /^[ *] {2}\S+ +~?[\d.]+ [KMG]?B /.test(line))).toHaveLength(35);
    expect(lines).toContain('   pyannote-segmentation-3.0  ~7.0 MB  NOT INSTALLED');
  });

  it('downloads a model with progress, then finds it installed', async () => {
    const result = await runCli(['models', 'download', 'tiny.en-q8_0'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Downloading tiny.en-q8_0 (~43.6 MB) into ${modelsDir}`);
    expect(result.stdout).toContain(`From ${repository.url}/ggml-tiny.en-q8_0.bin`);
    // Not a terminal: a progress line per 10 %, with megabytes and speed.
    expect(result.stdout).toMatch(/^ {2}50% {2}2\d\.\d\/43\.6 MB {2}\d+\.\d MB\/s$/m);
    expect(result.stdout).toMatch(/^ {2}100% {2}43\.6\/43\.6 MB/m);
    expect(result.stdout).toContain(
      `Installed tiny.en-q8_0: 43.6 MB, Whisper tiny, English only, q8_0 weights, 167 tensors checked → ${modelPath()}`,
    );
    expect(await sha256(modelPath())).toBe(tinyEnSha256);

    expect(await runInProcess(speech, ['download', 'tiny.en-q8_0'])).toContain(
      `tiny.en-q8_0 is already installed: ${modelPath()}`,
    );
    await writeFile(path.join(modelsDir, 'ggml-small-q8_0.bin'), 'Entry not found');
    await writeFile(path.join(modelsDir, 'ggml-my-finetune.bin'), '');
    const list = await runInProcess(speech, ['list']);
    expect(list).toMatch(/^\* +tiny\.en-q8_0 +43\.6 MB +English only +installed, for en$/m);
    expect(list).toMatch(
      /^ +small-q8_0 +15 B +multilingual +BROKEN: not a whisper\.cpp model \(wrong magic\): the file is text/m,
    );
    expect(list).toMatch(/^ +my-finetune +0 B +\? +BROKEN: empty file$/m);
  });

  it('resumes a partial download, saying so', async () => {
    await rm(modelPath());
    const part = Buffer.alloc(10_000_000);
    const source = await open(path.join(sharedModelsDir, 'ggml-tiny.en-q8_0.bin'), 'r');
    await source.read(part, 0, part.length, 0);
    await source.close();
    await writeFile(`${modelPath()}.part`, part);

    const result = await runCli(['models', 'download', 'tiny.en-q8_0'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      `Resuming the earlier download from 10.0 MB (${repository.url}/ggml-tiny.en-q8_0.bin)`,
    );
    expect(result.stdout).not.toMatch(/^ {2}10%/m);
    expect(result.stdout).toMatch(/^ {2}30% /m);
    expect(repository.ranges.at(-1)).toBe('bytes=10000000-');
    expect(await sha256(modelPath())).toBe(tinyEnSha256);
  });

  it('refuses unknown names with the close ones, and reports a model the repository lacks', async () => {
    const unknown = await runCli(['models', 'download', 'tiny-en-q8'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('verbatim: unknown model "tiny-en-q8": did you mean tiny.en-q8_0?\n');

    const missing = await runCli(['models', 'download', 'base-q8_0'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `verbatim: no model named base-q8_0 at ${repository.url}/ggml-base-q8_0.bin\n`,
    );
    expect(await readdir(modelsDir)).not.toContain('ggml-base-q8_0.bin.part');

    const offline = await refusal(
      runInProcess({ ...speech, downloadBaseUrl: 'http://127.0.0.1:1/models' }, ['download', 'base-q8_0']),
    );
    expect(offline).toBeInstanceOf(ModelsCommandError);
    expect(offline.message).toMatch(/^cannot reach 127\.0\.0\.1:1 \(/);

    const usage = await runCli(['models', 'download'], env);
    expect(usage.code).toBe(64);
    expect(usage.stderr).toContain('verbatim: usage: models download <name>');
    const other = await refusal(runInProcess(speech, ['fetch', 'base']));
    expect(other).toBeInstanceOf(ModelsUsageError);
    expect(other.message).toBe('unknown models command "fetch"');
  });

  it('removes a model, and says when there is nothing to remove', async () => {
    const result = await runCli(['models', 'remove', 'tiny.en-q8_0'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Removed tiny.en-q8_0 from ${modelsDir}`);
    expect(result.stdout).toContain('Note: tiny.en-q8_0 is configured (for en)');
    expect((await readdir(modelsDir)).sort()).toEqual(['ggml-my-finetune.bin', 'ggml-small-q8_0.bin']);

    const again = await refusal(runInProcess(speech, ['remove', 'tiny.en-q8_0']));
    expect(again).toBeInstanceOf(ModelsCommandError);
    expect(again.message).toBe(`tiny.en-q8_0 is not installed in ${modelsDir}`);
  });
});
