import { diarizationRequestOf, type DiarizationRequest } from '@verbatim/contracts';
import type { Db } from '../../platform/db/database.js';
import { SettingsRepository } from '../settings/settings.repository.js';
import type { SpeakerLabelling } from '../transcripts/speaker-labelling.js';
import { toAppErrorFromSpeech } from '../transcripts/speech-app-error.js';

/** What an upload says about its speakers: `diarize` left out takes the account's default. */
export type AskedDiarization = DiarizationRequest & { diarize?: boolean | undefined };

/**
 * Whether an upload is diarized, decided when it is created and kept with the file for the worker:
 * `diarize` as given, else the account's default (`transcripts.diarize`). A diarized upload is
 * refused at once with SPEECH_UNAVAILABLE (naming the download command) when the diarization
 * models are missing, rather than failing after the whole upload.
 */
export class UploadDiarization {
  constructor(
    private readonly db: Db,
    private readonly labelling: SpeakerLabelling,
  ) {}

  async resolve(accountId: string, asked: AskedDiarization): Promise<DiarizationRequest | null> {
    const diarize = asked.diarize ?? (await new SettingsRepository(this.db).find(accountId)).diarize;
    const request = diarizationRequestOf({ ...asked, diarize });
    if (!request) return null;
    try {
      await this.labelling.ready();
    } catch (error) {
      throw toAppErrorFromSpeech(error);
    }
    return request;
  }
}
