import { endianness } from 'node:os';

const hostIsLittleEndian = endianness() === 'LE';

/**
 * Cuts a stream of little-endian float32 bytes (ffmpeg's `f32le`) into Float32Arrays of a fixed
 * number of samples. Pipe reads do not respect sample boundaries, so a sample may arrive split
 * across two reads; the chunker copies bytes into the chunk being filled and never holds more
 * than one chunk.
 */
export class Float32Chunker {
  private bytes: Uint8Array;
  private filled = 0;

  constructor(private readonly chunkSamples: number) {
    if (!Number.isInteger(chunkSamples) || chunkSamples <= 0) {
      throw new RangeError(`chunkSamples must be a positive integer, got ${chunkSamples}`);
    }
    this.bytes = new Uint8Array(chunkSamples * 4);
  }

  /** The chunks that these bytes complete (often none, sometimes several). */
  push(data: Uint8Array): Float32Array[] {
    const complete: Float32Array[] = [];
    let offset = 0;
    while (offset < data.length) {
      const count = Math.min(data.length - offset, this.bytes.length - this.filled);
      this.bytes.set(data.subarray(offset, offset + count), this.filled);
      this.filled += count;
      offset += count;
      if (this.filled === this.bytes.length) {
        complete.push(toFloat32(this.bytes));
        this.bytes = new Uint8Array(this.chunkSamples * 4);
        this.filled = 0;
      }
    }
    return complete;
  }

  /** The last, shorter chunk (whole samples only), or undefined when nothing is pending. */
  flush(): Float32Array | undefined {
    const wholeBytes = this.filled - (this.filled % 4);
    this.filled = 0;
    if (wholeBytes === 0) return undefined;
    return toFloat32(this.bytes.slice(0, wholeBytes));
  }

  /** Bytes of an incomplete sample that flush() would drop (0 after a well-formed stream). */
  get pendingPartialBytes(): number {
    return this.filled % 4;
  }
}

function toFloat32(bytes: Uint8Array): Float32Array {
  if (!hostIsLittleEndian) {
    for (let i = 0; i < bytes.length; i += 4) bytes.subarray(i, i + 4).reverse();
  }
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}
