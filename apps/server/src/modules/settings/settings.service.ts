import {
  interfaceLanguageSchema,
  type InterfaceLanguage,
  type RecordingExtension,
  type Settings,
  type TranscriptDeletionOption,
  type TranscriptDeletionPeriod,
  type TranscriptionLanguageEntry,
  type updateSettingsRequestSchema,
} from '@verbatim/contracts';
import { isKnownLanguage } from '@verbatim/speech';
import type { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import type { Db } from '../../platform/db/database.js';
import type { Account } from '../accounts/accounts.repository.js';
import { accountsStore } from '../accounts/accounts-store.js';
import type { AuditContext } from '../accounts/audit-log.js';
import type { CreditsService } from '../credits/credits.service.js';
import { transcriptDeletionOptions } from './deletion-periods.js';
import { SettingsRepository, type StoredSettings } from './settings.repository.js';

export type SettingsUpdate = z.output<typeof updateSettingsRequestSchema>;

/** What the settings need of the speech engine: the languages its installed models serve. */
export interface TranscriptLanguageSource {
  languages(locale: string): TranscriptionLanguageEntry[];
}

/**
 * Spec §3 Settings. The interface language is the account's `language` (which the profile and the
 * sign-in pages read too: one value, not two copies); credits come from the ledger; the rest is
 * kept in `account_settings`.
 */
export class SettingsService {
  constructor(
    private readonly db: Db,
    private readonly credits: CreditsService,
    private readonly speech: TranscriptLanguageSource,
  ) {}

  async get(account: Account): Promise<Settings> {
    const [stored, credits] = await Promise.all([
      new SettingsRepository(this.db).find(account.id),
      this.credits.credits(account.id),
    ]);
    return {
      language: interfaceLanguageOf(account),
      transcripts: {
        language: stored.transcriptLanguage,
        deletionAfterDays: stored.deletionAfterDays,
        diarize: stored.diarize,
      },
      recordingExtension: stored.recordingExtension,
      calls: { ceiling: null, currentUsage: credits.calls },
      thirdPartyApi: { credits: { ceiling: credits.ceiling, currentUsage: credits.currentUsage } },
    };
  }

  async update(account: Account, changes: SettingsUpdate, context: AuditContext): Promise<Settings> {
    const transcriptLanguage = changes.transcripts?.language;
    if (transcriptLanguage !== undefined) this.#assertTranscriptLanguage(transcriptLanguage);
    const updated = await this.db.transaction().execute(async (trx) => {
      const store = accountsStore(trx);
      const settings = new SettingsRepository(trx);
      const fields: string[] = [];
      let current = account;
      if (changes.language !== undefined && changes.language !== account.language) {
        const saved = await store.accounts.update(account.id, { language: changes.language });
        if (!saved) throw new AppError('UNAUTHENTICATED', 'This account no longer exists.');
        current = saved;
        fields.push('language');
      }
      // Only what really changes is written and audited: a client may send back all it read.
      const before = await settings.find(account.id);
      const deletionAfterDays = changes.transcripts?.deletionAfterDays;
      const diarize = changes.transcripts?.diarize;
      const stored: Partial<StoredSettings> = {
        ...(transcriptLanguage !== undefined && transcriptLanguage !== before.transcriptLanguage
          ? { transcriptLanguage }
          : {}),
        ...(deletionAfterDays !== undefined && deletionAfterDays !== before.deletionAfterDays
          ? { deletionAfterDays }
          : {}),
        ...(diarize !== undefined && diarize !== before.diarize ? { diarize } : {}),
      };
      if (Object.keys(stored).length > 0) {
        await settings.save(account.id, stored);
        if (stored.transcriptLanguage !== undefined) fields.push('transcripts.language');
        if (stored.deletionAfterDays !== undefined) fields.push('transcripts.deletionAfterDays');
        if (stored.diarize !== undefined) fields.push('transcripts.diarize');
      }
      if (fields.length > 0) await store.audit.record('settings.updated', account.id, context, { fields });
      return current;
    });
    return this.get(updated);
  }

  /** `PUT /settings/recording-extension`: the format in which kept live recordings are stored. */
  async updateRecordingExtension(
    account: Account,
    recordingExtension: RecordingExtension,
    context: AuditContext,
  ): Promise<Settings> {
    await this.db.transaction().execute(async (trx) => {
      const settings = new SettingsRepository(trx);
      if ((await settings.find(account.id)).recordingExtension === recordingExtension) return;
      await settings.save(account.id, { recordingExtension });
      await accountsStore(trx).audit.record('settings.updated', account.id, context, {
        fields: ['recordingExtension'],
      });
    });
    return this.get(account);
  }

  /**
   * The languages the installed speech models transcribe, named in `locale` (by default the
   * account's interface language); French (Medical) comes with French (the engine appends it).
   */
  transcriptLanguages(account: Account, locale?: InterfaceLanguage): TranscriptionLanguageEntry[] {
    return this.speech.languages(locale ?? interfaceLanguageOf(account));
  }

  /** The automatic deletion periods offered, named in `locale` (by default the account's). */
  deletionOptions(account: Account, locale?: InterfaceLanguage): TranscriptDeletionOption[] {
    return transcriptDeletionOptions(locale ?? interfaceLanguageOf(account));
  }

  /**
   * For the scheduled deletion of transcripts and recordings: the days after which this account's
   * transcripts go, or null when it keeps them.
   */
  async deletionPeriodOf(accountId: string): Promise<TranscriptDeletionPeriod> {
    return (await new SettingsRepository(this.db).find(accountId)).deletionAfterDays;
  }

  /** For uploads that do not say: whether this account's transcripts tell who speaks when. */
  async diarizesByDefault(accountId: string): Promise<boolean> {
    return (await new SettingsRepository(this.db).find(accountId)).diarize;
  }

  /**
   * The saved language must be one the installed models transcribe, so that what the console
   * preselects can be used. Without any model (a fresh install still downloading) every known
   * language is accepted: the model that arrives decides later, and the transcription itself
   * refuses what it cannot serve.
   */
  #assertTranscriptLanguage(code: string): void {
    const served = this.speech.languages('en');
    const servedHere = served.length === 0 || served.some((language) => language.code === code);
    if (isKnownLanguage(code) && servedHere) return;
    throw new AppError(
      'VALIDATION_FAILED',
      isKnownLanguage(code)
        ? `The language "${code}" is not one the installed speech models transcribe.`
        : `"${code}" is not a language code the speech engine knows.`,
      [{ location: 'body', path: ['transcripts', 'language'], message: 'Invalid language' }],
    );
  }
}

function interfaceLanguageOf(account: Account): InterfaceLanguage {
  const parsed = interfaceLanguageSchema.safeParse(account.language);
  return parsed.success ? parsed.data : 'en';
}
