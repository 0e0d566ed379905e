// The diarization thread: ONNX Runtime's run() blocks the thread it is called on (measured: no
// timer fired during a 2.5 s CAM++ run), so both networks run here, off the main event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { isSpeechError } from '../speech-error.js';
import { OnnxSpeakerDiarizer, type DiarizationTuning } from './onnx-speaker-diarizer.js';
import type { FromDiarizationWorker, ToDiarizationWorker } from './diarization-worker-protocol.js';

const { modelsDir, threads, tuning } = workerData as {
  modelsDir: string;
  threads: number;
  tuning: DiarizationTuning;
};
const port = parentPort;
if (!port) throw new Error('diarization-worker runs as a worker thread');
const send = (message: FromDiarizationWorker): void => port.postMessage(message);

const failure = (error: unknown): FromDiarizationWorker & { type: 'failed' } => ({
  type: 'failed',
  code: isSpeechError(error) ? error.code : 'TRANSCRIPTION_FAILED',
  message: error instanceof Error ? error.message : String(error),
  ...(isSpeechError(error) && error.details ? { details: error.details } : {}),
});

try {
  const diarizer = await OnnxSpeakerDiarizer.open(modelsDir, threads, tuning);
  send({ type: 'ready' });
  port.on('message', (message: ToDiarizationWorker) => {
    if (message.type === 'close') {
      void diarizer.close().then(() => port.close());
      return;
    }
    const cancelled = new Int32Array(message.cancelFlag);
    // Read between windows: a message could not arrive while the thread is busy.
    const signal = {
      get aborted() {
        return Atomics.load(cancelled, 0) === 1;
      },
    };
    diarizer
      .analyse(message.samples, signal)
      .then((analysis) =>
        send({ type: 'turns', id: message.id, turns: diarizer.cluster(analysis, message.bounds) }),
      )
      .catch((error: unknown) => send({ ...failure(error), id: message.id }));
  });
} catch (error) {
  send(failure(error));
}
