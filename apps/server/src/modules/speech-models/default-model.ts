import {
  chooseModel,
  downloadModel,
  findUsableModel,
  formatBytes,
  isModelDownloadError,
  listInstalledModels,
  modelFileName,
} from '@verbatim/speech';
import type { Logger } from 'pino';
import type { SpeechModelsConfig } from './models.cli.js';

export type DefaultModelOutcome = 'present' | 'downloaded' | 'failed' | 'disabled';

/**
 * Makes sure the default model (SPEECH_MODEL) is installed, downloading it when it is missing and
 * SPEECH_MODEL_AUTO_DOWNLOAD is on. Meant to run in the background at start-up: it never throws;
 * a failure (offline, no such model) is logged with what the operator can do instead.
 */
export async function ensureDefaultModel(
  speech: SpeechModelsConfig,
  logger: Logger,
  options: { signal?: AbortSignal } = {},
): Promise<DefaultModelOutcome> {
  const name = speech.defaultModel;
  const log = logger.child({ model: name, modelsDir: speech.modelsDir });
  try {
    if (await findUsableModel(speech.modelsDir, name)) return 'present';
    const fallback = chooseModel(undefined, speech, await listInstalledModels(speech.modelsDir));
    const consequence = fallback
      ? `until then the engine uses ${fallback.name}`
      : 'until then transcription is unavailable';
    if (!speech.autoDownload) {
      log.warn(
        `speech model ${name} is not installed (automatic download is off); ${consequence}. ${howToAdd(speech)}`,
      );
      return 'disabled';
    }

    log.info(`speech model ${name} is not installed: downloading it from ${speech.downloadBaseUrl}`);
    let nextTenth = 1;
    const result = await downloadModel({
      name,
      baseUrl: speech.downloadBaseUrl,
      modelsDir: speech.modelsDir,
      signal: options.signal,
      onStart: ({ resumingFrom, total }) => {
        if (total) nextTenth = Math.floor((resumingFrom / total) * 10) + 1;
        if (resumingFrom > 0)
          log.info({ resumingFrom }, `resuming the download of ${name} from ${formatBytes(resumingFrom)}`);
      },
      onProgress: (received, total) => {
        if (!total || received < (nextTenth * total) / 10) return;
        nextTenth = Math.floor((received / total) * 10) + 1;
        const percent = Math.min(100, Math.floor((received / total) * 100));
        log.info(
          { percent, receivedBytes: received, totalBytes: total },
          `downloading speech model ${name}: ${percent}% (${formatBytes(received)} of ${formatBytes(total)})`,
        );
      },
    });
    log.info(
      { bytes: result.bytes, modelType: result.info.modelType, multilingual: result.info.multilingual },
      `speech model ${name} downloaded and checked`,
    );
    return 'downloaded';
  } catch (error) {
    if (options.signal?.aborted) {
      log.info(`download of speech model ${name} stopped; the next start resumes it`);
      return 'failed';
    }
    const reason = isModelDownloadError(error) || error instanceof Error ? error.message : String(error);
    log.warn(
      { err: reason, ...(isModelDownloadError(error) ? { reason: error.reason } : {}) },
      `speech model ${name} could not be downloaded: ${reason}. ${howToAdd(speech)}`,
    );
    return 'failed';
  }
}

/** The ways to put a model in place, spelled out for the log of an operator with no network. */
function howToAdd(speech: SpeechModelsConfig): string {
  const name = speech.defaultModel;
  return (
    `To add it: run "npx node apps/server/dist/cli.js models download ${name}" (the \`verbatim\` CLI) where ` +
    `${new URL(speech.downloadBaseUrl).host} can be reached, or copy a whisper.cpp ggml file named ` +
    `${modelFileName(name)} into ${speech.modelsDir} (SPEECH_MODELS_DIR); SPEECH_MODELS_URL can point at a mirror.`
  );
}
