import { sendToCrmRequestSchema, type DiarizationRequest, type SendToCrmRequest } from '@verbatim/contracts';
import { transcriptText, isSpeechError, type SpeechEngine, type Transcript } from '@verbatim/speech';
import type { Logger } from 'pino';
import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';
import type { Db } from '../../platform/db/database.js';
import type { JobContext } from '../../platform/queue/job-definition.js';
import type { JobQueue } from '../../platform/queue/job-queue.js';
import type { FileStorage } from '../../platform/storage/file-storage.js';
import type { UsageMeter } from '../credits/usage-meter.js';
import type { SpeakerLabelling } from '../transcripts/speaker-labelling.js';
import { recordingKey, transcriptKey } from './file-keys.js';
import { transcribeFileJob } from './files.jobs.js';
import { FilesRepository, rawPcmOf, type FileRow } from './files.repository.js';
import type { WebhooksService } from './webhooks.service.js';

export interface FileTranscriptionOptions {
  db: Db;
  storage: FileStorage;
  queue: JobQueue;
  engine: SpeechEngine;
  /** Tells who speaks when in the files that asked for it. */
  speakerLabelling: SpeakerLabelling;
  meter: UsageMeter;
  webhooks: WebhooksService;
  /** A worker silent for this long is taken for dead and its file taken up again. */
  staleSeconds: number;
  logger: Logger;
  /** Queues the CRM delivery an upload asked for, once its transcript is done. */
  crmDeliveries?: {
    sendWhenDone(accountId: string, fileId: string, request: SendToCrmRequest): Promise<void>;
  };
}

/** The CRM delivery stored with an upload; undefined: none (or not readable any more). */
function crmRequestOf(file: FileRow): SendToCrmRequest | undefined {
  if (!file.crm_request) return undefined;
  const parsed = sendToCrmRequestSchema.safeParse(JSON.parse(file.crm_request));
  return parsed.success ? parsed.data : undefined;
}

/** The diarization an upload asked for; undefined: none. */
function diarizationOf(file: FileRow): DiarizationRequest | undefined {
  return file.diarization ? (JSON.parse(file.diarization) as DiarizationRequest) : undefined;
}

/** Attempts at one file (crashes included) before it fails for good. */
export const maxFileAttempts = 4;

/** A failure that retrying cannot fix: the file fails at once with this reason for humans. */
class FinalFailure extends Error {}

/** The reason shown to the customer for an error of the engine or the meter; undefined: worth a retry. */
function finalReason(error: unknown): string | undefined {
  if (error instanceof FinalFailure) return error.message;
  if (isSpeechError(error)) {
    switch (error.code) {
      case 'INVALID_FILE':
      case 'UNSUPPORTED_MEDIA':
        return 'Not an audio or video file';
      case 'TOO_LONG':
        return error.message.replace(/\.$/, '');
      case 'UNSUPPORTED_LANGUAGE':
        return 'Language not supported';
      case 'CANCELLED':
      case 'SPEECH_BUSY':
      case 'SPEECH_UNAVAILABLE':
      case 'INVALID_MODEL':
      case 'TRANSCRIPTION_FAILED':
        return undefined;
    }
  }
  if (error instanceof AppError) {
    if (error.code === 'INSUFFICIENT_CREDIT' || error.code === 'API_KEY_CAP_REACHED')
      return 'Insufficient credit';
    // The on-premise licence refuses it (used up, expired…): final, with why and what to do.
    if (error.code.startsWith('LICENSE_')) return error.message;
  }
  return undefined;
}

/** The reason given when retries are used up on an error that might have passed. */
function lastReason(error: unknown): string {
  if (isSpeechError(error) && (error.code === 'SPEECH_UNAVAILABLE' || error.code === 'INVALID_MODEL')) {
    return 'Speech recognition is unavailable';
  }
  return 'Transcription failed';
}

/**
 * The worker side of submitted files: claims a file, transcribes it window by window with its
 * progress and a heartbeat, stores the transcript, and records the outcome and the charge (once,
 * reference `file:<id>`) in one transaction; then the webhook. A file whose worker died is taken
 * up again by the maintenance sweep, with backoff, up to {@link maxFileAttempts} times.
 */
export class FileTranscriptionService {
  readonly #files: FilesRepository;

  constructor(private readonly options: FileTranscriptionOptions) {
    this.#files = new FilesRepository(options.db);
  }

  async process(fileId: string, context: JobContext): Promise<void> {
    const { logger } = this.options;
    const claim = newId('clm');
    const file = await this.#files.claim(fileId, claim, this.options.staleSeconds);
    if (!file) {
      logger.debug({ fileId }, 'file already finished, deleted or being transcribed elsewhere');
      return;
    }
    const log = logger.child({ fileId, accountId: file.account_id, attempt: file.attempts });
    if (file.attempts > maxFileAttempts) {
      await this.#fail(file, claim, `Processing was interrupted ${file.attempts - 1} times`, null);
      return;
    }
    const abort = new AbortController();
    let progress = 0;
    let duration: number | undefined;
    // Progress is written with every heartbeat and, between them, as soon as a window moved it by a
    // point or more, at most every progressWriteMs: the console sees each window's advance.
    let written = { progress: 0, at: 0 };
    const report = () => {
      written = { progress, at: Date.now() };
      void this.#files
        .heartbeat(file.id, claim, progress, duration)
        .then((held) => {
          if (!held) abort.abort(new Error('the file was deleted or taken over'));
        })
        .catch((error: unknown) => log.warn({ err: error }, 'heartbeat failed'));
    };
    const beat = setInterval(report, heartbeatMs(this.options.staleSeconds));
    try {
      const transcript = await this.#transcribe(file, abort.signal, (fraction, seconds) => {
        progress = Math.min(99, Math.floor(fraction * 100));
        duration = seconds;
        if (progress - written.progress >= 1 && Date.now() - written.at >= progressWriteMs) report();
      });
      clearInterval(beat);
      if (abort.signal.aborted) return;
      if (transcriptText(transcript).trim() === '') {
        await this.#fail(file, claim, 'No speech found', transcript.duration);
        return;
      }
      await this.#succeed(file, claim, transcript);
      log.info({ duration: transcript.duration, language: transcript.language }, 'file transcribed');
    } catch (error) {
      clearInterval(beat);
      if (abort.signal.aborted) {
        log.info('transcription stopped: the file was deleted or taken over');
        return;
      }
      const reason = finalReason(error) ?? (context.isLastAttempt ? lastReason(error) : undefined);
      if (reason !== undefined) {
        log.info({ err: error, reason }, 'file failed');
        await this.#fail(file, claim, reason, duration ?? null);
        return;
      }
      // Give the file back and let the queue retry it with backoff.
      log.warn({ err: error }, 'transcription attempt failed; will retry');
      await this.#files.release(file.id, claim);
      throw error;
    }
  }

  /**
   * Files whose worker stopped reporting (a crash, a kill, a lost machine) go back to pending and
   * are queued again after a delay that doubles with each attempt; after the last they fail.
   */
  async recoverInterrupted(): Promise<number> {
    const staleSeconds = this.options.staleSeconds;
    const stale = await this.#files.stale(staleSeconds);
    let recovered = 0;
    for (const file of stale) {
      if (!file.claim) continue;
      if (file.attempts >= maxFileAttempts) {
        await this.#fail(file, file.claim, `Processing was interrupted ${file.attempts} times`, null);
        continue;
      }
      const released = await this.options.db
        .updateTable('submitted_files')
        .set({ status: 'pending', claim: null, heartbeat_at: null, progress: 0 })
        .where('id', '=', file.id)
        .where('claim', '=', file.claim)
        .executeTakeFirst();
      if (released.numUpdatedRows === 0n) continue;
      const delaySeconds = staleSeconds * 2 ** Math.max(0, file.attempts - 1);
      await this.options.queue.send(
        transcribeFileJob,
        { fileId: file.id },
        { startAfter: new Date(Date.now() + delaySeconds * 1000) },
      );
      this.options.logger.warn(
        { fileId: file.id, attempts: file.attempts, retryInSeconds: delaySeconds },
        'transcription interrupted (worker silent); queued again',
      );
      recovered += 1;
    }
    // A completed upload whose job never made it to the queue (a crash in between).
    for (const file of await this.#files.orphanedPending(Math.max(600, staleSeconds * 10))) {
      await this.options.queue.send(transcribeFileJob, { fileId: file.id });
    }
    return recovered;
  }

  async #transcribe(
    file: FileRow,
    signal: AbortSignal,
    onProgress: (fraction: number, durationSeconds: number) => void,
  ): Promise<Transcript> {
    const { engine, meter, storage, speakerLabelling } = this.options;
    const language = file.language_code === 'auto' ? undefined : file.language_code;
    engine.assertLanguage(language);
    const copy = await storage.localCopy(recordingKey(file.account_id, file.id));
    try {
      const admission = engine.admit();
      try {
        const rawPcm = rawPcmOf(file);
        const probe = await engine.probe(copy.path, signal, rawPcm);
        onProgress(0, probe.durationSeconds);
        if (probe.durationSeconds > 0) {
          await meter.assertAffordable({
            accountId: file.account_id,
            apiKeyId: file.api_key_id,
            product: 'http_api',
            seconds: probe.durationSeconds,
          });
        }
        const recording = { filePath: copy.path, probe, ...(rawPcm ? { rawPcm } : {}) };
        return await speakerLabelling.transcribe(recording, diarizationOf(file), signal, () =>
          engine.transcribeFile(
            copy.path,
            {
              ...(language ? { language } : {}),
              ...(rawPcm ? { rawPcm } : {}),
              signal,
              onProgress: (fraction) => onProgress(fraction, probe.durationSeconds),
            },
            probe,
          ),
        );
      } finally {
        admission.release();
      }
    } finally {
      await copy.release();
    }
  }

  async #succeed(file: FileRow, claim: string, transcript: Transcript): Promise<void> {
    const key = transcriptKey(file.account_id, file.id);
    await this.options.storage.put(key, Buffer.from(JSON.stringify(transcript)));
    let finished = false;
    try {
      finished = await this.options.db.transaction().execute(async (trx) => {
        const held = await this.#files.finish(trx, file.id, claim, {
          status: 'done',
          failureReason: null,
          duration: transcript.duration,
          detectedLanguage: transcript.language,
        });
        if (!held) return false;
        if (transcript.duration > 0) {
          await this.options.meter.charge(
            {
              accountId: file.account_id,
              apiKeyId: file.api_key_id,
              product: 'http_api',
              seconds: transcript.duration,
              reference: `file:${file.id}`,
            },
            trx,
          );
        }
        return true;
      });
    } catch (error) {
      await this.options.storage.delete(key);
      const reason = finalReason(error);
      if (reason === undefined) throw error;
      await this.#fail(file, claim, reason, transcript.duration);
      return;
    }
    if (!finished) {
      await this.options.storage.delete(key);
      return;
    }
    await this.options.webhooks.notify(file.id);
    const crm = crmRequestOf(file);
    if (crm) await this.options.crmDeliveries?.sendWhenDone(file.account_id, file.id, crm);
  }

  async #fail(file: FileRow, claim: string, reason: string, duration: number | null): Promise<void> {
    const failed = await this.#files.finish(this.options.db, file.id, claim, {
      status: 'processing_failed',
      failureReason: reason,
      duration,
      detectedLanguage: null,
    });
    if (failed) await this.options.webhooks.notify(file.id);
  }
}

/** The least time between two progress writes caused by the engine's windows (heartbeats aside). */
const progressWriteMs = 2000;

/** Reports often enough that a live worker is never taken for dead, and the console sees progress. */
function heartbeatMs(staleSeconds: number): number {
  return Math.max(500, Math.min(3000, Math.floor((staleSeconds * 1000) / 4)));
}
