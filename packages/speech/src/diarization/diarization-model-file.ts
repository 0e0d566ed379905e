import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import ort from 'onnxruntime-node';
import { SpeechError } from '../speech-error.js';
import {
  embeddingModelName,
  findDiarizationModel,
  segmentationModelName,
  type DiarizationModelName,
} from './diarization-models.js';

export interface DiarizationModelFileInfo {
  name: DiarizationModelName;
  bytes: number;
  sha256: string;
  /** `checksum`: a copy we checked; `structure`: another export that answers as the network must. */
  verifiedBy: 'checksum' | 'structure';
}

/** What each network must take and give, checked by running it once on silence. */
const probes: Record<
  DiarizationModelName,
  { input: string; dims: number[]; output: string; outputDims: number[] }
> = {
  [segmentationModelName]: {
    input: 'input',
    dims: [1, 1, 160_000],
    output: 'output',
    outputDims: [1, 589, 7],
  },
  [embeddingModelName]: { input: 'x', dims: [1, 200, 80], output: 'embedding', outputDims: [1, 192] },
};

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function invalid(path: string, reason: string): SpeechError {
  return new SpeechError('INVALID_MODEL', `${path} is not a usable diarization network: ${reason}`, {
    path,
    reason,
  });
}

/**
 * Checks a diarization network file: accepted at once when its SHA-256 is one we know, otherwise
 * loaded in ONNX Runtime and run once on silence, its inputs, outputs and shapes compared with the
 * network's. A truncated or foreign file fails (ONNX Runtime reports it; it does not crash).
 */
export async function inspectDiarizationModel(
  path: string,
  name: DiarizationModelName,
): Promise<DiarizationModelFileInfo> {
  const bytes = (await stat(path)).size;
  const sha256 = await sha256Of(path);
  if (findDiarizationModel(name)?.knownSha256.includes(sha256))
    return { name, bytes, sha256, verifiedBy: 'checksum' };
  const probe = probes[name];
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(path, { intraOpNumThreads: 1, logSeverityLevel: 3 });
  } catch (error) {
    throw invalid(
      path,
      `ONNX Runtime cannot load it (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  }
  try {
    if (!session.inputNames.includes(probe.input) || !session.outputNames.includes(probe.output))
      throw invalid(
        path,
        `it takes ${session.inputNames.join(', ')} and gives ${session.outputNames.join(', ')}, not ${probe.input} → ${probe.output}`,
      );
    const size = probe.dims.reduce((product, dim) => product * dim, 1);
    const result = await session.run({
      [probe.input]: new ort.Tensor('float32', new Float32Array(size), probe.dims),
    });
    const dims = result[probe.output]?.dims ?? [];
    if (dims.join('x') !== probe.outputDims.join('x'))
      throw invalid(path, `its output has the shape ${dims.join('x')}, not ${probe.outputDims.join('x')}`);
  } catch (error) {
    if (error instanceof SpeechError) throw error;
    throw invalid(
      path,
      `it fails to run (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  } finally {
    await session.release();
  }
  return { name, bytes, sha256, verifiedBy: 'structure' };
}
