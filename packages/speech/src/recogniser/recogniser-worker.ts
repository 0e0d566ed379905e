import { parentPort } from 'node:worker_threads';
import { loadNativeAddon, type NativeWhisperModel } from './native-addon.js';
import type { FromRecogniserWorker, ToRecogniserWorker } from './worker-protocol.js';

/**
 * One recogniser thread: whisper.cpp's decode is synchronous and CPU-bound, so it runs here and
 * never on the event loop. A thread keeps the models it has loaded (at most two: the default
 * and, say, an English-only one), so each model is read from disk once per thread.
 */
const maxModelsPerThread = 2;
const models = new Map<string, NativeWhisperModel>();

function modelAt(modelPath: string): NativeWhisperModel {
  const cached = models.get(modelPath);
  if (cached) {
    models.delete(modelPath);
    models.set(modelPath, cached);
    return cached;
  }
  const addon = loadNativeAddon();
  const model = new addon.WhisperModel(modelPath);
  models.set(modelPath, model);
  while (models.size > maxModelsPerThread) {
    const oldest = models.keys().next().value;
    if (oldest === undefined) break;
    models.delete(oldest);
  }
  return model;
}

function reply(message: FromRecogniserWorker): void {
  parentPort?.postMessage(message);
}

parentPort?.on('message', (message: ToRecogniserWorker) => {
  const started = performance.now();
  try {
    switch (message.type) {
      case 'load':
        modelAt(message.modelPath);
        reply({ type: 'loaded', jobId: message.jobId, milliseconds: performance.now() - started });
        return;
      case 'recognise': {
        const result = modelAt(message.modelPath).transcribe(
          message.samples,
          message.options,
          message.abortFlag,
        );
        reply({
          type: 'result',
          jobId: message.jobId,
          result,
          milliseconds: performance.now() - started,
          threads: message.options.threads ?? 1,
        });
        return;
      }
    }
  } catch (error) {
    reply({
      type: 'failed',
      jobId: message.jobId,
      message: error instanceof Error ? error.message : String(error),
    });
  }
});
