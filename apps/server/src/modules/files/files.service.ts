import type { Readable } from 'node:stream';
import {
  downloadFormats,
  type DownloadFormat,
  type FileSpeakers,
  type FileTranscript,
  type FilesPage,
  type RecordingAudioUrl,
  type RenameSpeakersRequest,
  type SubmittedFile,
  type TranscriptJob,
} from '@verbatim/contracts';
import { formatTranscript, transcriptText, type Transcript } from '@verbatim/speech';
import { ZipArchive } from 'archiver';
import type { Logger } from 'pino';
import { AppError } from '../../errors/app-error.js';
import type { Db } from '../../platform/db/database.js';
import type { FileStorage } from '../../platform/storage/file-storage.js';
import { recordingKey, transcriptKey } from './file-keys.js';
import { FilesRepository, rawPcmOf, toSubmittedFile, type FileRow } from './files.repository.js';
import { wavHeader, wavRange } from './raw-pcm-wav.js';
import type { RecordingAudioUrls } from './recording-audio-url.js';
import { withSpeakerNames } from './speaker-names.js';

export interface FilesOptions {
  db: Db;
  storage: FileStorage;
  publicUrl: string;
  logger: Logger;
  /** Signs the short-lived addresses of recordings for the console's audio player. */
  audioUrls: RecordingAudioUrls;
}

/** A file's recording, for the console's audio player. */
export interface StoredRecording {
  mediaType: string;
  size: number;
  /** Bytes `start` to `end`, both included. */
  open(start: number, end: number): Promise<Readable>;
}

/** A download: one transcript in its format, or an archive of several. */
export interface TranscriptDownload {
  contentType: string;
  fileName: string;
  body: string | Readable;
}

const formatByMime = {
  'text/plain': 'text',
  'application/json': 'json',
  'application/x-subrip': 'srt',
  'text/vtt': 'vtt',
} as const;

/** The files of an account: the table, one file, deletion (also automatic), transcript downloads. */
export class FilesService {
  readonly #files: FilesRepository;

  constructor(private readonly options: FilesOptions) {
    this.#files = new FilesRepository(options.db);
  }

  async page(accountId: string, start: number, limit: number): Promise<FilesPage> {
    const { rows, total } = await this.#files.page(accountId, start, limit);
    return {
      list: rows.map((row) => toSubmittedFile(row, row.webhook_status)),
      pagination: { next_page: start + rows.length < total ? start + limit : null, total },
    };
  }

  async get(accountId: string, fileId: string): Promise<SubmittedFile> {
    const row = await this.#owned(accountId, fileId);
    return toSubmittedFile(row, await this.#webhookStatus(row.id));
  }

  /** The public jobs API's view: the file, and its transcript once done. */
  async job(accountId: string, fileId: string): Promise<TranscriptJob> {
    const row = await this.#owned(accountId, fileId);
    const transcript = row.status === 'done' ? await this.#transcript(row) : null;
    return {
      ...toSubmittedFile(row, await this.#webhookStatus(row.id)),
      transcriptUrl: `${this.options.publicUrl}/api/v1/transcripts/download?fileIds=${encodeURIComponent(row.id)}&format=application%2Fjson`,
      transcript: transcript ? fileTranscript(row, transcript) : null,
    };
  }

  /** The transcript of a done file, words and speakers (with their names) included. */
  async transcript(accountId: string, fileId: string): Promise<FileTranscript> {
    const row = await this.#owned(accountId, fileId);
    return fileTranscript(row, await this.#readyTranscript(row));
  }

  /**
   * Names some speakers of a diarized transcript (the others keep theirs); every format and CRM
   * send uses the names from then on. Answers every speaker with its name.
   */
  async renameSpeakers(
    accountId: string,
    fileId: string,
    request: RenameSpeakersRequest,
  ): Promise<FileSpeakers> {
    const row = await this.#owned(accountId, fileId);
    const transcript = await this.#readyTranscript(row);
    const known = new Set((transcript.speakers ?? []).map((speaker) => speaker.id));
    if (known.size === 0) {
      throw new AppError(
        'VALIDATION_FAILED',
        'This transcript has no speakers: it was made without diarize.',
        [{ location: 'body', path: ['speakers'], message: 'This transcript has no speakers.' }],
      );
    }
    const unknown = request.speakers.findIndex((speaker) => !known.has(speaker.id));
    if (unknown >= 0) {
      const id = request.speakers[unknown]?.id ?? '';
      throw new AppError(
        'VALIDATION_FAILED',
        `The transcript has no speaker ${id}: its speakers are ${[...known].join(', ')}.`,
        [{ location: 'body', path: ['speakers', unknown, 'id'], message: `No speaker ${id}.` }],
      );
    }
    const names = Object.fromEntries(request.speakers.map((speaker) => [speaker.id, speaker.name]));
    const saved = await this.#files.nameSpeakers(accountId, fileId, names);
    if (saved === undefined) throw notFound();
    return { speakers: withSpeakerNames(transcript, saved).speakers ?? [] };
  }

  /** The transcript of a done file in one of the engine's formats (json, text, srt, vtt). */
  async formatted(accountId: string, fileId: string, format: 'json' | 'text' | 'srt' | 'vtt') {
    const row = await this.#owned(accountId, fileId);
    return formatTranscript(await this.#readyTranscript(row), format);
  }

  /**
   * The stored recording of a file of the account, to be streamed (whole or a byte range): its
   * type, its size, and a reader of bytes [start, end]. NOT_FOUND until every byte arrived.
   */
  async recording(accountId: string, fileId: string): Promise<StoredRecording> {
    const row = await this.#owned(accountId, fileId);
    const key = recordingKey(row.account_id, row.id);
    const size = row.is_completed ? await this.options.storage.size(key) : undefined;
    if (size === undefined) throw new AppError('NOT_FOUND', 'This file has no uploaded recording.');
    const open = async (start: number, end: number): Promise<Readable> => {
      const stream = await this.options.storage.read(key, { start, end });
      if (!stream) throw new AppError('NOT_FOUND', 'This file has no uploaded recording.');
      return stream;
    };
    const rawPcm = rawPcmOf(row);
    if (!rawPcm) return { mediaType: row.media_type, size, open };
    // Headerless samples are played as the WAV file they make with a header.
    const header = wavHeader(rawPcm, size);
    return {
      mediaType: 'audio/wav',
      size: header.length + size,
      open: (start, end) => wavRange(header, start, end, open),
    };
  }

  /** A signed address of the file's recording, for an `<audio>` element (see RecordingAudioUrls). */
  async audioAddress(accountId: string, fileId: string): Promise<RecordingAudioUrl> {
    await this.recording(accountId, fileId);
    const { expires, signature } = await this.options.audioUrls.sign(accountId, fileId);
    const query = new URLSearchParams({ account: accountId, expires: String(expires), signature });
    return {
      url: `${this.options.publicUrl}/api/v1/files/third-party/${encodeURIComponent(fileId)}/audio?${query.toString()}`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /** The recording a signed address points at: BAD_TOKEN when it is not this file's, TOKEN_EXPIRED late. */
  async signedRecording(
    fileId: string,
    address: { account: string; expires: number; signature: string },
  ): Promise<StoredRecording> {
    const checked = await this.options.audioUrls.check(
      address.account,
      fileId,
      address.expires,
      address.signature,
    );
    if (checked === 'invalid')
      throw new AppError('BAD_TOKEN', 'This audio address is not valid for this file.');
    if (checked === 'expired') {
      throw new AppError('TOKEN_EXPIRED', 'This audio address has expired: ask for a new one.');
    }
    return this.recording(address.account, fileId);
  }

  /** Removes the recording, the transcript and the file's record (its webhook log with it). */
  async delete(accountId: string, fileId: string): Promise<void> {
    const row = await this.#owned(accountId, fileId);
    await this.#remove(row);
    this.options.logger.info({ fileId, accountId }, 'file deleted');
  }

  async download(
    accountId: string,
    fileIds: readonly string[],
    mime: DownloadFormat,
  ): Promise<TranscriptDownload> {
    const rows = await this.#files.findMany(accountId, fileIds);
    // Someone else's file and no file at all look the same.
    if (rows.length !== fileIds.length) throw notFound();
    const byId = new Map(rows.map((row) => [row.id, row]));
    const format = formatByMime[mime];
    const extension = downloadFormats[mime];
    const ordered = fileIds.map((id) => byId.get(id)).filter((row): row is FileRow => row !== undefined);
    const rendered = await Promise.all(
      ordered.map(async (row) => ({
        row,
        formatted: formatTranscript(await this.#readyTranscript(row), format),
      })),
    );
    const [single] = rendered;
    if (rendered.length === 1 && single) {
      return {
        contentType: single.formatted.contentType,
        fileName: `${baseName(single.row.file_name)}.${extension}`,
        body: single.formatted.body,
      };
    }
    const archive = new ZipArchive({ zlib: { level: 6 } });
    const used = new Set<string>();
    for (const { row, formatted } of rendered) {
      let name = `${baseName(row.file_name)}.${extension}`;
      if (used.has(name)) name = `${baseName(row.file_name)}-${row.id}.${extension}`;
      used.add(name);
      archive.append(formatted.body, { name, date: row.processed_at ?? row.created_at });
    }
    void archive.finalize();
    return {
      contentType: 'application/zip',
      fileName: `transcripts-${new Date().toISOString().slice(0, 10)}.zip`,
      body: archive,
    };
  }

  /** The scheduled deletion: files older than their account's chosen period, nothing else. */
  async deleteExpired(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const expired = await this.#files.expired();
      if (expired.length === 0) break;
      for (const file of expired) {
        const row = await this.#files.find(file.account_id, file.id);
        if (row) await this.#remove(row);
        deleted += 1;
      }
      if (expired.length < 200) break;
    }
    if (deleted > 0) this.options.logger.info({ deleted }, 'expired recordings and transcripts deleted');
    return deleted;
  }

  async #remove(row: FileRow): Promise<void> {
    await this.#files.delete(row.account_id, row.id);
    await this.options.storage.delete(recordingKey(row.account_id, row.id));
    await this.options.storage.delete(transcriptKey(row.account_id, row.id));
  }

  async #readyTranscript(row: FileRow): Promise<Transcript> {
    const transcript = row.status === 'done' ? await this.#transcript(row) : null;
    if (!transcript) {
      throw new AppError(
        'TRANSCRIPT_NOT_READY',
        row.status === 'processing_failed'
          ? `The file ${row.id} failed: ${row.failure_reason ?? 'no transcript'}.`
          : `The transcript of ${row.id} is not ready yet.`,
      );
    }
    return transcript;
  }

  async #transcript(row: FileRow): Promise<Transcript | null> {
    const stored = await this.options.storage.get(transcriptKey(row.account_id, row.id));
    return stored
      ? withSpeakerNames(JSON.parse(stored.toString('utf8')) as Transcript, row.speaker_names)
      : null;
  }

  async #webhookStatus(fileId: string): Promise<SubmittedFile['webhookStatus']> {
    const last = await this.options.db
      .selectFrom('webhook_messages')
      .select('status')
      .where('file_id', '=', fileId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return last?.status ?? 'none';
  }

  async #owned(accountId: string, fileId: string): Promise<FileRow> {
    const row = await this.#files.find(accountId, fileId);
    if (!row) throw notFound();
    return row;
  }
}

/** A file's transcript as the API shows it: the file's id, the whole text. */
function fileTranscript(row: FileRow, transcript: Transcript): FileTranscript {
  return { id: row.id, ...transcript, text: transcriptText(transcript) };
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', 'No such file.');
}

/** The uploaded name without its extension, safe in a Content-Disposition header and a zip. */
function baseName(fileName: string): string {
  const withoutExtension = fileName.replace(/\.[^./\\]{1,8}$/, '');
  const safe = withoutExtension.replace(/[^\p{L}\p{N} ._-]+/gu, '_').trim();
  return safe === '' ? 'transcript' : safe.slice(0, 100);
}
