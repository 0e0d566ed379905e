import type { Worker } from 'node:worker_threads';
import { SpeechError } from '../speech-error.js';
import { startWorkerThread } from '../worker-thread.js';
import type { FromDiarizationWorker, ToDiarizationWorker } from './diarization-worker-protocol.js';
import { speakerBounds, type DiarizationTuning } from './onnx-speaker-diarizer.js';
import type { DiarizationOptions, SpeakerDiarizer, SpeakerTurn } from './speaker-diarizer.js';

interface Pending {
  resolve: (turns: SpeakerTurn[]) => void;
  reject: (error: Error) => void;
}

/**
 * The diarizer in its own thread: the main event loop stays free while the networks run. One
 * recording at a time (others wait in the thread's message queue); the thread's ONNX Runtime uses
 * `threads` intra-op threads, 1 by default, so whisper.cpp keeps its cores.
 */
export class ThreadedSpeakerDiarizer implements SpeakerDiarizer {
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #failure: Error | undefined;

  private constructor(private readonly thread: Worker) {
    thread.on('message', (message: FromDiarizationWorker) => {
      if (message.type !== 'turns' && message.type !== 'failed') return;
      const pending = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (!pending || message.id === undefined) return;
      this.#pending.delete(message.id);
      if (message.type === 'turns') pending.resolve(message.turns);
      else pending.reject(new SpeechError(message.code, message.message, message.details));
    });
    thread.on('error', (error) => this.#fail(error));
    thread.on('exit', () =>
      this.#fail(new SpeechError('TRANSCRIPTION_FAILED', 'the diarization thread stopped')),
    );
  }

  static async start(
    modelsDir: string,
    threads: number,
    tuning: DiarizationTuning,
  ): Promise<ThreadedSpeakerDiarizer> {
    const thread = startWorkerThread(import.meta.url, 'diarization-worker', {
      workerData: { modelsDir, threads, tuning },
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromDiarizationWorker) => {
        thread.off('error', reject);
        if (message.type === 'ready') resolve();
        else if (message.type === 'failed') {
          void thread.terminate();
          reject(new SpeechError(message.code, message.message, message.details));
        }
      };
      thread.once('message', onMessage);
      thread.once('error', reject);
    });
    return new ThreadedSpeakerDiarizer(thread);
  }

  async diarize(samples: Float32Array, options: DiarizationOptions = {}): Promise<SpeakerTurn[]> {
    const bounds = speakerBounds(options);
    if (this.#failure) throw this.#failure;
    if (options.signal?.aborted) throw new SpeechError('CANCELLED', 'speaker diarization was cancelled');
    const id = this.#nextId++;
    const cancelFlag = new SharedArrayBuffer(4);
    const onAbort = () => Atomics.store(new Int32Array(cancelFlag), 0, 1);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const copy = samples.slice();
    const message: ToDiarizationWorker = { type: 'diarize', id, samples: copy, bounds, cancelFlag };
    return await new Promise<SpeakerTurn[]>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.thread.postMessage(message, [copy.buffer]);
    }).finally(() => options.signal?.removeEventListener('abort', onAbort));
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  async close(): Promise<void> {
    this.#failure ??= new SpeechError('SPEECH_UNAVAILABLE', 'the diarizer is closed');
    const exited = new Promise((resolve) => this.thread.once('exit', resolve));
    this.thread.postMessage({ type: 'close' } satisfies ToDiarizationWorker);
    await exited;
  }
}
