import { mkdir, mkdtemp, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embeddingModelName, findDiarizationModel, segmentationModelName } from '@verbatim/speech';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../../test-support/log-capture.js';
import { sharedModelsDir } from '../../test-support/model-repository-stand-in.js';
import { ensureDiarizationModels } from './diarization-models.js';
import type { SpeechModelsConfig } from './models.cli.js';

const embeddingUrl = findDiarizationModel(embeddingModelName)?.url ?? '';

describe('ensureDiarizationModels at start-up', () => {
  let root: string;
  let releases: Server;
  let baseUrl: string;
  let folders = 0;
  const newConfig = async (withSegmentation: boolean, autoDownload = true): Promise<SpeechModelsConfig> => {
    const modelsDir = path.join(root, `models-${++folders}`);
    await mkdir(modelsDir);
    const fileName = `${segmentationModelName}.onnx`;
    if (withSegmentation) await symlink(path.join(sharedModelsDir, fileName), path.join(modelsDir, fileName));
    return {
      modelsDir,
      defaultModel: 'tiny.en-q8_0',
      modelByLanguage: {},
      downloadBaseUrl: 'http://127.0.0.1:9',
      autoDownload,
    };
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'verbatim-diarization-models-'));
    // A stand-in for the sherpa-onnx releases serving the embedding network under its official name.
    const body = await readFile(path.join(sharedModelsDir, `${embeddingModelName}.onnx`));
    releases = createServer((request, response) => {
      if (request.url !== `/${embeddingUrl.slice(embeddingUrl.lastIndexOf('/') + 1)}`) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-length': String(body.length) }).end(body);
    });
    await new Promise<void>((resolve) => releases.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(releases.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    releases.closeAllConnections();
    await new Promise((resolve) => releases.close(resolve));
    await rm(root, { recursive: true, force: true });
  });

  it('downloads the missing network, then finds both present', async () => {
    const speech = await newConfig(true);
    const { logger, lines } = captureLogs();
    expect(await ensureDiarizationModels(speech, logger, { baseUrl })).toBe('downloaded');
    expect(lines.at(-1)).toMatchObject({ model: embeddingModelName, verifiedBy: 'checksum' });
    expect((await readdir(speech.modelsDir)).sort()).toEqual([
      `${embeddingModelName}.onnx`,
      `${segmentationModelName}.onnx`,
    ]);
    expect(await ensureDiarizationModels(speech, captureLogs().logger, { baseUrl })).toBe('present');
  });

  it('fails without throwing when a network cannot be had, naming the command', async () => {
    const speech = await newConfig(false);
    const { logger, lines } = captureLogs();
    expect(await ensureDiarizationModels(speech, logger, { baseUrl })).toBe('failed');
    const warning = lines.find((line) => line.level === 40);
    expect(warning).toMatchObject({ model: segmentationModelName, reason: 'NOT_FOUND' });
    expect(warning?.msg).toContain(`models download ${segmentationModelName} ${embeddingModelName}`);
  });

  it('downloads nothing when automatic download is off', async () => {
    const speech = await newConfig(true, false);
    const { logger, lines } = captureLogs();
    expect(await ensureDiarizationModels(speech, logger, { baseUrl })).toBe('disabled');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.msg).toContain(`models download ${embeddingModelName}`);
    expect(await readdir(speech.modelsDir)).toEqual([`${segmentationModelName}.onnx`]);
  });
});
