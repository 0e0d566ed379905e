import { SpeechEngine, type SpeechEngineOptions } from '../engine/speech-engine.js';
import { sharedModelsDir } from './paths.js';

/** The engine as tests run it: the shared base model for every language, one recogniser of two threads. */
export function startTestEngine(options: Partial<SpeechEngineOptions> = {}): Promise<SpeechEngine> {
  return SpeechEngine.start({
    modelsDir: sharedModelsDir,
    defaultModel: 'base-q8_0',
    modelByLanguage: {},
    workers: 1,
    threadsPerWorker: 2,
    queueLimit: 1,
    maxDurationSeconds: 3600,
    ...options,
  });
}
