import { randomBytes } from 'node:crypto';
import type {
  Licence,
  LicenceStanding,
  LicenceStatus,
  UsageBatch,
  UsageReport,
  UsageReportResult,
} from '@verbatim/contracts';
import { sql, type Selectable } from 'kysely';
import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';
import type { Db } from '../../platform/db/database.js';
import {
  encodePayload,
  exportPublicKey,
  keyScheme,
  decodePayload,
  reportSignature,
  sameSignature,
  signLicenceKey,
  verifyLicenceKey,
  type LicencePayload,
  type SigningKeys,
} from './licence-keys.js';
import type { LicencesTable } from './licences.tables.js';

type LicenceRow = Selectable<LicencesTable>;

const dayMs = 86_400_000;
/** A licence with this little time left is shown as `expiring`. */
const expiringWithinMs = 30 * dayMs;
/** Half a million hours fits the seconds column and is more than anyone buys at once. */
const maxHours = 500_000;

export interface IssueRequest {
  email: string;
  name: string;
  hours: number;
  /** YYYY-MM-DD: the licence may be used until the end of that day (UTC). */
  expires: string;
  graceDays?: number;
}

export interface IssuedLicence {
  licence: Licence;
  /** The licence key: shown once, never stored. */
  key: string;
}

export function licenceStatus(row: LicenceRow, now = new Date()): LicenceStatus {
  if (row.suspended_at) return 'suspended';
  if (row.expires_at.getTime() <= now.getTime()) return 'expired';
  if (row.uses >= row.max_uses) return 'exhausted';
  if (row.expires_at.getTime() - now.getTime() <= expiringWithinMs) return 'expiring';
  return 'active';
}

function toLicence(row: LicenceRow): Licence {
  return {
    id: row.id,
    name: row.name,
    keyPrefix: row.key_prefix,
    status: licenceStatus(row),
    created: row.created_at.toISOString(),
    expiry: row.expires_at.toISOString(),
    uses: row.uses,
    maxUses: row.max_uses,
    graceDays: row.grace_days,
    lastReportAt: row.last_report_at?.toISOString() ?? null,
  };
}

function standing(row: LicenceRow, counted?: boolean): LicenceStanding {
  return {
    licenceId: row.id,
    status: licenceStatus(row),
    uses: row.uses,
    maxUses: row.max_uses,
    expiry: row.expires_at.toISOString(),
    ...(counted === undefined ? {} : { counted }),
  };
}

/** The end (UTC) of a YYYY-MM-DD day that is today or later; BAD_REQUEST otherwise. */
export function expiryOfDay(day: string, now = new Date()): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const end = match ? new Date(`${day}T23:59:59.999Z`) : null;
  if (!end || Number.isNaN(end.getTime()) || end.toISOString().slice(0, 10) !== day) {
    throw new AppError('BAD_REQUEST', `"${day}" is not a date: write it as YYYY-MM-DD.`);
  }
  if (end.getTime() <= now.getTime()) {
    throw new AppError('BAD_REQUEST', `${day} is in the past: a licence must expire today or later.`);
  }
  return end;
}

function secondsOfHours(hours: number): number {
  if (!Number.isFinite(hours) || hours <= 0 || hours > maxHours) {
    throw new AppError('BAD_REQUEST', `Hours must be more than 0 and at most ${maxHours}.`);
  }
  return Math.round(hours * 3600);
}

/**
 * The licence server: issues signed licence keys to accounts, lists them to their owner, and counts
 * the usage installations report (online, batch by batch, or as an air-gapped report file), each
 * batch once.
 */
export class LicencesService {
  constructor(
    private readonly db: Db,
    private readonly keys: () => Promise<SigningKeys>,
  ) {}

  async publicKey(): Promise<string> {
    return exportPublicKey((await this.keys()).publicKey);
  }

  async issue(request: IssueRequest): Promise<IssuedLicence> {
    const name = request.name.trim();
    if (name.length < 1 || name.length > 200) {
      throw new AppError('BAD_REQUEST', 'A licence needs a name of 1 to 200 characters.');
    }
    const maxUses = secondsOfHours(request.hours);
    const expiresAt = expiryOfDay(request.expires);
    const graceDays = request.graceDays ?? 7;
    if (!Number.isInteger(graceDays) || graceDays < 0 || graceDays > 365) {
      throw new AppError('BAD_REQUEST', 'Grace days are a whole number from 0 to 365.');
    }
    const account = await this.db
      .selectFrom('accounts')
      .select(['id', 'email'])
      .where(sql<string>`lower(email)`, '=', request.email.trim().toLowerCase())
      .executeTakeFirst();
    if (!account) throw new AppError('NOT_FOUND', `No account has the e-mail address ${request.email}.`);
    const payload: LicencePayload = {
      tag: randomTag(),
      licenceId: newId('lic'),
      accountId: account.id,
      name,
      maxUses,
      expiresAt: expiresAt.toISOString(),
      graceDays,
      issuedAt: new Date().toISOString(),
    };
    const keyPayload = encodePayload(payload);
    const key = signLicenceKey((await this.keys()).privateKey, keyPayload);
    const row = await this.db
      .insertInto('licences')
      .values({
        id: payload.licenceId,
        account_id: account.id,
        name,
        key_prefix: `${keyScheme}${payload.tag}`,
        key_payload: keyPayload,
        max_uses: maxUses,
        expires_at: expiresAt,
        grace_days: graceDays,
        suspended_at: null,
        last_report_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { licence: toLicence(row), key };
  }

  /** Spec §7: the account's licences, newest first. */
  async list(accountId: string): Promise<Licence[]> {
    const rows = await this.db
      .selectFrom('licences')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toLicence);
  }

  /** For the operator: every licence, or an account's, with the owner's e-mail. */
  async listForOperator(email?: string): Promise<(Licence & { email: string })[]> {
    let query = this.db
      .selectFrom('licences')
      .innerJoin('accounts', 'accounts.id', 'licences.account_id')
      .selectAll('licences')
      .select('accounts.email as email')
      .orderBy('licences.created_at', 'desc');
    if (email) query = query.where(sql<string>`lower(accounts.email)`, '=', email.trim().toLowerCase());
    const rows = await query.execute();
    return rows.map((row) => ({ ...toLicence(row), email: row.email }));
  }

  async suspend(idOrPrefix: string): Promise<Licence> {
    return toLicence(await this.#update(idOrPrefix, { suspended_at: new Date() }));
  }

  async resume(idOrPrefix: string): Promise<Licence> {
    return toLicence(await this.#update(idOrPrefix, { suspended_at: null }));
  }

  /**
   * Adds hours and/or moves the expiry. Answers a new key carrying the new terms (the old one
   * still reports usage; installations learn the new terms from the licence server's answers).
   */
  async extend(idOrPrefix: string, change: { hours?: number; expires?: string }): Promise<IssuedLicence> {
    if (change.hours === undefined && change.expires === undefined) {
      throw new AppError('BAD_REQUEST', 'Say what to extend: --hours, --expires or both.');
    }
    const current = await this.#find(idOrPrefix);
    const maxUses = current.max_uses + (change.hours === undefined ? 0 : secondsOfHours(change.hours));
    const expiresAt = change.expires === undefined ? current.expires_at : expiryOfDay(change.expires);
    const previous = decodePayload(current.key_payload);
    if (!previous) throw new Error(`licence ${current.id} has an unreadable key payload`);
    const keyPayload = encodePayload({
      ...previous,
      maxUses,
      expiresAt: expiresAt.toISOString(),
      issuedAt: new Date().toISOString(),
    });
    const row = await this.#update(current.id, {
      max_uses: maxUses,
      expires_at: expiresAt,
      key_payload: keyPayload,
    });
    return { licence: toLicence(row), key: signLicenceKey((await this.keys()).privateKey, keyPayload) };
  }

  /**
   * An installation's report, authenticated by its licence key (any key this server signed for the
   * licence, even expired: usage made before the expiry still counts). Without a batch, only the
   * standing is answered.
   */
  async report(key: string, batch: UsageBatch | null): Promise<LicenceStanding> {
    const verified = verifyLicenceKey((await this.keys()).publicKey, key, { ignoreExpiry: true });
    const row = await this.db
      .selectFrom('licences')
      .selectAll()
      .where('id', '=', verified.payload.licenceId)
      .where('key_prefix', '=', verified.prefix)
      .executeTakeFirst();
    if (!row) throw new AppError('LICENSE_INVALID', 'This licence no longer exists on the licence server.');
    if (!batch) {
      const touched = await this.#update(row.id, { last_report_at: new Date() });
      return standing(touched);
    }
    return this.db.transaction().execute(async (trx) => {
      const counted = await countBatch(trx, row.id, batch, 'online');
      return standing(await touch(trx, row.id, counted ? batch.seconds : 0), counted);
    });
  }

  /** An air-gapped installation's report file, uploaded by the licence's owner: each batch counts once. */
  async uploadReport(accountId: string, report: UsageReport): Promise<UsageReportResult> {
    const row = await this.db
      .selectFrom('licences')
      .selectAll()
      .where('id', '=', report.licenceId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', 'None of your licences has this report’s licence id.');
    const payload = decodePayload(report.keyPayload);
    if (!payload || payload.licenceId !== row.id || `${keyScheme}${payload.tag}` !== row.key_prefix) {
      throw new AppError('BAD_REQUEST', 'This report was not written with a key of this licence.');
    }
    const key = signLicenceKey((await this.keys()).privateKey, report.keyPayload);
    const { signature, ...fields } = report;
    if (!sameSignature(reportSignature(key, fields), signature)) {
      throw new AppError(
        'BAD_REQUEST',
        'The report’s signature does not match: it was changed after it was written.',
      );
    }
    return this.db.transaction().execute(async (trx) => {
      let batchesCounted = 0;
      let secondsCounted = 0;
      for (const batch of report.batches) {
        if (await countBatch(trx, row.id, batch, 'report')) {
          batchesCounted += 1;
          secondsCounted += batch.seconds;
        }
      }
      const updated = await touch(trx, row.id, secondsCounted);
      return {
        licence: toLicence(updated),
        batchesCounted,
        batchesSkipped: report.batches.length - batchesCounted,
        secondsCounted,
      };
    });
  }

  async #find(idOrPrefix: string): Promise<LicenceRow> {
    const row = await this.db
      .selectFrom('licences')
      .selectAll()
      .where((eb) =>
        eb.or([eb('id', '=', idOrPrefix), eb('key_prefix', '=', idOrPrefix.slice(0, keyScheme.length + 8))]),
      )
      .executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', `No licence has the id or key prefix ${idOrPrefix}.`);
    return row;
  }

  async #update(
    idOrPrefix: string,
    values: Partial<Omit<LicenceRow, 'id' | 'account_id'>>,
  ): Promise<LicenceRow> {
    const { id } = await this.#find(idOrPrefix);
    return this.db
      .updateTable('licences')
      .set(values)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}

function randomTag(): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  return Array.from(randomBytes(8), (byte) => alphabet[byte & 31] ?? '0').join('');
}

/** True when the batch was new; a batch already counted (a resend) changes nothing. */
async function countBatch(
  trx: Db,
  licenceId: string,
  batch: UsageBatch,
  via: 'online' | 'report',
): Promise<boolean> {
  const inserted = await trx
    .insertInto('licence_usage_batches')
    .values({
      licence_id: licenceId,
      batch_id: batch.batchId,
      seconds: batch.seconds,
      period_start: new Date(batch.periodStart),
      period_end: new Date(batch.periodEnd),
      via,
    })
    .onConflict((conflict) => conflict.columns(['licence_id', 'batch_id']).doNothing())
    .returning('batch_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

async function touch(trx: Db, licenceId: string, seconds: number): Promise<LicenceRow> {
  return trx
    .updateTable('licences')
    .set((eb) => ({ uses: eb('uses', '+', seconds), last_report_at: new Date() }))
    .where('id', '=', licenceId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
