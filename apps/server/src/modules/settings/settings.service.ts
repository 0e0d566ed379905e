import {
  interfaceLanguageSchema,
  type InterfaceLanguage,
  type Settings,
  type updateSettingsRequestSchema,
} from '@verbatim/contracts';
import type { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import type { Db } from '../../platform/db/database.js';
import type { Account } from '../accounts/accounts.repository.js';
import { accountsStore } from '../accounts/accounts-store.js';
import type { AuditContext } from '../accounts/audit-log.js';
import type { CreditsService } from '../credits/credits.service.js';
import { SettingsRepository } from './settings.repository.js';

export type SettingsUpdate = z.output<typeof updateSettingsRequestSchema>;

/**
 * Spec §3 Settings. The interface language is the account's `language` (which the profile and the
 * sign-in pages read too: one value, not two copies); credits come from the ledger.
 */
export class SettingsService {
  constructor(
    private readonly db: Db,
    private readonly credits: CreditsService,
  ) {}

  async get(account: Account): Promise<Settings> {
    const [stored, credits] = await Promise.all([
      new SettingsRepository(this.db).find(account.id),
      this.credits.credits(account.id),
    ]);
    return {
      language: interfaceLanguageOf(account),
      transcripts: { language: stored.transcriptLanguage },
      calls: { ceiling: null, currentUsage: credits.calls },
      thirdPartyApi: { credits: { ceiling: credits.ceiling, currentUsage: credits.currentUsage } },
    };
  }

  async update(account: Account, changes: SettingsUpdate, context: AuditContext): Promise<Settings> {
    const fields: string[] = [];
    const updated = await this.db.transaction().execute(async (trx) => {
      const store = accountsStore(trx);
      let current = account;
      if (changes.language !== undefined && changes.language !== account.language) {
        const saved = await store.accounts.update(account.id, { language: changes.language });
        if (!saved) throw new AppError('UNAUTHENTICATED', 'This account no longer exists.');
        current = saved;
        fields.push('language');
      }
      const transcriptLanguage = changes.transcripts?.language;
      if (transcriptLanguage !== undefined) {
        await new SettingsRepository(trx).save(account.id, { transcriptLanguage });
        fields.push('transcripts.language');
      }
      if (fields.length > 0) await store.audit.record('settings.updated', account.id, context, { fields });
      return current;
    });
    return this.get(updated);
  }
}

function interfaceLanguageOf(account: Account): InterfaceLanguage {
  const parsed = interfaceLanguageSchema.safeParse(account.language);
  return parsed.success ? parsed.data : 'en';
}
