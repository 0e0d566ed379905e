import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  uploadErrorMessages,
  type CreateRecordingRequest,
  type RecordingUploadState,
  type SendToCrmRequest,
} from '@verbatim/contracts';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { createRecordingRequestSchema, RawPcmFormat } from '@verbatim/contracts';
import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';
import type { Db } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue/job-queue.js';
import { StorageUnavailableError, type FileStorage } from '../../platform/storage/file-storage.js';
import { recordingKey } from './file-keys.js';
import { transcribeFileJob } from './files.jobs.js';
import { FilesRepository, type FileRow } from './files.repository.js';
import type { AskedDiarization, UploadDiarization } from './upload-diarization.js';
import { uploadLease, whileHeld } from './upload-lease.js';

export interface FileCaller {
  accountId: string;
  /** The API key used; null for a console session. */
  apiKeyId: string | null;
}

export type RecordingMetadata = z.output<typeof createRecordingRequestSchema>;
export type { CreateRecordingRequest };

/** 409 UPLOAD_OFFSET_MISMATCH, carrying the size the server holds so that the client resumes there. */
export class UploadOffsetMismatch extends AppError {
  constructor(readonly size: number) {
    super(
      'UPLOAD_OFFSET_MISMATCH',
      `The server holds ${size} bytes of this file: continue from byte ${size}.`,
    );
  }
}

/**
 * 409 UPLOAD_IN_PROGRESS: another request is writing this upload (the same chunk sent twice, or a
 * request the client gave up on that is still arriving); Retry-After is when its hold runs out
 * if no more of its bytes come.
 */
export class UploadInProgress extends AppError {
  constructor(retryAfterSeconds: number) {
    super(
      'UPLOAD_IN_PROGRESS',
      `Another request is writing this file: try again in ${retryAfterSeconds} s from the size GET /media/{fileId} gives.`,
      undefined,
      { retryAfterSeconds },
    );
  }
}

export interface UploadsOptions {
  db: Db;
  storage: FileStorage;
  queue: JobQueue;
  storageQuotaBytes: number;
  logger: Logger;
  /** Checks an upload's CRM request (the connection must be the account's); absent: none accepted. */
  crmTargets?: CrmTargets;
  /** Decides whether an upload is diarized (its own choice or the account's default); absent: never. */
  diarization?: UploadDiarization;
  /**
   * This process is the only one writing uploads to the database (the embedded database, which one
   * process holds): a hold taken before it started belongs to a process that is gone, such as one
   * killed in the middle of a chunk, and does not make the resumed upload wait for its lease.
   */
  soleProcess?: boolean;
}

export interface CrmTargets {
  assertTarget(accountId: string, request: SendToCrmRequest): Promise<void>;
}

/**
 * Resumable uploads (spec §4 Upload): a placeholder from the file's metadata, then chunks appended
 * from the size the server holds, streamed to storage; the last byte triggers the size and SHA-1
 * checks and queues the transcription.
 */
export class UploadsService {
  readonly #files: FilesRepository;
  /** Starts every hold this process takes, so that it tells its own from those of earlier runs. */
  readonly #holdPrefix = `${newId('run')}.`;

  constructor(private readonly options: UploadsOptions) {
    this.#files = new FilesRepository(options.db);
  }

  async create(caller: FileCaller, metadata: RecordingMetadata): Promise<RecordingUploadState> {
    const same = await this.#files.findSameContent(caller.accountId, metadata.sha1, metadata.size);
    if (same.some((file) => file.is_completed)) {
      throw new AppError('FILE_ALREADY_EXISTS', uploadErrorMessages.alreadyExists);
    }
    // The same file again after a reload or an interruption: resume the upload already begun.
    const resumable = same.find((file) => file.file_name === metadata.fileName);
    if (resumable) return uploadState(resumable);
    await this.#assertRoomFor(caller.accountId, metadata.size);
    if (metadata.crm) await this.#assertCrmTarget(caller.accountId, metadata.crm);
    const diarization = (await this.options.diarization?.resolve(caller.accountId, metadata)) ?? null;
    const row = await this.#files.insert({
      id: newId('fil'),
      accountId: caller.accountId,
      apiKeyId: caller.apiKeyId,
      fileName: metadata.fileName,
      mediaType: metadata.type,
      size: metadata.size,
      sha1: metadata.sha1,
      languageCode: metadata.languageCode,
      callbackUrl: metadata.callbackUrl ?? null,
      crmRequest: metadata.crm ?? null,
      diarization,
    });
    this.options.logger.info(
      { fileId: row.id, accountId: caller.accountId, size: metadata.size },
      'upload created',
    );
    return uploadState(row);
  }

  async state(caller: FileCaller, fileId: string): Promise<RecordingUploadState> {
    return uploadState(await this.#owned(caller, fileId));
  }

  /**
   * Appends `source` at `startByte`. A start other than the size held answers UploadOffsetMismatch,
   * another request writing the upload UploadInProgress; the bytes that arrived before an
   * interruption are kept, so the next chunk resumes after them.
   */
  async appendChunk(
    caller: FileCaller,
    fileId: string,
    startByte: number,
    source: Readable,
  ): Promise<RecordingUploadState> {
    const file = await this.#owned(caller, fileId);
    if (file.is_completed) {
      source.resume();
      return uploadState(file);
    }
    const held = Number(file.received_bytes);
    const size = Number(file.size);
    if (startByte !== held) {
      source.resume();
      throw new UploadOffsetMismatch(held);
    }
    if (held < size) {
      const token = `${this.#holdPrefix}${newId('lck')}`;
      const locked = await this.#files.lockUpload(
        file.id,
        startByte,
        token,
        uploadLease.seconds,
        this.options.soleProcess ? this.#holdPrefix : undefined,
      );
      if (!locked) {
        source.resume();
        throw await this.#refusal(caller, fileId, startByte);
      }
      const written = await this.options.storage.writeFrom(
        recordingKey(file.account_id, file.id),
        startByte,
        whileHeld(source, () => this.#files.renewUploadLock(file.id, token, uploadLease.seconds)),
        {
          maxSize: size,
          limitError: () =>
            new AppError(
              'UPLOAD_SIZE_EXCEEDED',
              `The file is larger than the ${size} bytes declared when the upload was created.`,
            ),
        },
      );
      if (!(await this.#files.unlockUpload(file.id, token, written.size))) {
        // Taken over after this request's bytes stopped for a whole lease: the size is the other's.
        source.resume();
        throw await this.#refusal(caller, fileId, startByte);
      }
      if (written.error !== undefined) {
        source.resume();
        if (written.error instanceof AppError || written.error instanceof StorageUnavailableError)
          throw written.error;
        throw new AppError(
          'BAD_REQUEST',
          `The chunk was interrupted: the server holds ${written.size} bytes, continue from there.`,
          undefined,
          { cause: written.error },
        );
      }
      if (written.size < size) return { fileId: file.id, size: written.size, isCompleted: false };
    }
    return this.#complete(file);
  }

  /**
   * The public jobs API: a whole recording already received in a local file becomes a completed
   * upload, queued for transcription at once.
   */
  async createFromLocalFile(
    caller: FileCaller,
    localPath: string,
    metadata: {
      fileName: string;
      type: string;
      size: number;
      languageCode: string;
      callbackUrl?: string | undefined;
      crm?: SendToCrmRequest | undefined;
      diarization?: AskedDiarization | undefined;
      /** Headerless PCM: what its bytes are (the worker cannot tell). */
      rawPcm?: RawPcmFormat | undefined;
    },
  ): Promise<FileRow> {
    if (metadata.crm) await this.#assertCrmTarget(caller.accountId, metadata.crm);
    const diarization = metadata.diarization
      ? ((await this.options.diarization?.resolve(caller.accountId, metadata.diarization)) ?? null)
      : null;
    const sha1 = await sha1Of(createReadStream(localPath));
    const same = await this.#files.findSameContent(caller.accountId, sha1, metadata.size);
    if (same.some((file) => file.is_completed)) {
      throw new AppError('FILE_ALREADY_EXISTS', uploadErrorMessages.alreadyExists);
    }
    await this.#assertRoomFor(caller.accountId, metadata.size);
    const row = await this.#files.insert({
      id: newId('fil'),
      accountId: caller.accountId,
      apiKeyId: caller.apiKeyId,
      fileName: metadata.fileName,
      mediaType: metadata.type,
      size: metadata.size,
      sha1,
      languageCode: metadata.languageCode,
      callbackUrl: metadata.callbackUrl ?? null,
      crmRequest: metadata.crm ?? null,
      diarization,
      rawPcm: metadata.rawPcm ?? null,
    });
    const key = recordingKey(row.account_id, row.id);
    const written = await this.options.storage.writeFrom(key, 0, createReadStream(localPath), {
      maxSize: metadata.size,
      limitError: () => new AppError('UPLOAD_SIZE_EXCEEDED', 'The recording changed while it was stored.'),
    });
    if (written.error !== undefined || written.size !== metadata.size) {
      await this.options.storage.delete(key);
      await this.#files.delete(row.account_id, row.id);
      throw written.error instanceof Error ? written.error : new Error('the recording was not stored whole');
    }
    await this.options.db
      .updateTable('submitted_files')
      .set({ received_bytes: written.size })
      .where('id', '=', row.id)
      .execute();
    const state = await this.#complete({ ...row, received_bytes: written.size });
    const stored = await this.#files.findById(state.fileId);
    if (!stored) throw new Error('the file vanished after it was stored');
    return stored;
  }

  /** Why a chunk at `startByte` cannot be written now: the size moved on, or another request writes. */
  async #refusal(caller: FileCaller, fileId: string, startByte: number): Promise<AppError> {
    const current = await this.#owned(caller, fileId);
    const held = Number(current.received_bytes);
    if (current.is_completed || held !== startByte) return new UploadOffsetMismatch(held);
    const secondsLeft = await this.#files.uploadLockSecondsLeft(fileId);
    return new UploadInProgress(Math.max(1, Math.ceil(secondsLeft)));
  }

  async #assertCrmTarget(accountId: string, request: SendToCrmRequest): Promise<void> {
    if (!this.options.crmTargets) {
      throw new AppError('CRM_NOT_CONNECTED', 'This server sends no transcripts to CRMs.');
    }
    await this.options.crmTargets.assertTarget(accountId, request);
  }

  async #complete(file: FileRow): Promise<RecordingUploadState> {
    const key = recordingKey(file.account_id, file.id);
    const stream = await this.options.storage.read(key);
    const actual = stream ? await sha1Of(stream) : '';
    if (actual !== file.sha1) {
      // The bytes are not the file declared: start over rather than transcribe something else.
      await this.options.storage.delete(key);
      await this.options.db
        .updateTable('submitted_files')
        .set({ received_bytes: 0 })
        .where('id', '=', file.id)
        .execute();
      throw new AppError(
        'UPLOAD_CHECKSUM_MISMATCH',
        'The SHA-1 of the bytes received differs from the one declared: upload the file again from byte 0.',
      );
    }
    if ((await this.#files.complete(file.id)) === 'duplicate') {
      await this.options.storage.delete(key);
      await this.#files.delete(file.account_id, file.id);
      throw new AppError('FILE_ALREADY_EXISTS', uploadErrorMessages.alreadyExists);
    }
    await this.options.queue.send(transcribeFileJob, { fileId: file.id });
    this.options.logger.info(
      { fileId: file.id, accountId: file.account_id },
      'upload completed; transcription queued',
    );
    return { fileId: file.id, size: Number(file.size), isCompleted: true };
  }

  async #assertRoomFor(accountId: string, bytes: number): Promise<void> {
    const stored = await this.#files.storedBytes(accountId);
    if (stored + bytes > this.options.storageQuotaBytes) {
      throw new AppError('STORAGE_LIMIT_REACHED', uploadErrorMessages.storageLimitReached);
    }
  }

  async #owned(caller: FileCaller, fileId: string): Promise<FileRow> {
    const file = await this.#files.find(caller.accountId, fileId);
    if (!file) throw new AppError('NOT_FOUND', 'No such file.');
    return file;
  }
}

function uploadState(file: FileRow): RecordingUploadState {
  return { fileId: file.id, size: Number(file.received_bytes), isCompleted: file.is_completed };
}

async function sha1Of(stream: Readable): Promise<string> {
  const hash = createHash('sha1');
  await pipeline(stream, hash);
  return hash.digest('hex');
}
