import { renderText, transcriptText, type Transcript } from '@verbatim/speech';
import type { Db } from '../../platform/db/database.js';
import type { FileStorage } from '../../platform/storage/file-storage.js';
import { transcriptKey } from '../files/file-keys.js';
import { FilesRepository } from '../files/files.repository.js';
import { withSpeakerNames } from '../files/speaker-names.js';
import type { CrmTranscript, TranscriptSource } from './transcript-source.js';

/**
 * The transcripts of submitted files and of the public jobs API (both are submitted files): a done
 * file of the account, with its transcript as the worker stored it.
 */
export class SubmittedFileTranscripts implements TranscriptSource {
  readonly #files: FilesRepository;

  constructor(
    db: Db,
    private readonly storage: FileStorage,
    /** Where the console's Submitted files page is, for the link back. */
    private readonly publicUrl: string,
  ) {
    this.#files = new FilesRepository(db);
  }

  async find(accountId: string, transcriptId: string): Promise<CrmTranscript | undefined> {
    const row = await this.#files.find(accountId, transcriptId);
    if (row?.status !== 'done') return undefined;
    const stored = await this.storage.get(transcriptKey(row.account_id, row.id));
    if (!stored) return undefined;
    const transcript = withSpeakerNames(JSON.parse(stored.toString('utf8')) as Transcript, row.speaker_names);
    return {
      id: row.id,
      fileName: row.file_name,
      date: row.processed_at ?? row.created_at,
      language:
        transcript.language ||
        row.detected_language ||
        (row.language_code === 'auto' ? null : row.language_code),
      durationSeconds: row.duration_seconds ?? transcript.duration,
      // A diarized transcript keeps its speaker turns: a paragraph each, `Anna: …` (names as given).
      text: transcript.speakers ? renderText(transcript).trimEnd() : transcriptText(transcript),
      url: `${this.publicUrl}/submitted-files`,
    };
  }
}
