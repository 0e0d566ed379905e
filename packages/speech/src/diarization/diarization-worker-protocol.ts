import type { SpeechErrorCode } from '../speech-error.js';
import type { SpeakerTurn } from './speaker-diarizer.js';

export type ToDiarizationWorker =
  | {
      type: 'diarize';
      id: number;
      samples: Float32Array;
      bounds: { minClusters: number; maxClusters: number };
      /** Int32 set to 1 by the caller to cancel. */
      cancelFlag: SharedArrayBuffer;
    }
  | { type: 'close' };

export type FromDiarizationWorker =
  | { type: 'ready' }
  | { type: 'turns'; id: number; turns: SpeakerTurn[] }
  | {
      type: 'failed';
      id?: number;
      code: SpeechErrorCode;
      message: string;
      details?: Record<string, unknown>;
    };
