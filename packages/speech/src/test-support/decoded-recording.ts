import { decodeAudio } from '../decode/decode-audio.js';

/** Chunks of samples end to end. */
export function concatSamples(chunks: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** A whole recording decoded to 16 kHz mono float samples (for streaming it as a client would). */
export async function decodedRecording(absolutePath: string): Promise<Float32Array> {
  const chunks: Float32Array[] = [];
  for await (const chunk of decodeAudio(absolutePath)) chunks.push(chunk);
  return concatSamples(chunks);
}
