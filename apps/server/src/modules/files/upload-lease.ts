import { finished, Transform, type Readable } from 'node:stream';

/**
 * How one chunk request holds the right to append to an upload. The hold is a lease of `seconds`,
 * renewed while bytes flow (at most every `renewAfterMs`): a request whose process died, or whose
 * client stopped sending, loses it `seconds` after its last bytes, without anyone cleaning up.
 */
export const uploadLease = { seconds: 15, renewAfterMs: 5_000 } as const;

/** The hold was taken over (its lease ran out while no bytes came): this request must stop writing. */
export class UploadLeaseLost extends Error {
  constructor() {
    super('the upload was taken over by another request');
    this.name = 'UploadLeaseLost';
  }
}

/**
 * The bytes of `source`, passed on only while the hold is still this request's: before a chunk of
 * bytes goes on, once `renewAfterMs` passed since the last renewal, `renew()` must say the hold is
 * still ours, else the stream fails with UploadLeaseLost and writes nothing more. A source that
 * fails or closes early fails the stream with its error, as it would have failed the store.
 */
export function whileHeld(
  source: Readable,
  renew: () => Promise<boolean>,
  renewAfterMs: number = uploadLease.renewAfterMs,
): Readable {
  let renewedAt = Date.now();
  const held = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (Date.now() - renewedAt < renewAfterMs) {
        callback(null, chunk);
        return;
      }
      renew().then(
        (stillHeld) => {
          if (!stillHeld) {
            callback(new UploadLeaseLost());
            return;
          }
          renewedAt = Date.now();
          callback(null, chunk);
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
  // Not `pipeline`: that would destroy the request's stream, and with it the answer's socket.
  source.pipe(held);
  // Once the store stops reading (its size limit, a failure), what remains of the request drains.
  held.once('close', () => source.unpipe(held));
  finished(source, (error) => {
    if (error) held.destroy(error);
  });
  return held;
}
