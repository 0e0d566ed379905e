/**
 * The tensors whisper.cpp expects in a ggml model file, derived from its hyper-parameters exactly as
 * whisper_model_load() (whisper.cpp/src/whisper.cpp) creates them: the loader refuses a file with an
 * unknown, missing, misshapen or wrongly typed tensor, so checking the same things here predicts
 * whether it will load.
 */

/** ggml tensor types we can size: elements per block and bytes per block (ggml-common.h). */
export const ggmlTensorTypes = {
  0: { name: 'f32', blockSize: 1, blockBytes: 4 },
  1: { name: 'f16', blockSize: 1, blockBytes: 2 },
  2: { name: 'q4_0', blockSize: 32, blockBytes: 18 },
  3: { name: 'q4_1', blockSize: 32, blockBytes: 20 },
  6: { name: 'q5_0', blockSize: 32, blockBytes: 22 },
  7: { name: 'q5_1', blockSize: 32, blockBytes: 24 },
  8: { name: 'q8_0', blockSize: 32, blockBytes: 34 },
} as const satisfies Record<number, { name: string; blockSize: number; blockBytes: number }>;

export type GgmlTensorTypeId = keyof typeof ggmlTensorTypes;

export function ggmlTensorType(id: number): (typeof ggmlTensorTypes)[GgmlTensorTypeId] | undefined {
  return Object.hasOwn(ggmlTensorTypes, id) ? ggmlTensorTypes[id as GgmlTensorTypeId] : undefined;
}

/** Other ggml types a file may name: known, but not something this engine reads. */
export const unsupportedGgmlTypeNames: Record<number, string> = {
  10: 'q2_k',
  11: 'q3_k',
  12: 'q4_k',
  13: 'q5_k',
  14: 'q6_k',
  15: 'q8_k',
  30: 'bf16',
};

/** The header's file type (ggml_ftype, after removing the quantisation version) → weight tensor type. */
export const weightTypeByFtype: Record<number, GgmlTensorTypeId> = {
  0: 0,
  1: 1,
  2: 2,
  3: 3,
  7: 8,
  8: 6,
  9: 7,
};

export const unsupportedFtypeNames: Record<number, string> = {
  4: 'q4_1 with some f16',
  10: 'q2_k',
  11: 'q3_k',
  12: 'q4_k',
  13: 'q5_k',
  14: 'q6_k',
  24: 'bf16',
};

export interface WhisperHyperParameters {
  vocabularySize: number;
  audioContext: number;
  audioState: number;
  audioHeads: number;
  audioLayers: number;
  textContext: number;
  textState: number;
  textHeads: number;
  textLayers: number;
  melBins: number;
  /** As stored: ggml_ftype + 1000 × quantisation version. */
  storedFtype: number;
}

export interface ExpectedTensor {
  /** ne[0..n_dims-1], as whisper.cpp creates the tensor (and as convert-pt-to-ggml.py writes it). */
  shape: number[];
  type: GgmlTensorTypeId;
}

/** Bytes of a tensor's data: whole blocks of its type along the first dimension. */
export function tensorDataBytes(shape: readonly number[], type: GgmlTensorTypeId): number | undefined {
  const { blockSize, blockBytes } = ggmlTensorTypes[type];
  const [rowLength = 1, ...rest] = shape;
  if (rowLength % blockSize !== 0) return undefined;
  return rest.reduce((bytes, n) => bytes * n, (rowLength / blockSize) * blockBytes);
}

/** On-disk size of one tensor record: n_dims, name length, type, ne[], name, data. */
export function tensorRecordBytes(name: string, tensor: ExpectedTensor): number {
  return (
    12 + 4 * tensor.shape.length + Buffer.byteLength(name) + (tensorDataBytes(tensor.shape, tensor.type) ?? 0)
  );
}

export function expectedTensors(
  hp: WhisperHyperParameters,
  weightType: GgmlTensorTypeId,
): Map<string, ExpectedTensor> {
  // Matrices use the file's weight type, the convolutions f16 (f32 in an all-f32 file), everything
  // else (biases, norms, positional embeddings) f32.
  const convType: GgmlTensorTypeId = weightType === 0 ? 0 : 1;
  const tensors = new Map<string, ExpectedTensor>();
  const f32 = (name: string, ...shape: number[]) => tensors.set(name, { shape, type: 0 });
  const matrix = (name: string, ...shape: number[]) => tensors.set(name, { shape, type: weightType });
  const conv = (name: string, ...shape: number[]) => tensors.set(name, { shape, type: convType });

  const audio = hp.audioState;
  f32('encoder.positional_embedding', audio, hp.audioContext);
  conv('encoder.conv1.weight', 3, hp.melBins, audio);
  f32('encoder.conv1.bias', 1, audio);
  conv('encoder.conv2.weight', 3, audio, audio);
  f32('encoder.conv2.bias', 1, audio);
  f32('encoder.ln_post.weight', audio);
  f32('encoder.ln_post.bias', audio);
  for (let i = 0; i < hp.audioLayers; i++) {
    const block = `encoder.blocks.${i}`;
    addBlock(block, audio, 'attn');
  }

  const text = hp.textState;
  f32('decoder.positional_embedding', text, hp.textContext);
  matrix('decoder.token_embedding.weight', text, hp.vocabularySize);
  f32('decoder.ln.weight', text);
  f32('decoder.ln.bias', text);
  for (let i = 0; i < hp.textLayers; i++) {
    const block = `decoder.blocks.${i}`;
    addBlock(block, text, 'attn');
    addAttention(block, text, 'cross_attn');
  }
  return tensors;

  function addBlock(block: string, state: number, attention: string): void {
    f32(`${block}.mlp_ln.weight`, state);
    f32(`${block}.mlp_ln.bias`, state);
    matrix(`${block}.mlp.0.weight`, state, 4 * state);
    f32(`${block}.mlp.0.bias`, 4 * state);
    matrix(`${block}.mlp.2.weight`, 4 * state, state);
    f32(`${block}.mlp.2.bias`, state);
    addAttention(block, state, attention);
  }

  function addAttention(block: string, state: number, attention: string): void {
    f32(`${block}.${attention}_ln.weight`, state);
    f32(`${block}.${attention}_ln.bias`, state);
    matrix(`${block}.${attention}.query.weight`, state, state);
    f32(`${block}.${attention}.query.bias`, state);
    // The key projection has no bias in Whisper.
    matrix(`${block}.${attention}.key.weight`, state, state);
    matrix(`${block}.${attention}.value.weight`, state, state);
    f32(`${block}.${attention}.value.bias`, state);
    matrix(`${block}.${attention}.out.weight`, state, state);
    f32(`${block}.${attention}.out.bias`, state);
  }
}
