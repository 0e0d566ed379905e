import { describe, expect, it } from 'vitest';

import { Float32Chunker } from './float32-chunker.js';

function bytesOf(values: number[]): Uint8Array {
  return new Uint8Array(new Float32Array(values).buffer);
}

describe('Float32Chunker', () => {
  it('reassembles samples split across reads at every byte offset', () => {
    const values = Array.from({ length: 10 }, (_, i) => i * 0.125 - 0.5);
    const bytes = bytesOf(values);
    for (let cut = 0; cut <= bytes.length; cut += 1) {
      const chunker = new Float32Chunker(4);
      const chunks = [...chunker.push(bytes.subarray(0, cut)), ...chunker.push(bytes.subarray(cut))];
      const last = chunker.flush();
      expect(chunks.map((chunk) => chunk.length)).toEqual([4, 4]);
      expect([...chunks.flatMap((chunk) => [...chunk]), ...(last ?? [])]).toEqual(values);
    }
  });

  it('yields several chunks from one large read, one byte at a time too', () => {
    const values = Array.from({ length: 7 }, (_, i) => i);
    const whole = new Float32Chunker(2).push(bytesOf(values));
    expect(whole.map((chunk) => [...chunk])).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
    const byteByByte = new Float32Chunker(2);
    const chunks = [...bytesOf(values)].flatMap((byte) => byteByByte.push(new Uint8Array([byte])));
    expect(chunks).toHaveLength(3);
    expect([...(byteByByte.flush() ?? [])]).toEqual([6]);
  });

  it('drops an incomplete trailing sample and flushes nothing when empty', () => {
    const chunker = new Float32Chunker(8);
    chunker.push(bytesOf([0.5, 0.25]).subarray(0, 6));
    expect(chunker.pendingPartialBytes).toBe(2);
    expect([...(chunker.flush() ?? [])]).toEqual([0.5]);
    expect(chunker.flush()).toBeUndefined();
  });

  it('refuses a chunk size that is not a positive integer', () => {
    expect(() => new Float32Chunker(0)).toThrow(RangeError);
    expect(() => new Float32Chunker(1.5)).toThrow(RangeError);
  });
});
