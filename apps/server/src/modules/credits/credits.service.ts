import { meteredProducts, type Credits, type MeteredProduct, type Usage } from '@verbatim/contracts';
import { AppError } from '../../errors/app-error.js';
import type { Db } from '../../platform/db/database.js';
import { LedgerRepository, monthStart, type LedgerEntry } from './ledger.repository.js';
import type { CreditKind } from './ledger.tables.js';
import type { ChargeRequest, UsageMeter } from './usage-meter.js';
import {
  billedSeconds,
  centsToMicros,
  costMicros,
  creditMicrosToCents,
  usageMicrosToCents,
} from './pricing.js';

export type { ChargeRequest } from './usage-meter.js';

export interface CreditRequest {
  accountId: string;
  cents: number;
  /** Unique per account (e.g. `payment:<id>`): a repeated credit happens once. */
  reference: string;
  kind?: CreditKind;
}

export interface LedgerResult {
  entry: LedgerEntry;
  /** True when the reference had already been recorded: nothing new happened. */
  replayed: boolean;
  /** The balance after the entry, in micro-dollars. */
  balanceMicros: number;
}

const maxReferenceLength = 200;
/** A year of audio in one charge is a mistake, not usage. */
const maxChargeSeconds = 366 * 86_400;

/**
 * The metering ledger: purchases and usage are entries of one ledger per account, and the balance
 * is their sum, derived on every read and never stored. Charges and credits of one account are
 * serialised by a row lock on the account (see LedgerRepository.lockAccount), so concurrent
 * charges from any number of connections or processes are neither lost nor doubled, and the
 * unique (account, reference) pair makes each of them idempotent.
 */
export class CreditsService implements UsageMeter {
  constructor(
    private readonly db: Db,
    private readonly pricesMicrosPerHour: Record<MeteredProduct, number>,
  ) {}

  /**
   * Charges `seconds` of `product` to the account, refusing with INSUFFICIENT_CREDIT when the
   * balance, or with API_KEY_CAP_REACHED when the key's monthly cap, would be exceeded. A key
   * that is revoked or expired is refused too (UNAUTHENTICATED), so a long-running stream that
   * charges as it goes stops as soon as its key is revoked; a key of another account is FORBIDDEN.
   * Callers charge before they deliver. A repeated reference returns the original entry.
   */
  async charge(request: ChargeRequest, within?: Db): Promise<LedgerResult> {
    const { accountId, apiKeyId, product, seconds, reference } = request;
    assertReference(reference);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > maxChargeSeconds) {
      throw new AppError(
        'BAD_REQUEST',
        `A charge is for more than 0 and at most ${maxChargeSeconds} seconds.`,
      );
    }
    if (!meteredProducts.includes(product)) throw new AppError('BAD_REQUEST', `Unknown product ${product}.`);
    const billed = billedSeconds(seconds);
    const priceMicrosPerHour = this.pricesMicrosPerHour[product];
    const amount = costMicros(billed, priceMicrosPerHour);

    return this.#serialised(accountId, within, async (ledger, trx) => {
      const existing = await ledger.findByReference(accountId, reference);
      if (existing) return replay(existing, 'usage', ledger);

      const balance = await this.#assertAffordable(ledger, trx, accountId, apiKeyId, amount);
      const entry = await ledger.insert({
        account_id: accountId,
        kind: 'usage',
        amount_micros: -amount,
        product,
        billed_seconds: billed,
        price_micros_per_hour: priceMicrosPerHour,
        api_key_id: apiKeyId,
        reference,
      });
      return { entry, replayed: false, balanceMicros: balance - amount };
    });
  }

  /**
   * Refuses, before any work is done, what the account (or the key's monthly cap) could not pay
   * for: the same checks as {@link charge}, without recording anything. A charge made after the
   * work may still be refused if the balance was spent meanwhile.
   */
  async assertAffordable(request: Omit<ChargeRequest, 'reference'>): Promise<void> {
    const amount = costMicros(billedSeconds(request.seconds), this.pricesMicrosPerHour[request.product]);
    await this.#assertAffordable(
      new LedgerRepository(this.db),
      this.db,
      request.accountId,
      request.apiKeyId,
      amount,
    );
  }

  /** The key's validity and monthly cap, then the balance; answers the balance before `amount`. */
  async #assertAffordable(
    ledger: LedgerRepository,
    trx: Db,
    accountId: string,
    apiKeyId: string | null,
    amount: number,
  ): Promise<number> {
    if (apiKeyId !== null) {
      const key = await trx
        .selectFrom('api_keys')
        .select(['account_id', 'monthly_cap_cents', 'revoked_at', 'expires_at'])
        .where('id', '=', apiKeyId)
        .executeTakeFirst();
      if (!key || key.account_id !== accountId) {
        throw new AppError('FORBIDDEN', 'This API key does not belong to the account charged.');
      }
      if (key.revoked_at !== null || (key.expires_at !== null && key.expires_at <= new Date())) {
        throw new AppError('UNAUTHENTICATED', 'This API key has been revoked or has expired.');
      }
      if (key.monthly_cap_cents !== null) {
        const spent = await ledger.spentByKeySince(apiKeyId, monthStart(new Date()));
        if (spent + amount > centsToMicros(key.monthly_cap_cents)) {
          throw new AppError(
            'API_KEY_CAP_REACHED',
            `This API key has reached its monthly spending cap of $${dollars(key.monthly_cap_cents)}.`,
          );
        }
      }
    }

    const balance = await ledger.balanceMicros(accountId);
    if (balance - amount < 0) {
      throw new AppError(
        'INSUFFICIENT_CREDIT',
        `The credit left ($${dollars(creditMicrosToCents(balance))}) does not cover this ($${dollars(usageMicrosToCents(amount))}). Please top up.`,
      );
    }
    return balance;
  }

  /**
   * Adds credit (a purchase, by default) to the account. Idempotent per reference: a payment
   * confirmed twice credits once. Pass `within` to record it in the caller's transaction.
   */
  async credit(request: CreditRequest, within?: Db): Promise<LedgerResult> {
    const { accountId, cents, reference, kind = 'purchase' } = request;
    assertReference(reference);
    if (!Number.isSafeInteger(cents) || cents <= 0) {
      throw new AppError('BAD_REQUEST', 'A credit is a positive whole number of cents.');
    }
    return this.#serialised(accountId, within, async (ledger) => {
      const existing = await ledger.findByReference(accountId, reference);
      if (existing) return replay(existing, kind, ledger);
      const entry = await ledger.insert({
        account_id: accountId,
        kind,
        amount_micros: centsToMicros(cents),
        product: null,
        billed_seconds: null,
        price_micros_per_hour: null,
        api_key_id: null,
        reference,
      });
      return { entry, replayed: false, balanceMicros: await ledger.balanceMicros(accountId) };
    });
  }

  /** Spec §3 `thirdPartyApi.credits`: everything credited and everything used, in cents. */
  async credits(accountId: string): Promise<Credits & { calls: number }> {
    const totals = await new LedgerRepository(this.db).totals(accountId);
    return {
      ceiling: creditMicrosToCents(totals.creditedMicros),
      currentUsage: usageMicrosToCents(totals.usedMicros),
      calls: totals.usageCount,
    };
  }

  /** The exact balance, in micro-dollars. */
  balanceMicros(accountId: string): Promise<number> {
    return new LedgerRepository(this.db).balanceMicros(accountId);
  }

  /** Spec §7 `GET /limiter/usages`: one line per product, with today's price, including unused ones. */
  async usages(accountId: string): Promise<Usage[]> {
    const used = await new LedgerRepository(this.db).usageByProduct(accountId);
    return meteredProducts.map((product) => {
      const line = used.find((usage) => usage.product === product);
      return {
        name: product,
        seconds: line?.seconds ?? 0,
        calls: line?.calls ?? 0,
        currentUsage: usageMicrosToCents(line?.usedMicros ?? 0),
        pricePerHourMicros: this.pricesMicrosPerHour[product],
      };
    });
  }

  /** What each key of the account has spent this calendar month (UTC), in cents. */
  async spentThisMonthByKey(accountId: string): Promise<Map<string, number>> {
    const spent = await new LedgerRepository(this.db).spentByKeysSince(accountId, monthStart(new Date()));
    return new Map([...spent].map(([keyId, micros]) => [keyId, usageMicrosToCents(micros)]));
  }

  /** Runs `work` in a transaction (the caller's, when given) holding the account's ledger lock. */
  async #serialised<T>(
    accountId: string,
    within: Db | undefined,
    work: (ledger: LedgerRepository, trx: Db) => Promise<T>,
  ): Promise<T> {
    const run = async (trx: Db) => {
      const ledger = new LedgerRepository(trx);
      if (!(await ledger.lockAccount(accountId))) {
        throw new AppError('NOT_FOUND', 'This account does not exist.');
      }
      return work(ledger, trx);
    };
    if (within?.isTransaction) return run(within);
    return (within ?? this.db).transaction().execute(run);
  }
}

function assertReference(reference: string): void {
  if (reference.length === 0 || reference.length > maxReferenceLength) {
    throw new AppError('BAD_REQUEST', `A reference is 1 to ${maxReferenceLength} characters.`);
  }
}

/** A repeated reference: the original entry, provided it is of the same kind. */
async function replay(
  existing: LedgerEntry,
  kind: LedgerEntry['kind'],
  ledger: LedgerRepository,
): Promise<LedgerResult> {
  if (existing.kind !== kind) {
    // Two callers chose one reference for different things: a bug to fix, not to paper over.
    throw new Error(`ledger reference ${existing.reference} is already used by a ${existing.kind} entry`);
  }
  return { entry: existing, replayed: true, balanceMicros: await ledger.balanceMicros(existing.account_id) };
}

function dollars(cents: number): string {
  return (cents / 100).toFixed(2);
}
