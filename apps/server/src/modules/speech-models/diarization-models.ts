import path from 'node:path';
import {
  diarizationCatalogue,
  downloadDiarizationModel,
  formatBytes,
  inspectDiarizationModel,
  isModelDownloadError,
} from '@verbatim/speech';
import type { Logger } from 'pino';
import type { SpeechModelsConfig } from './models.cli.js';

export type DiarizationModelsOutcome = 'present' | 'downloaded' | 'failed' | 'disabled';

/**
 * Makes sure both speaker diarization networks are installed, downloading the missing ones from
 * the sherpa-onnx releases when SPEECH_MODEL_AUTO_DOWNLOAD is on, like the default Whisper model.
 * Runs in the background at start-up and never throws: without them everything else works and
 * diarize=true answers SPEECH_UNAVAILABLE naming the command to run.
 */
export async function ensureDiarizationModels(
  speech: SpeechModelsConfig,
  logger: Logger,
  options: { signal?: AbortSignal; baseUrl?: string } = {},
): Promise<DiarizationModelsOutcome> {
  const log = logger.child({ modelsDir: speech.modelsDir });
  const missing = [];
  for (const entry of diarizationCatalogue) {
    const present = await inspectDiarizationModel(
      path.join(speech.modelsDir, entry.fileName),
      entry.name,
    ).catch(() => undefined);
    if (!present) missing.push(entry);
  }
  if (missing.length === 0) return 'present';
  const command = `"npx node apps/server/dist/cli.js models download ${missing.map((entry) => entry.name).join(' ')}" (the \`verbatim\` CLI)`;
  if (!speech.autoDownload) {
    log.warn(
      `speaker diarization models are not installed (automatic download is off): diarize=true is unavailable until then. To add them, run ${command}`,
    );
    return 'disabled';
  }
  for (const entry of missing) {
    try {
      log.info(
        `speaker diarization model ${entry.name} is not installed: downloading it (~${formatBytes(entry.approximateBytes)})`,
      );
      const result = await downloadDiarizationModel({
        name: entry.name,
        modelsDir: speech.modelsDir,
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      log.info(
        { model: entry.name, bytes: result.info.bytes, verifiedBy: result.info.verifiedBy },
        `speaker diarization model ${entry.name} downloaded and checked`,
      );
    } catch (error) {
      if (options.signal?.aborted) {
        log.info(`download of speaker diarization model ${entry.name} stopped; the next start resumes it`);
        return 'failed';
      }
      const reason = error instanceof Error ? error.message : String(error);
      log.warn(
        { model: entry.name, err: reason, ...(isModelDownloadError(error) ? { reason: error.reason } : {}) },
        `speaker diarization model ${entry.name} could not be downloaded: ${reason}. diarize=true is unavailable until it is; run ${command} where GitHub can be reached`,
      );
      return 'failed';
    }
  }
  return 'downloaded';
}
