import type { Worker } from 'node:worker_threads';
import { isSpeechError, SpeechError } from '../speech-error.js';
import { startWorkerThread } from '../worker-thread.js';
import { freeCores } from './free-cores.js';
import { useOpenMpWaitPolicy, type NativeRecognition, type NativeTranscribeOptions } from './native-addon.js';
import type { FromRecogniserWorker, ToRecogniserWorker } from './worker-protocol.js';

export interface RecognitionRequest {
  modelPath: string;
  /** 16 kHz mono samples; their buffer is transferred to the worker (unusable afterwards). */
  samples: Float32Array;
  options: Omit<NativeTranscribeOptions, 'threads'>;
  signal?: AbortSignal;
  /** Higher goes first; the same priority, first in first out. Default: `recognitionPriority.batch`. */
  priority?: number;
  /**
   * Options that replace some of `options` when the recogniser is shared as the job starts (another
   * job holds a thread or waits for one): a live final decoded in one greedy pass rather than
   * with a beam, so that finals do not queue behind each other's beams (see `liveFinalWhenShared`).
   */
  whenShared?: Partial<Omit<NativeTranscribeOptions, 'threads'>>;
}

/**
 * A live final is what a person waits for at the end of a sentence, a partial what they watch
 * while speaking; a window of a recording is throughput work that can wait a moment. Each live
 * stream has at most one recognition in the line, so live work cannot starve recordings for long.
 */
export const recognitionPriority = { batch: 0, livePartial: 1, liveFinal: 2 } as const;

/** A live partial stopped because a live final needed its thread (decoded again later). */
export function isPreempted(error: unknown): boolean {
  return isSpeechError(error) && error.code === 'CANCELLED' && error.details?.['preempted'] === true;
}

export interface RecognitionOutcome {
  result: NativeRecognition;
  /** Time spent recognising in the worker. */
  milliseconds: number;
  /** whisper.cpp threads it ran on (a live final may borrow idle recognisers' threads). */
  threads: number;
  /** It started while the recogniser was shared, with the request's `whenShared` options. */
  shared: boolean;
}

/** The interface callers depend on, so that the binding (or a GPU build) can change behind it. */
export interface Recogniser {
  recognise(request: RecognitionRequest): Promise<RecognitionOutcome>;
}

export interface RecogniserPoolOptions {
  workers: number;
  threadsPerWorker: number;
  /** Cores nothing else runs on right now (default: from /proc/loadavg); see #threadsFor. */
  freeCores?: () => number;
  /**
   * How long a live final alone in line waits for a cancelled job's thread to stop, to borrow it
   * (see #waitsForStoppingThread). whisper.cpp sees the stop flag before every graph node (see
   * native/abortable-encoder.cmake): a cancelled partial stopped 6-20 ms after it was cancelled.
   */
  stoppingThreadWaitMs?: number;
}

interface PendingJob {
  id: number;
  priority: number;
  /** Stopped so that a live final can run at once. */
  preempted: boolean;
  message: ToRecogniserWorker;
  whenShared: RecognitionRequest['whenShared'];
  /** Started with `whenShared` applied. */
  shared: boolean;
  resolve: (outcome: FromRecogniserWorker) => void;
  reject: (error: Error) => void;
  abortFlag: Int32Array;
  signal?: AbortSignal;
  onAbort?: () => void;
  /** A live final's wait for a stopping thread: begun, then over (it stopped, or time ran out). */
  waitForStoppingThread?: 'begun' | 'over';
}

interface PoolWorker {
  thread: Worker;
  job: PendingJob | undefined;
  /** The live final this recogniser's threads are lent to (see #threadsFor): it takes no job meanwhile. */
  lentTo: PendingJob | undefined;
}

/** Starts one recogniser thread (recogniser-worker.ts / .js). */
function startRecogniserThread(): Worker {
  return startWorkerThread(import.meta.url, 'recogniser-worker');
}

/**
 * A fixed set of recogniser threads sharing one line of jobs, first in first out within a priority
 * (live finals, then live partials, then recordings). A job is one window of audio (at most 30 s),
 * so long recordings interleave fairly with short ones. A
 * cancelled job leaves the line, or, when already running, is stopped inside whisper.cpp through a
 * shared flag it polls; a thread that dies is replaced and its job fails with a clear error.
 */
export class RecogniserPool implements Recogniser {
  readonly #workers: PoolWorker[] = [];
  readonly #waiting: PendingJob[] = [];
  readonly #threadsPerWorker: number;
  readonly #size: number;
  readonly #freeCores: () => number;
  readonly #stoppingThreadWaitMs: number;
  #nextJobId = 1;
  #closed = false;

  /** Threads start with the first job, so a process that never transcribes never starts them. */
  constructor(options: RecogniserPoolOptions) {
    // Before any thread loads whisper.cpp (and with it OpenMP), which reads it only once.
    useOpenMpWaitPolicy();
    this.#threadsPerWorker = Math.max(1, options.threadsPerWorker);
    this.#size = Math.max(1, options.workers);
    this.#freeCores = options.freeCores ?? (() => freeCores());
    this.#stoppingThreadWaitMs = options.stoppingThreadWaitMs ?? 100;
  }

  get size(): number {
    return this.#size;
  }

  /** Threads at work and jobs waiting for one. */
  get load(): { busy: number; waiting: number } {
    return { busy: this.#workers.filter((worker) => worker.job).length, waiting: this.#waiting.length };
  }

  /** Loads a model in every thread ahead of the first request; resolves when all have it. */
  async preload(modelPath: string): Promise<void> {
    this.#startThreads();
    await Promise.all(
      this.#workers.map(() =>
        this.#submit({ type: 'load', jobId: 0, modelPath }, undefined).then((outcome) => {
          if (outcome.type === 'failed') throw new SpeechError('INVALID_MODEL', outcome.message);
        }),
      ),
    );
  }

  async recognise(request: RecognitionRequest): Promise<RecognitionOutcome> {
    const outcome = await this.#submit(
      {
        type: 'recognise',
        jobId: 0,
        modelPath: request.modelPath,
        samples: request.samples,
        options: { ...request.options, threads: this.#threadsPerWorker },
        abortFlag: new Int32Array(0),
      },
      request.signal,
      request.priority,
      request.whenShared,
    );
    switch (outcome.type) {
      case 'result':
        if (outcome.result.aborted) throw new SpeechError('CANCELLED', 'The transcription was cancelled.');
        return {
          result: outcome.result,
          milliseconds: outcome.milliseconds,
          threads: outcome.threads,
          shared: outcome.shared,
        };
      case 'failed':
        throw new SpeechError('TRANSCRIPTION_FAILED', `Recognition failed: ${outcome.message}`);
      case 'loaded':
        throw new SpeechError('TRANSCRIPTION_FAILED', 'The recogniser answered out of turn.');
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#waiting.splice(0))
      job.reject(new SpeechError('CANCELLED', 'The speech engine is stopping.'));
    for (const worker of this.#workers) if (worker.job) Atomics.store(worker.job.abortFlag, 0, 1);
    await Promise.all(this.#workers.map((worker) => worker.thread.terminate()));
    this.#workers.length = 0;
  }

  #submit(
    message: ToRecogniserWorker,
    signal: AbortSignal | undefined,
    priority: number = recognitionPriority.batch,
    whenShared?: RecognitionRequest['whenShared'],
  ): Promise<FromRecogniserWorker & { shared: boolean }> {
    if (this.#closed)
      return Promise.reject(new SpeechError('SPEECH_UNAVAILABLE', 'The speech engine is stopped.'));
    if (signal?.aborted)
      return Promise.reject(new SpeechError('CANCELLED', 'The transcription was cancelled.'));
    return new Promise((resolve, reject) => {
      const id = this.#nextJobId++;
      const abortFlag = new Int32Array(new SharedArrayBuffer(4));
      const job: PendingJob = {
        id,
        priority,
        preempted: false,
        message:
          message.type === 'recognise' ? { ...message, jobId: id, abortFlag } : { ...message, jobId: id },
        whenShared,
        shared: false,
        resolve: (outcome) => resolve({ ...outcome, shared: job.shared }),
        reject,
        abortFlag,
        ...(signal ? { signal } : {}),
      };
      if (signal) {
        job.onAbort = () => {
          const waitingAt = this.#waiting.indexOf(job);
          if (waitingAt >= 0) {
            this.#waiting.splice(waitingAt, 1);
            reject(new SpeechError('CANCELLED', 'The transcription was cancelled.'));
          } else {
            // Running: whisper.cpp sees the flag at its next step and the worker answers aborted.
            Atomics.store(abortFlag, 0, 1);
          }
        };
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      const before = this.#waiting.findIndex((waiting) => waiting.priority < priority);
      this.#waiting.splice(before < 0 ? this.#waiting.length : before, 0, job);
      if (priority >= recognitionPriority.liveFinal) this.#preemptPartial();
      this.#startThreads();
      this.#dispatch();
    });
  }

  /**
   * A live final waits for no partial: with every thread busy, a running partial (provisional
   * text, decoded again a moment later) is stopped at whisper.cpp's next step and its thread freed.
   */
  #preemptPartial(): void {
    if (this.#workers.length < this.#size || this.#workers.some((worker) => this.#idle(worker))) return;
    const partial = this.#workers.find(
      (worker) => worker.job?.priority === recognitionPriority.livePartial && !worker.job.preempted,
    )?.job;
    if (!partial) return;
    partial.preempted = true;
    Atomics.store(partial.abortFlag, 0, 1);
  }

  #startThreads(): void {
    while (!this.#closed && this.#workers.length < this.#size) this.#workers.push(this.#spawn());
  }

  #dispatch(): void {
    for (const worker of this.#workers) {
      if (!this.#idle(worker)) continue;
      const job = this.#waiting[0];
      if (!job || this.#waitsForStoppingThread(job)) return;
      this.#waiting.shift();
      worker.job = job;
      if (job.message.type === 'recognise') {
        job.shared = job.whenShared !== undefined && this.#shared(worker);
        if (job.shared) Object.assign(job.message.options, job.whenShared);
        job.message.options.threads = this.#threadsFor(job, worker);
      }
      // A busy thread keeps the process alive (a CLI awaiting its transcript); an idle one does not.
      worker.thread.ref();
      const transfer = job.message.type === 'recognise' ? [job.message.samples.buffer as ArrayBuffer] : [];
      worker.thread.postMessage(job.message, transfer);
    }
  }

  /**
   * The final of a sentence often arrives as its stream cancels the partial it was decoding: an
   * idle recogniser takes the final at once, while the partial's thread is still stopping, so the
   * final gets no borrowed core and spends its second or so on one thread. Alone in line, it waits
   * for the stopping thread (at most stoppingThreadWaitMs) and borrows it.
   */
  #waitsForStoppingThread(job: PendingJob): boolean {
    if (job.priority !== recognitionPriority.liveFinal || this.#waiting.length > 1) return false;
    if (job.waitForStoppingThread === 'over') return false;
    const stopping = this.#workers.some(
      (worker) => worker.job && Atomics.load(worker.job.abortFlag, 0) === 1,
    );
    if (!stopping) return false;
    if (job.waitForStoppingThread === undefined) {
      job.waitForStoppingThread = 'begun';
      setTimeout(() => {
        job.waitForStoppingThread = 'over';
        this.#dispatch();
      }, this.#stoppingThreadWaitMs).unref();
    }
    return true;
  }

  /**
   * Other work holds a thread besides `worker` (a job being stopped does not count: its thread is
   * about to be free), or waits for one.
   */
  #shared(worker: PoolWorker): boolean {
    if (this.#waiting.length > 0) return true;
    return this.#workers.some(
      (other) => other !== worker && other.job && Atomics.load(other.job.abortFlag, 0) === 0,
    );
  }

  #idle(worker: PoolWorker): boolean {
    return worker.job === undefined && worker.lentTo === undefined;
  }

  /**
   * A live final that finds the other recognisers idle, with nothing waiting, borrows their threads:
   * it is what a person waits for at the end of a sentence (a 6 s sentence's final decoded in 1.4 s
   * on two threads instead of 2.2 s on one). The recognisers that lend take no job until it is done:
   * work arriving meanwhile waits for the final rather than share a core with a borrowed thread,
   * which makes the whole team wait for that thread at every step (bench:live, four sessions: a
   * 3 s tiny.en final on two threads took 2.2 s, where 0.3 s is usual). Partials and recordings
   * keep their own threads: a recording's words must not depend on the load.
   */
  #threadsFor(job: PendingJob, worker: PoolWorker): number {
    if (job.priority !== recognitionPriority.liveFinal || this.#waiting.length > 0)
      return this.#threadsPerWorker;
    const idle = this.#workers.filter((other) => other !== worker && this.#idle(other));
    // Only cores nothing else runs on right now: a thread of the team that shares its core with
    // another program makes the whole team wait for it at every step.
    const lenders = Math.max(
      0,
      Math.min(
        idle.length,
        Math.floor((this.#freeCores() - this.#threadsPerWorker) / this.#threadsPerWorker),
      ),
    );
    for (const lender of idle.slice(0, lenders)) lender.lentTo = job;
    return this.#threadsPerWorker * (1 + lenders);
  }

  #spawn(): PoolWorker {
    const thread = startRecogniserThread();
    const worker: PoolWorker = { thread, job: undefined, lentTo: undefined };
    thread.on('message', (message: FromRecogniserWorker) => {
      const job = worker.job;
      if (!job || job.id !== message.jobId) return;
      worker.job = undefined;
      thread.unref();
      this.#settle(job);
      if (job.preempted && message.type === 'result' && message.result.aborted) {
        job.reject(new SpeechError('CANCELLED', 'The partial gave way to a final.', { preempted: true }));
      } else {
        job.resolve(message);
      }
      this.#dispatch();
    });
    const replace = (reason: string) => {
      const at = this.#workers.indexOf(worker);
      if (at < 0) return;
      const job = worker.job;
      worker.job = undefined;
      if (job) {
        this.#settle(job);
        job.reject(new SpeechError('TRANSCRIPTION_FAILED', `The recogniser stopped: ${reason}`));
      }
      if (this.#closed) return;
      this.#workers[at] = this.#spawn();
      this.#dispatch();
    };
    thread.on('error', (error) => replace(error.message));
    thread.on('exit', (code) => replace(`thread exited with code ${code}`));
    thread.unref();
    return worker;
  }

  #settle(job: PendingJob): void {
    if (job.signal && job.onAbort) job.signal.removeEventListener('abort', job.onAbort);
    for (const worker of this.#workers) if (worker.lentTo === job) worker.lentTo = undefined;
  }
}
