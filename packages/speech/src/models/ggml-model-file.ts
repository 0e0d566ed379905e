import { open, readlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { SpeechError } from '../speech-error.js';
import { formatBytes } from './format-bytes.js';
import type { WhisperModelType } from './model-catalogue.js';
import {
  expectedTensors,
  ggmlTensorType,
  ggmlTensorTypes,
  tensorDataBytes,
  tensorRecordBytes,
  unsupportedFtypeNames,
  unsupportedGgmlTypeNames,
  weightTypeByFtype,
  type WhisperHyperParameters,
} from './whisper-tensor-layout.js';

/** What the header of a whisper.cpp ggml model file says, once the whole file has been walked. */
export interface ModelFileInfo {
  /** 99 languages with detection and translation; false for the `.en` models. */
  multilingual: boolean;
  modelType: WhisperModelType;
  vocabularySize: number;
  melBins: number;
  /** ggml_ftype of the weights (0 f32, 1 f16, 7 q8_0, 8 q5_0, 9 q5_1, …), quantisation version removed. */
  ftype: number;
  /** The weights' ggml type, by name: `f16`, `q8_0`, `q5_1`, … */
  weightType: string;
  quantizationVersion: number;
  tensorCount: number;
  bytes: number;
  hyperParameters: WhisperHyperParameters;
}

const ggmlMagic = 0x67676d6c;
const modelTypeByAudioLayers: Record<number, WhisperModelType> = {
  4: 'tiny',
  6: 'base',
  12: 'small',
  24: 'medium',
  32: 'large',
};

/** A reason the file is not a usable model; turned into SpeechError('INVALID_MODEL') with the file name. */
class ModelFileProblem extends Error {}

/** The file ends before `neededBytes`. */
class CutShort extends Error {
  constructor(readonly neededBytes: number) {
    super('cut short');
  }
}

/**
 * Reads little-endian values at a moving position through a small window, so a multi-gigabyte file
 * costs a few reads per tensor header: tensor data is skipped, never read.
 */
class FileCursor {
  position = 0;
  /** Bytes fetched per read: large while reading the vocabulary, small while hopping over tensors. */
  readAhead = 64 * 1024;
  private window = Buffer.alloc(0);
  private windowStart = 0;

  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  async int32(): Promise<number> {
    await this.need(4);
    const value = this.window.readInt32LE(this.position - this.windowStart);
    this.position += 4;
    return value;
  }

  async uint32(): Promise<number> {
    await this.need(4);
    const value = this.window.readUInt32LE(this.position - this.windowStart);
    this.position += 4;
    return value;
  }

  async bytes(length: number): Promise<Buffer> {
    await this.need(length);
    const offset = this.position - this.windowStart;
    this.position += length;
    return Buffer.from(this.window.subarray(offset, offset + length));
  }

  skip(length: number): void {
    if (this.position + length > this.size) throw new CutShort(this.position + length);
    this.position += length;
  }

  private async need(length: number): Promise<void> {
    if (this.position + length > this.size) throw new CutShort(this.position + length);
    const windowEnd = this.windowStart + this.window.length;
    if (this.position >= this.windowStart && this.position + length <= windowEnd) return;
    const want = Math.min(Math.max(length, this.readAhead), this.size - this.position);
    const buffer = Buffer.alloc(want);
    const { bytesRead } = await this.handle.read(buffer, 0, want, this.position);
    // The file shrank while we read it (a download being replaced, a copy in progress).
    if (bytesRead < length) throw new CutShort(this.position + length);
    this.window = buffer.subarray(0, bytesRead);
    this.windowStart = this.position;
  }
}

/**
 * Checks that a file is a whisper.cpp ggml model that whisper.cpp will load, without loading it: the
 * magic, the hyper-parameters, the mel filters and vocabulary, then every tensor record (name, shape
 * and type as whisper_model_load() expects them), hopping over the weights, up to the exact end of
 * the file. Throws SpeechError('INVALID_MODEL') naming the file and the reason.
 */
export async function inspectModelFile(filePath: string): Promise<ModelFileInfo> {
  const fileName = path.basename(filePath);
  const refuse = (reason: string) =>
    new SpeechError('INVALID_MODEL', `${fileName}: ${reason}`, { file: fileName, reason });
  let handle: FileHandle;
  try {
    handle = await open(filePath, 'r');
  } catch (error) {
    throw refuse(await openProblem(filePath, error));
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw refuse('not a regular file');
    if (stat.size === 0) throw refuse('empty file');
    return await walk(new FileCursor(handle, stat.size));
  } catch (error) {
    if (error instanceof ModelFileProblem) throw refuse(error.message);
    if (error instanceof CutShort)
      throw refuse(`cut short: the file ends at ${formatBytes(error.neededBytes)}`);
    throw error;
  } finally {
    await handle.close();
  }
}

async function openProblem(filePath: string, error: unknown): Promise<string> {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    const target = await readlink(filePath).catch(() => undefined);
    return target === undefined ? 'no such file' : `a link to ${target}, which does not exist`;
  }
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)';
  if (code === 'EISDIR') return 'a folder, not a file';
  return `cannot be opened (${code ?? String(error)})`;
}

async function walk(file: FileCursor): Promise<ModelFileInfo> {
  if (file.size < 4) throw new ModelFileProblem(`not a whisper.cpp model (only ${file.size} bytes)`);
  const head = await file.bytes(Math.min(64, file.size));
  file.position = 0;
  if ((await file.uint32()) !== ggmlMagic) throw new ModelFileProblem(wrongMagic(head));

  let hp: WhisperHyperParameters;
  try {
    hp = await readHyperParameters(file);
  } catch (error) {
    if (error instanceof CutShort) throw new ModelFileProblem(`cut short in the header (${file.size} bytes)`);
    throw error;
  }
  const modelType = checkHyperParameters(hp);
  const ftype = hp.storedFtype % 1000;
  const weightType = weightTypeByFtype[ftype];
  if (weightType === undefined) {
    const known = unsupportedFtypeNames[ftype];
    throw new ModelFileProblem(
      known
        ? `weights stored as ${known}, which this engine does not read`
        : `unknown weight type (ftype ${ftype})`,
    );
  }

  try {
    // Mel filter bank: n_mel × n_fft float32.
    const nMel = await file.int32();
    const nFft = await file.int32();
    if (nMel <= 0 || nFft <= 0 || nMel * nFft > 1 << 22)
      throw new ModelFileProblem(`corrupt mel filter bank (${nMel} × ${nFft})`);
    file.skip(nMel * nFft * 4);

    // Vocabulary: the stored tokens (multilingual files store 50257; the loader adds the special ones).
    const words = await file.int32();
    if (words < 0 || words > hp.vocabularySize)
      throw new ModelFileProblem(`corrupt vocabulary (${words} tokens)`);
    for (let i = 0; i < words; i++) {
      const length = await file.uint32();
      if (length > 1024)
        throw new ModelFileProblem(`corrupt vocabulary (token ${i} is ${length} bytes long)`);
      file.skip(length);
    }
  } catch (error) {
    if (error instanceof CutShort)
      throw new ModelFileProblem(`cut short: ${formatBytes(file.size)}, the file ends inside its vocabulary`);
    throw error;
  }

  const tensors = expectedTensors(hp, weightType);
  let expectedBytes = file.position;
  for (const [name, tensor] of tensors) expectedBytes += tensorRecordBytes(name, tensor);
  const cutShort = () =>
    new ModelFileProblem(`cut short: ${formatBytes(file.size)} of ${formatBytes(expectedBytes)} expected`);

  file.readAhead = 1024;
  const seen = new Set<string>();
  try {
    while (file.position < file.size) {
      if (seen.size === tensors.size) {
        throw new ModelFileProblem(
          `${file.size - file.position} bytes of unexpected data after the last tensor (${formatBytes(expectedBytes)} expected)`,
        );
      }
      await readTensor(file, tensors, seen);
    }
  } catch (error) {
    if (error instanceof CutShort) throw cutShort();
    throw error;
  }
  if (seen.size < tensors.size) throw cutShort();

  return {
    multilingual: hp.vocabularySize >= 51865,
    modelType,
    vocabularySize: hp.vocabularySize,
    melBins: hp.melBins,
    ftype,
    weightType: ggmlTensorTypes[weightType].name,
    quantizationVersion: Math.floor(hp.storedFtype / 1000),
    tensorCount: seen.size,
    bytes: file.size,
    hyperParameters: hp,
  };
}

async function readHyperParameters(file: FileCursor): Promise<WhisperHyperParameters> {
  return {
    vocabularySize: await file.int32(),
    audioContext: await file.int32(),
    audioState: await file.int32(),
    audioHeads: await file.int32(),
    audioLayers: await file.int32(),
    textContext: await file.int32(),
    textState: await file.int32(),
    textHeads: await file.int32(),
    textLayers: await file.int32(),
    melBins: await file.int32(),
    storedFtype: await file.int32(),
  };
}

function checkHyperParameters(hp: WhisperHyperParameters): WhisperModelType {
  const bounds: Array<[keyof WhisperHyperParameters, number]> = [
    ['vocabularySize', 1_000_000],
    ['audioContext', 100_000],
    ['audioState', 100_000],
    ['audioHeads', 1024],
    ['audioLayers', 1024],
    ['textContext', 100_000],
    ['textState', 100_000],
    ['textHeads', 1024],
    ['textLayers', 1024],
    ['melBins', 1024],
  ];
  for (const [field, max] of bounds) {
    if (!(hp[field] >= 1 && hp[field] <= max))
      throw new ModelFileProblem(`corrupt header (${field} = ${hp[field]}): not a whisper.cpp model`);
  }
  if (hp.storedFtype < 0) throw new ModelFileProblem(`corrupt header (ftype = ${hp.storedFtype})`);
  if (hp.textState !== hp.audioState)
    throw new ModelFileProblem(`corrupt header (text state ${hp.textState} ≠ audio state ${hp.audioState})`);
  const modelType = modelTypeByAudioLayers[hp.audioLayers];
  if (!modelType)
    throw new ModelFileProblem(
      `unknown architecture: ${hp.audioLayers} encoder layers (Whisper has 4, 6, 12, 24 or 32)`,
    );
  return modelType;
}

async function readTensor(file: FileCursor, tensors: ReturnType<typeof expectedTensors>, seen: Set<string>) {
  const start = file.position;
  const dims = await file.int32();
  const nameLength = await file.int32();
  const typeId = await file.int32();
  const corrupt = (what: string) =>
    new ModelFileProblem(`corrupt tensor record at byte ${start} (${what}): the file is damaged`);
  if (dims < 1 || dims > 4) throw corrupt(`${dims} dimensions`);
  if (nameLength < 1 || nameLength > 256) throw corrupt(`name of ${nameLength} bytes`);
  const shape: number[] = [];
  for (let i = 0; i < dims; i++) shape.push(await file.int32());
  if (shape.some((n) => n < 1)) throw corrupt(`shape [${shape.join(', ')}]`);
  const name = (await file.bytes(nameLength)).toString('latin1');

  const expected = tensors.get(name);
  if (!expected) throw corrupt(`unknown tensor "${printable(name)}"`);
  if (seen.has(name)) throw corrupt(`tensor "${name}" appears twice`);
  const type = ggmlTensorType(typeId);
  if (!type) {
    const known = unsupportedGgmlTypeNames[typeId];
    if (known)
      throw new ModelFileProblem(`tensor "${name}" is stored as ${known}, which this engine does not read`);
    throw corrupt(`tensor "${name}" has unknown type ${typeId}`);
  }
  // whisper.cpp compares ne[0..2] (missing dimensions count as 1) and the element size.
  const padded = (ne: readonly number[]) => [0, 1, 2, 3].map((i) => ne[i] ?? 1);
  if (padded(shape).join() !== padded(expected.shape).join())
    throw new ModelFileProblem(
      `tensor "${name}" has shape [${shape.join(', ')}], the header says [${expected.shape.join(', ')}]`,
    );
  if (typeId !== expected.type)
    throw new ModelFileProblem(
      `tensor "${name}" is stored as ${type.name}, whisper.cpp expects ${ggmlTensorTypes[expected.type].name}`,
    );
  const dataBytes = tensorDataBytes(shape, expected.type);
  if (dataBytes === undefined) throw corrupt(`tensor "${name}" rows are not whole ${type.name} blocks`);
  file.skip(dataBytes);
  seen.add(name);
}

function printable(text: string): string {
  const cleaned = text.replace(/[^\x20-\x7e]/g, '?');
  return cleaned.length > 40 ? `${cleaned.slice(0, 40)}…` : cleaned;
}

function wrongMagic(head: Buffer): string {
  const start = head.toString('latin1');
  if (start.startsWith('GGUF')) return 'a GGUF file (llama.cpp format), not a whisper.cpp ggml model';
  if (start.startsWith('version https://git-lfs')) return 'a Git LFS pointer file, not the model itself';
  const text = head.subarray(0, 40).toString('utf8');
  if (/^[\t\n\r\x20-\x7e]+$/.test(head.toString('latin1')))
    return `not a whisper.cpp model (wrong magic): the file is text ("${text.trim().replace(/\s+/g, ' ').slice(0, 30)}…")`;
  return 'not a whisper.cpp model (wrong magic)';
}
