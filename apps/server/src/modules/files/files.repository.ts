import {
  rawPcmFormatSchema,
  type DiarizationRequest,
  type RawPcmFormat,
  type SendToCrmRequest,
} from '@verbatim/contracts';
import type { SubmittedFile, TranscriptStatus, WebhookStatus } from '@verbatim/contracts';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { SubmittedFilesTable } from './files.tables.js';

export type FileRow = Selectable<SubmittedFilesTable>;

/** What a headerless recording's bytes are, as its job said; undefined: the recording has a header. */
export function rawPcmOf(file: FileRow): RawPcmFormat | undefined {
  return file.raw_pcm ? rawPcmFormatSchema.parse(JSON.parse(file.raw_pcm)) : undefined;
}

export interface NewFile {
  id: string;
  accountId: string;
  apiKeyId: string | null;
  fileName: string;
  mediaType: string;
  size: number;
  sha1: string;
  languageCode: string;
  callbackUrl: string | null;
  /** Where the transcript goes once done (a SendToCrmRequest); null: nowhere. */
  crmRequest?: SendToCrmRequest | null;
  /** Who speaks when is asked for (with these counts); null: not diarized. */
  diarization?: DiarizationRequest | null;
  /** What the bytes of a headerless recording are; null: the recording has a header. */
  rawPcm?: RawPcmFormat | null;
}

/** The files of every account; every read by id takes the owner, so no one reaches another's file. */
export class FilesRepository {
  constructor(private readonly db: Db) {}

  /**
   * Merges `names` into the names of a file's speakers in one statement (two renames at once both
   * land); answers the names now kept, undefined for a file that is not the account's.
   */
  async nameSpeakers(
    accountId: string,
    fileId: string,
    names: Record<string, string>,
  ): Promise<string | undefined> {
    const row = await this.db
      .updateTable('submitted_files')
      .set({
        speaker_names: sql<string>`(coalesce(speaker_names, '{}')::jsonb || ${JSON.stringify(names)}::jsonb)::text`,
      })
      .where('id', '=', fileId)
      .where('account_id', '=', accountId)
      .returning('speaker_names')
      .executeTakeFirst();
    return row ? (row.speaker_names ?? '{}') : undefined;
  }

  async insert(file: NewFile): Promise<FileRow> {
    return this.db
      .insertInto('submitted_files')
      .values({
        id: file.id,
        account_id: file.accountId,
        api_key_id: file.apiKeyId,
        file_name: file.fileName,
        media_type: file.mediaType,
        size: file.size,
        sha1: file.sha1,
        language_code: file.languageCode,
        callback_url: file.callbackUrl,
        crm_request: file.crmRequest ? JSON.stringify(file.crmRequest) : null,
        diarization: file.diarization ? JSON.stringify(file.diarization) : null,
        raw_pcm: file.rawPcm ? JSON.stringify(file.rawPcm) : null,
        claim: null,
        heartbeat_at: null,
        upload_lock: null,
        upload_lock_until: null,
        completed_at: null,
        processed_at: null,
        duration_seconds: null,
        detected_language: null,
        failure_reason: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async find(accountId: string, fileId: string): Promise<FileRow | undefined> {
    return this.db
      .selectFrom('submitted_files')
      .selectAll()
      .where('id', '=', fileId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  async findById(fileId: string, db: Db = this.db): Promise<FileRow | undefined> {
    return db.selectFrom('submitted_files').selectAll().where('id', '=', fileId).executeTakeFirst();
  }

  async findMany(accountId: string, fileIds: readonly string[]): Promise<FileRow[]> {
    if (fileIds.length === 0) return [];
    return this.db
      .selectFrom('submitted_files')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', 'in', fileIds)
      .execute();
  }

  /** The same content already uploaded completely, or an interrupted upload of the same file. */
  async findSameContent(accountId: string, sha1: string, size: number): Promise<FileRow[]> {
    return this.db
      .selectFrom('submitted_files')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('sha1', '=', sha1)
      .where('size', '=', size)
      .orderBy('created_at', 'desc')
      .execute();
  }

  /** Bytes the account keeps or has reserved: completed files and the declared size of uploads in progress. */
  async storedBytes(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('submitted_files')
      .select(sql<string>`coalesce(sum(size), 0)`.as('bytes'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  }

  async page(
    accountId: string,
    start: number,
    limit: number,
  ): Promise<{ rows: (FileRow & { webhook_status: WebhookStatus })[]; total: number }> {
    const rows = await this.db
      .selectFrom('submitted_files as f')
      .selectAll('f')
      .select((eb) =>
        eb
          .selectFrom('webhook_messages as m')
          .select('m.status')
          .whereRef('m.file_id', '=', 'f.id')
          .orderBy('m.created_at', 'desc')
          .limit(1)
          .as('last_webhook_status'),
      )
      .where('f.account_id', '=', accountId)
      .orderBy('f.created_at', 'desc')
      .orderBy('f.id', 'desc')
      .offset(start)
      .limit(limit)
      .execute();
    const { total } = await this.db
      .selectFrom('submitted_files')
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return {
      rows: rows.map(({ last_webhook_status, ...row }) => ({
        ...row,
        webhook_status: last_webhook_status ?? 'none',
      })),
      total: Number(total),
    };
  }

  async delete(accountId: string, fileId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('submitted_files')
      .where('id', '=', fileId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Takes the right to append at `offset` for `seconds`: only when the server stands there and no
   * one else holds it. A hold whose lease ran out is free, and so is one `isStale` calls another
   * process's (the embedded database's single process knows every hold from before it started is).
   */
  async lockUpload(
    fileId: string,
    offset: number,
    token: string,
    seconds: number,
    staleUnlessStartsWith?: string,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('submitted_files')
      .set({ upload_lock: token, upload_lock_until: sql<Date>`now() + make_interval(secs => ${seconds})` })
      .where('id', '=', fileId)
      .where('is_completed', '=', false)
      .where('received_bytes', '=', offset)
      .where((eb) =>
        eb.or([
          eb('upload_lock', 'is', null),
          eb('upload_lock_until', '<', sql<Date>`now()`),
          ...(staleUnlessStartsWith === undefined
            ? []
            : [eb.not(eb.fn<boolean>('starts_with', ['upload_lock', eb.val(staleUnlessStartsWith)]))]),
        ]),
      )
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Extends the hold by `seconds` from now; false when it is no longer `token`'s. */
  async renewUploadLock(fileId: string, token: string, seconds: number): Promise<boolean> {
    const result = await this.db
      .updateTable('submitted_files')
      .set({ upload_lock_until: sql<Date>`now() + make_interval(secs => ${seconds})` })
      .where('id', '=', fileId)
      .where('upload_lock', '=', token)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Gives the hold up and records the bytes held; false (nothing recorded) when it was lost. */
  async unlockUpload(fileId: string, token: string, receivedBytes: number): Promise<boolean> {
    const result = await this.db
      .updateTable('submitted_files')
      .set({ upload_lock: null, upload_lock_until: null, received_bytes: receivedBytes })
      .where('id', '=', fileId)
      .where('upload_lock', '=', token)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Seconds until the current hold's lease runs out (0 when there is none). */
  async uploadLockSecondsLeft(fileId: string): Promise<number> {
    const row = await this.db
      .selectFrom('submitted_files')
      .select(sql<number>`coalesce(extract(epoch from upload_lock_until - now()), 0)::float8`.as('seconds'))
      .where('id', '=', fileId)
      .executeTakeFirst();
    return Math.max(0, Number(row?.seconds ?? 0));
  }

  /** Marks the upload complete; false when the same content was completed meanwhile. */
  async complete(fileId: string): Promise<'completed' | 'duplicate'> {
    try {
      await this.db
        .updateTable('submitted_files')
        .set({ is_completed: true, completed_at: new Date() })
        .where('id', '=', fileId)
        .execute();
      return 'completed';
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return 'duplicate';
      throw error;
    }
  }

  /**
   * Takes a pending file, or one whose worker stopped reporting, for transcription. Returns the
   * row when this caller now holds it (with `attempts` counted), undefined when another does or
   * it is finished.
   */
  async claim(fileId: string, claim: string, staleSeconds: number): Promise<FileRow | undefined> {
    return this.db
      .updateTable('submitted_files')
      .set((eb) => ({
        status: 'processing',
        claim,
        heartbeat_at: sql<Date>`now()`,
        attempts: eb('attempts', '+', 1),
        progress: 0,
      }))
      .where('id', '=', fileId)
      .where('is_completed', '=', true)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'pending'),
          eb.and([
            eb('status', '=', 'processing'),
            eb.or([
              eb('heartbeat_at', 'is', null),
              eb('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`),
            ]),
          ]),
        ]),
      )
      .returningAll()
      .executeTakeFirst();
  }

  /** Records progress; false when the claim was lost (the file was deleted or taken over). */
  async heartbeat(fileId: string, claim: string, progress: number, duration?: number): Promise<boolean> {
    const result = await this.db
      .updateTable('submitted_files')
      .set({
        heartbeat_at: sql<Date>`now()`,
        progress,
        ...(duration !== undefined ? { duration_seconds: duration } : {}),
      })
      .where('id', '=', fileId)
      .where('claim', '=', claim)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Gives a claimed file back to the queue (its worker will retry). */
  async release(fileId: string, claim: string): Promise<void> {
    await this.db
      .updateTable('submitted_files')
      .set({ status: 'pending', claim: null, heartbeat_at: null })
      .where('id', '=', fileId)
      .where('claim', '=', claim)
      .execute();
  }

  /** Ends processing under the claim; false when the claim was lost. */
  async finish(
    db: Db,
    fileId: string,
    claim: string,
    outcome: {
      status: Extract<TranscriptStatus, 'done' | 'processing_failed'>;
      failureReason: string | null;
      duration: number | null;
      detectedLanguage: string | null;
    },
  ): Promise<boolean> {
    const result = await db
      .updateTable('submitted_files')
      .set({
        status: outcome.status,
        failure_reason: outcome.failureReason,
        ...(outcome.duration !== null ? { duration_seconds: outcome.duration } : {}),
        detected_language: outcome.detectedLanguage,
        progress: outcome.status === 'done' ? 100 : 0,
        claim: null,
        heartbeat_at: null,
        processed_at: new Date(),
      })
      .where('id', '=', fileId)
      .where('claim', '=', claim)
      .where('status', '=', 'processing')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Files in processing whose worker has not reported within `staleSeconds`. */
  async stale(staleSeconds: number, limit = 100): Promise<FileRow[]> {
    return this.db
      .selectFrom('submitted_files')
      .selectAll()
      .where('status', '=', 'processing')
      .where('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`)
      .limit(limit)
      .execute();
  }

  /** Completed files still pending long after completion: their job was lost before it was queued. */
  async orphanedPending(olderThanSeconds: number, limit = 100): Promise<FileRow[]> {
    return this.db
      .selectFrom('submitted_files')
      .selectAll()
      .where('status', '=', 'pending')
      .where('is_completed', '=', true)
      .where('completed_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
      .limit(limit)
      .execute();
  }

  /** Files older than their account's automatic deletion period. */
  async expired(limit = 200): Promise<Pick<FileRow, 'id' | 'account_id'>[]> {
    return this.db
      .selectFrom('submitted_files as f')
      .innerJoin('account_settings as s', 's.account_id', 'f.account_id')
      .select(['f.id', 'f.account_id'])
      .where('s.transcript_deletion_days', 'is not', null)
      .where(
        'f.created_at',
        '<',
        sql<Date>`now() - make_interval(days => ${sql.ref('s.transcript_deletion_days')})`,
      )
      .where('f.status', '!=', 'processing')
      .limit(limit)
      .execute();
  }
}

/** A row as the API shows it. */
export function toSubmittedFile(row: FileRow, webhookStatus: WebhookStatus): SubmittedFile {
  return {
    id: row.id,
    creationDate: row.created_at.toISOString(),
    fileName: row.file_name,
    languageCode: row.language_code,
    detectedLanguage: row.detected_language,
    duration: row.duration_seconds,
    callbackUrl: row.callback_url,
    size: Number(row.size),
    uploadedSize: Number(row.received_bytes),
    isCompleted: row.is_completed,
    transcriptStatus: row.status,
    progress: row.progress,
    failureReason: row.failure_reason,
    webhookStatus,
  };
}
