import { SpeechEngine } from '@verbatim/speech';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';

/** Starts the speech engine of this process and logs what it can do, or what it lacks and how to fix it. */
export async function startSpeechEngine(speech: Config['speech'], logger: Logger): Promise<SpeechEngine> {
  const engine = await SpeechEngine.start({
    modelsDir: speech.modelsDir,
    defaultModel: speech.defaultModel,
    modelByLanguage: speech.modelByLanguage,
    workers: speech.workers,
    threadsPerWorker: speech.threadsPerWorker,
    queueLimit: speech.queueLimit,
    maxDurationSeconds: speech.maxDurationSeconds,
  });
  const status = engine.status();
  const log = logger.child({
    modelsDir: speech.modelsDir,
    workers: speech.workers,
    threads: speech.threadsPerWorker,
  });
  if (status.ready) {
    log.info(
      { models: status.models.filter((model) => model.info).map((model) => model.name) },
      'speech engine ready',
    );
  } else {
    log.warn(`speech engine not ready: ${status.problem}`);
  }
  return engine;
}
