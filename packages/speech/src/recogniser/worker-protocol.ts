import type { NativeRecognition, NativeTranscribeOptions } from './native-addon.js';

/** Messages between the recogniser pool and its worker threads. */
export type ToRecogniserWorker =
  | {
      type: 'recognise';
      jobId: number;
      modelPath: string;
      samples: Float32Array;
      options: NativeTranscribeOptions;
      /** Int32Array over a SharedArrayBuffer: set to 1 by the pool to abort. */
      abortFlag: Int32Array;
    }
  | { type: 'load'; jobId: number; modelPath: string };

export type FromRecogniserWorker =
  | { type: 'result'; jobId: number; result: NativeRecognition; milliseconds: number; threads: number }
  | { type: 'loaded'; jobId: number; milliseconds: number }
  | { type: 'failed'; jobId: number; message: string };
