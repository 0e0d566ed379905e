import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedModelsDir } from '../test-support/index.js';
import { inspectDiarizationModel } from './diarization-model-file.js';
import {
  diarizationCatalogue,
  embeddingModelName,
  findDiarizationModel,
  segmentationModelName,
} from './diarization-models.js';
import { downloadDiarizationModel } from './download-diarization-model.js';

const officialName = (url: string): string => url.slice(url.lastIndexOf('/') + 1);

/**
 * A local stand-in for the sherpa-onnx releases: the official file names, Range requests, and a
 * mode that drops the connection at 40 % of the body, as real networks do.
 */
async function startReleaseServer(files: Map<string, Buffer>) {
  const state = { dropAt40: false, ranges: [] as Array<string | undefined> };
  const server: Server = createServer((request, response) => {
    const body = files.get((request.url ?? '').replace(/^\/mirror\//, ''));
    if (!body) {
      response.writeHead(404).end('Not Found');
      return;
    }
    state.ranges.push(request.headers.range);
    const start = Number(/^bytes=(\d+)-$/.exec(request.headers.range ?? '')?.[1] ?? 0);
    const headers = { 'content-length': String(body.length - start), 'accept-ranges': 'bytes' };
    if (start > 0)
      response.writeHead(206, {
        ...headers,
        'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
      });
    else response.writeHead(200, headers);
    if (state.dropAt40) {
      response.write(body.subarray(start, Math.floor(body.length * 0.4)), () => response.socket?.end());
      return;
    }
    response.end(body.subarray(start));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    baseUrl: `http://127.0.0.1:${port}/mirror`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the diarization networks in the model catalogue', () => {
  it('names the official sherpa-onnx downloads and the checksums of the copies we checked', () => {
    expect(diarizationCatalogue.map((model) => model.name)).toEqual([
      segmentationModelName,
      embeddingModelName,
    ]);
    for (const model of diarizationCatalogue) {
      expect(model.url).toMatch(/^https:\/\/github\.com\/k2-fsa\/sherpa-onnx\/releases\/download\//);
      expect(model.fileName).toBe(`${model.name}.onnx`);
    }
    expect(findDiarizationModel(segmentationModelName)?.archiveMember).toBe(
      'sherpa-onnx-pyannote-segmentation-3-0/model.onnx',
    );
  });

  it('accepts the shared copies by checksum, another export by its structure, and refuses garbage', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'verbatim-diarization-inspect-'));
    try {
      const shared = path.join(sharedModelsDir, `${embeddingModelName}.onnx`);
      expect((await inspectDiarizationModel(shared, embeddingModelName)).verifiedBy).toBe('checksum');
      // The same network with another doc_string (protobuf field 6 appended): other bytes, same model.
      const other = path.join(folder, 'other.onnx');
      await writeFile(
        other,
        Buffer.concat([await readFile(shared), Buffer.from([0x32, 5, ...Buffer.from('other')])]),
      );
      expect((await inspectDiarizationModel(other, embeddingModelName)).verifiedBy).toBe('structure');
      // The wrong network for the name.
      await expect(inspectDiarizationModel(other, segmentationModelName)).rejects.toMatchObject({
        code: 'INVALID_MODEL',
      });
      await writeFile(other, Buffer.from('<html>rate limited</html>'));
      await expect(inspectDiarizationModel(other, embeddingModelName)).rejects.toMatchObject({
        code: 'INVALID_MODEL',
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('downloadDiarizationModel', () => {
  let work: string;
  let server: Awaited<ReturnType<typeof startReleaseServer>>;
  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'verbatim-diarization-download-'));
    // The release archive as sherpa-onnx ships it, built here from the shared network.
    const packed = path.join(work, 'packed', 'sherpa-onnx-pyannote-segmentation-3-0');
    await mkdir(packed, { recursive: true });
    await writeFile(
      path.join(packed, 'model.onnx'),
      await readFile(path.join(sharedModelsDir, `${segmentationModelName}.onnx`)),
    );
    await writeFile(path.join(packed, 'README.md'), 'pyannote segmentation-3.0\n');
    const archive = path.join(work, 'segmentation.tar.bz2');
    execFileSync('tar', ['-cjf', archive, '-C', path.dirname(packed), path.basename(packed)]);
    const files = new Map<string, Buffer>();
    for (const model of diarizationCatalogue) {
      files.set(
        officialName(model.url),
        model.archiveMember
          ? await readFile(archive)
          : await readFile(path.join(sharedModelsDir, model.fileName)),
      );
    }
    server = await startReleaseServer(files);
  });
  afterAll(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });

  it('downloads the segmentation archive, unpacks its model and keeps nothing else', async () => {
    const modelsDir = path.join(work, 'models-a');
    const result = await downloadDiarizationModel({
      name: segmentationModelName,
      modelsDir,
      baseUrl: server.baseUrl,
    });
    expect(result).toMatchObject({
      alreadyInstalled: false,
      resumedFrom: 0,
      info: { verifiedBy: 'checksum' },
    });
    expect(await readdir(modelsDir)).toEqual([`${segmentationModelName}.onnx`]);
    const again = await downloadDiarizationModel({
      name: segmentationModelName,
      modelsDir,
      baseUrl: server.baseUrl,
    });
    expect(again.alreadyInstalled).toBe(true);
  });

  it('resumes an interrupted download of the embedding network with a Range request', async () => {
    const modelsDir = path.join(work, 'models-b');
    server.state.dropAt40 = true;
    const broken: unknown = await downloadDiarizationModel({
      name: embeddingModelName,
      modelsDir,
      baseUrl: server.baseUrl,
    }).catch((error: unknown) => error);
    server.state.dropAt40 = false;
    expect(broken).toMatchObject({ resumable: true });
    const part = await stat(path.join(modelsDir, `${embeddingModelName}.onnx.part`));
    expect(part.size).toBeGreaterThan(0);
    server.state.ranges.length = 0;
    const result = await downloadDiarizationModel({
      name: embeddingModelName,
      modelsDir,
      baseUrl: server.baseUrl,
    });
    expect(server.state.ranges).toEqual([`bytes=${part.size}-`]);
    expect(result).toMatchObject({
      resumedFrom: part.size,
      info: { verifiedBy: 'checksum', bytes: 28_281_131 },
    });
    expect(await readdir(modelsDir)).toEqual([`${embeddingModelName}.onnx`]);
  });

  it('refuses names that are not diarization networks', async () => {
    await expect(
      downloadDiarizationModel({
        name: 'base-q8_0',
        modelsDir: path.join(work, 'models-c'),
        baseUrl: server.baseUrl,
      }),
    ).rejects.toMatchObject({ reason: 'INVALID_NAME' });
  });
});
