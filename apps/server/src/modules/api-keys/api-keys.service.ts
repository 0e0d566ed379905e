import type { ApiKey, ApiKeyStatus, createApiKeyRequestSchema, CreatedApiKey } from '@verbatim/contracts';
import type { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';
import type { Db } from '../../platform/db/database.js';
import type { Account } from '../accounts/accounts.repository.js';
import type { AuditContext, AuditLog } from '../accounts/audit-log.js';
import type { CreditsService } from '../credits/credits.service.js';
import { generateApiKeySecret, hashApiKeySecret, isWellFormedApiKey } from './api-key-secret.js';
import { ApiKeysRepository, type ApiKeyRecord } from './api-keys.repository.js';

export type CreateApiKeyInput = z.output<typeof createApiKeyRequestSchema>;

/** Expiry dates further away than this are a mistake; "never" is the absence of a date. */
const maxLifetimeMs = 5 * 366 * 86_400_000;
/** Last use is written at most this often per key: one write a minute, not one per request. */
const lastUseResolutionMs = 60_000;

export interface ApiKeyAuthentication {
  account: Account;
  key: ApiKeyRecord;
}

/** What `ApiKeysService.check` found: the key and its account, or whether the refusal is final. */
export type ApiKeyCheck =
  | ({ valid: true } & ApiKeyAuthentication)
  | { valid: false; /** The secret can never become valid. */ hopeless: boolean };

export function apiKeyStatus(key: ApiKeyRecord, now = new Date()): ApiKeyStatus {
  if (key.revoked_at !== null) return 'revoked';
  if (key.expires_at !== null && key.expires_at <= now) return 'expired';
  return 'active';
}

/** Generating, listing, revoking and checking API keys. */
export class ApiKeysService {
  readonly #keys: ApiKeysRepository;

  constructor(
    db: Db,
    private readonly credits: CreditsService,
    private readonly audit: AuditLog,
    private readonly maxPerAccount: number,
  ) {
    this.#keys = new ApiKeysRepository(db);
  }

  /** A new key; the answer carries its secret, which is not kept and cannot be shown again. */
  async create(account: Account, input: CreateApiKeyInput, context: AuditContext): Promise<CreatedApiKey> {
    const now = Date.now();
    const expiresAt = input.expiresAt === null ? null : new Date(input.expiresAt);
    if (expiresAt && (expiresAt.getTime() <= now || expiresAt.getTime() > now + maxLifetimeMs)) {
      throw new AppError('VALIDATION_FAILED', 'The request is not valid.', [
        {
          location: 'body',
          path: ['expiresAt'],
          message: 'The expiry date must lie in the future, at most 5 years from now',
        },
      ]);
    }
    if ((await this.#keys.countUnrevoked(account.id)) >= this.maxPerAccount) {
      throw new AppError(
        'API_KEY_LIMIT_REACHED',
        `An account holds at most ${this.maxPerAccount} API keys. Revoke one you no longer use first.`,
      );
    }
    const { secret, prefix, hash } = generateApiKeySecret();
    const key = await this.#keys.insert({
      id: newId('key'),
      account_id: account.id,
      name: input.name,
      prefix,
      secret_hash: hash,
      monthly_cap_cents: input.monthlyCapCents,
      expires_at: expiresAt,
    });
    await this.audit.record('api_key.created', account.id, context, { keyId: key.id, prefix });
    return { ...toApiKey(key, 0), apiKey: secret };
  }

  /** The account's keys that are not revoked: active ones, and expired ones marked so. */
  async list(account: Account): Promise<ApiKey[]> {
    const [keys, spent] = await Promise.all([
      this.#keys.listUnrevoked(account.id),
      this.credits.spentThisMonthByKey(account.id),
    ]);
    return keys.map((key) => toApiKey(key, spent.get(key.id) ?? 0));
  }

  /** Revokes one of the account's keys, at once; NOT_FOUND for a key of another account. */
  async revoke(account: Account, id: string, context: AuditContext): Promise<void> {
    const revoked = await this.#keys.revoke(account.id, id);
    if (!revoked) throw new AppError('NOT_FOUND', 'There is no such API key.');
    await this.audit.record('api_key.revoked', account.id, context, { keyId: id, prefix: revoked.prefix });
  }

  /**
   * The key a secret belongs to and its account, when the key is active and the account too;
   * undefined otherwise. Nothing is cached: a revocation is refused from the next request on.
   */
  async authenticate(secret: string): Promise<ApiKeyAuthentication | undefined> {
    const checked = await this.check(secret);
    return checked.valid ? { account: checked.account, key: checked.key } : undefined;
  }

  /**
   * As `authenticate`, and for a refused secret whether it can ever become valid: a malformed,
   * unknown, revoked or expired key cannot; the key of an account that is not active (yet) can.
   */
  async check(secret: string): Promise<ApiKeyCheck> {
    if (!isWellFormedApiKey(secret)) return { valid: false, hopeless: true };
    const found = await this.#keys.findWithAccountByHash(hashApiKeySecret(secret));
    const now = new Date();
    if (!found || apiKeyStatus(found.key, now) !== 'active') return { valid: false, hopeless: true };
    if (found.account.status !== 'active') return { valid: false, hopeless: false };
    const { key, account } = found;
    if (!key.last_used_at || now.getTime() - key.last_used_at.getTime() >= lastUseResolutionMs) {
      await this.#keys.touch(key.id, now);
      key.last_used_at = now;
    }
    return { valid: true, account, key };
  }
}

function toApiKey(key: ApiKeyRecord, spentThisMonthCents: number): ApiKey {
  return {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    status: apiKeyStatus(key),
    created: key.created_at.toISOString(),
    expiry: key.expires_at?.toISOString() ?? null,
    used: key.last_used_at?.toISOString() ?? null,
    revoked: key.revoked_at?.toISOString() ?? null,
    monthlyCapCents: key.monthly_cap_cents,
    spentThisMonthCents,
  };
}
