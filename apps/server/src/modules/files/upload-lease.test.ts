import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UploadLeaseLost, whileHeld } from './upload-lease.js';

/** Everything the stream passes on, and how it ended. */
async function drain(stream: NodeJS.ReadableStream): Promise<{ bytes: number; error?: unknown }> {
  let bytes = 0;
  try {
    for await (const chunk of stream) bytes += (chunk as Buffer).length;
    return { bytes };
  } catch (error) {
    return { bytes, error };
  }
}

describe('whileHeld', () => {
  it('passes the bytes on, renewing the hold once per period while they flow', async () => {
    const source = new PassThrough();
    let renewals = 0;
    const held = whileHeld(
      source,
      () => {
        renewals += 1;
        return Promise.resolve(true);
      },
      20,
    );
    const result = drain(held);
    source.write(Buffer.alloc(10));
    source.write(Buffer.alloc(10));
    await new Promise((resolve) => setTimeout(resolve, 40));
    source.end(Buffer.alloc(5));
    expect(await result).toEqual({ bytes: 25 });
    expect(renewals).toBe(1);
  });

  it('stops with UploadLeaseLost, passing nothing more, once the hold was taken over', async () => {
    const source = new PassThrough();
    const held = whileHeld(source, () => Promise.resolve(false), 20);
    const result = drain(held);
    source.write(Buffer.alloc(10));
    await new Promise((resolve) => setTimeout(resolve, 40));
    source.write(Buffer.alloc(10));
    const { bytes, error } = await result;
    expect(bytes).toBe(10);
    expect(error).toBeInstanceOf(UploadLeaseLost);
  });

  it('fails with the source when the request is cut', async () => {
    const source = new PassThrough();
    const held = whileHeld(source, () => Promise.resolve(true), 20);
    const result = drain(held);
    source.write(Buffer.alloc(10));
    source.destroy(new Error('aborted'));
    const { error } = await result;
    expect(error).toBeInstanceOf(Error);
  });
});
