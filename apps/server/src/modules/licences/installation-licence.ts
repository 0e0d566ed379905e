import type { InstallationLicence as InstallationLicenceView, LicenceStanding } from '@verbatim/contracts';
import { licenceStatusSchema } from '@verbatim/contracts';
import type { KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { AppError } from '../../errors/app-error.js';
import type { Db } from '../../platform/db/database.js';
import { billedSeconds } from '../credits/pricing.js';
import type { ChargeRequest, MeterResult, UsageMeter } from '../credits/usage-meter.js';
import { parsePublicKey, verifyLicenceKey, type VerifiedKey } from './licence-keys.js';
import type { UsageJournal } from './usage-journal.js';

export type InstallationSettings = NonNullable<Config['licensing']['installation']>;

const dayMs = 86_400_000;
const expiringWithinMs = 30 * dayMs;
const maxChargeSeconds = 366 * 86_400;

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The on-premise edition's licence: its key, checked offline at start, and what the licence server
 * last answered (kept in the database across restarts). Says whether new work may start, and if
 * not, why and what to do.
 */
export class InstallationLicence {
  readonly #key: VerifiedKey | null;
  readonly #keyProblem: AppError | null;

  constructor(
    private readonly db: Db,
    private readonly journal: UsageJournal,
    readonly settings: InstallationSettings,
    logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    let key: VerifiedKey | null = null;
    let problem: AppError | null = null;
    try {
      let publicKey: KeyObject;
      try {
        publicKey = parsePublicKey(settings.publicKey);
      } catch {
        throw new AppError(
          'LICENSE_INVALID',
          'LICENSE_PUBLIC_KEY is not an Ed25519 public key: copy it from GET /api/v1/licensing/public-key of the licence server.',
        );
      }
      // The expiry is judged on each request, from the newest terms known (an extension arrives
      // with the licence server's answers).
      key = verifyLicenceKey(publicKey, settings.key, { ignoreExpiry: true });
    } catch (error) {
      problem = error instanceof AppError ? error : new AppError('LICENSE_INVALID', String(error));
    }
    this.#key = key;
    this.#keyProblem = problem;
    if (problem) logger.error({ code: problem.code }, problem.message);
    else if (key)
      logger.info({ licence: key.payload.licenceId, prefix: key.prefix }, 'on-premise licence verified');
  }

  /** The verified key; null when LICENSE_KEY is not one the licence server signed. */
  get key(): VerifiedKey | null {
    return this.#key;
  }

  async #standing() {
    if (!this.#key) return undefined;
    return this.db
      .selectFrom('licence_standing')
      .selectAll()
      .where('licence_id', '=', this.#key.payload.licenceId)
      .executeTakeFirst();
  }

  /** Where the licence stands now, and the reason new work is refused (null: accepted). */
  async view(): Promise<InstallationLicenceView & { problemError: AppError | null }> {
    const key = this.#key;
    if (!key) {
      return {
        licenceId: null,
        name: null,
        keyPrefix: null,
        status: null,
        expiry: null,
        used: 0,
        maxUses: 0,
        remaining: 0,
        unreportedSeconds: await this.journal.unsentSeconds(),
        lastReportAt: null,
        problem: 'LICENSE_INVALID',
        problemMessage: this.#keyProblem?.message ?? 'The licence key is not valid.',
        problemError: this.#keyProblem,
      };
    }
    const { payload } = key;
    const standing = await this.#standing();
    const unreported = await this.journal.unsentSeconds();
    const airGapped = this.settings.serverUrl === null;
    const used = airGapped ? await this.journal.totalSeconds() : (standing?.uses ?? 0) + unreported;
    const maxUses = standing?.max_uses ?? payload.maxUses;
    const expiry = standing?.expires_at ?? new Date(payload.expiresAt);
    const now = this.now();
    const lastContact = standing?.last_report_at ?? new Date(payload.issuedAt);
    const remoteStatus = licenceStatusSchema.safeParse(standing?.status);

    let problemError: AppError | null = null;
    if (remoteStatus.success && remoteStatus.data === 'suspended') {
      problemError = new AppError(
        'LICENSE_SUSPENDED',
        `The licence "${payload.name}" is suspended by the licence server: contact your provider.`,
      );
    } else if (expiry.getTime() <= now.getTime()) {
      problemError = new AppError(
        'LICENSE_EXPIRED',
        `The licence "${payload.name}" expired on ${day(expiry)}: ask your provider to extend it.`,
      );
    } else if (used >= maxUses) {
      problemError = new AppError(
        'LICENSE_EXHAUSTED',
        `The licence "${payload.name}" has used all its ${Math.round(maxUses / 3600)} hours: ask your provider to extend it.`,
      );
    } else if (!airGapped && now.getTime() - lastContact.getTime() > payload.graceDays * dayMs) {
      problemError = new AppError(
        'LICENSE_OFFLINE_TOO_LONG',
        `The licence server has not been reached since ${day(lastContact)}, longer than the licence's ${payload.graceDays} days of grace: let this server reach ${this.settings.serverUrl ?? ''}. Usage waits and is sent when it can.`,
      );
    }
    const status =
      problemError?.code === 'LICENSE_SUSPENDED'
        ? 'suspended'
        : problemError?.code === 'LICENSE_EXPIRED'
          ? 'expired'
          : used >= maxUses
            ? 'exhausted'
            : expiry.getTime() - now.getTime() <= expiringWithinMs
              ? 'expiring'
              : 'active';
    return {
      licenceId: payload.licenceId,
      name: payload.name,
      keyPrefix: key.prefix,
      status,
      expiry: expiry.toISOString(),
      used,
      maxUses,
      remaining: Math.max(0, maxUses - used),
      unreportedSeconds: unreported,
      lastReportAt: standing?.last_report_at?.toISOString() ?? null,
      problem:
        problemError?.code === undefined ? null : (problemError.code as InstallationLicenceView['problem']),
      problemMessage: problemError?.message ?? null,
      problemError,
    };
  }

  /** Refuses new work with the licence's problem (LICENSE_…), if it has one. */
  async assertUsable(): Promise<void> {
    const { problemError } = await this.view();
    if (problemError) throw problemError;
  }

  /** Keeps the licence server's answer: uses, terms, status, and the time of this contact. */
  async applyStanding(standing: LicenceStanding): Promise<void> {
    const row = {
      licence_id: standing.licenceId,
      status: standing.status,
      uses: standing.uses,
      max_uses: standing.maxUses,
      expires_at: new Date(standing.expiry),
      last_report_at: this.now(),
      last_error: null,
      updated_at: new Date(),
    };
    await this.db
      .insertInto('licence_standing')
      .values(row)
      .onConflict((conflict) => conflict.column('licence_id').doUpdateSet(row))
      .execute();
  }

  async recordFailure(message: string): Promise<void> {
    if (!this.#key) return;
    await this.db
      .updateTable('licence_standing')
      .set({ last_error: message, updated_at: new Date() })
      .where('licence_id', '=', this.#key.payload.licenceId)
      .execute();
  }
}

/**
 * The on-premise edition's meter: no credit, no price; each finished transcription's seconds go to
 * the local usage journal (in the caller's transaction when given) and count against the licence.
 * New work is refused once the licence is invalid, expired, suspended, used up, or has not reached
 * the licence server within its grace days; work already admitted always records its usage.
 */
export class LicenceMeter implements UsageMeter {
  constructor(
    private readonly db: Db,
    private readonly licence: InstallationLicence,
    private readonly journal: UsageJournal,
  ) {}

  /**
   * As with credits, usage made with an API key is refused once the key is revoked or expired
   * (so a stream metered as it goes stops with its key), and a key of another account is FORBIDDEN.
   * Monthly caps are money, which this edition does not take.
   */
  async #assertKey(accountId: string, apiKeyId: string | null, within?: Db): Promise<void> {
    if (apiKeyId === null) return;
    const key = await (within ?? this.db)
      .selectFrom('api_keys')
      .select(['account_id', 'revoked_at', 'expires_at'])
      .where('id', '=', apiKeyId)
      .executeTakeFirst();
    if (key?.account_id !== accountId) {
      throw new AppError('FORBIDDEN', 'This API key does not belong to the account charged.');
    }
    if (key.revoked_at !== null || (key.expires_at !== null && key.expires_at <= new Date())) {
      throw new AppError('UNAUTHENTICATED', 'This API key has been revoked or has expired.');
    }
  }

  async charge(request: ChargeRequest, within?: Db): Promise<MeterResult> {
    const { accountId, product, seconds, reference } = request;
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > maxChargeSeconds) {
      throw new AppError(
        'BAD_REQUEST',
        `A charge is for more than 0 and at most ${maxChargeSeconds} seconds.`,
      );
    }
    if (reference.length === 0 || reference.length > 200) {
      throw new AppError('BAD_REQUEST', 'A charge needs a reference of 1 to 200 characters.');
    }
    await this.#assertKey(accountId, request.apiKeyId, within);
    const recorded = await this.journal.record(
      { reference: `${accountId}:${reference}`, accountId, product, seconds: billedSeconds(seconds) },
      within,
    );
    return { replayed: !recorded };
  }

  async assertAffordable(request: Omit<ChargeRequest, 'reference'>): Promise<void> {
    await this.#assertKey(request.accountId, request.apiKeyId);
    await this.licence.assertUsable();
  }
}
