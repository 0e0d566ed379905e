import { z } from 'zod';

/**
 * API keys: the second credential type, for the public API only (spec §3 "API key"). The secret
 * is shown once, when the key is generated; afterwards only its prefix identifies it.
 */

/** Every secret starts with this, so secret scanners (and people) recognise a leaked key. */
export const apiKeySecretPrefix = 'vbt_live_';

/** 'active' keys authenticate; an expired or revoked one is refused at once. */
export const apiKeyStatusSchema = z.enum(['active', 'expired', 'revoked']);
export type ApiKeyStatus = z.infer<typeof apiKeyStatusSchema>;

const timestamp = z.iso.datetime({ offset: true });

export const apiKeySchema = z
  .object({
    id: z.string(),
    /** The first characters of the secret, to recognise the key (the secret itself is never shown again). */
    prefix: z.string(),
    name: z.string().nullable(),
    status: apiKeyStatusSchema,
    created: timestamp,
    /** When the key stops working; null: never. */
    expiry: timestamp.nullable(),
    /** Last use, recorded at most once a minute; null: never used. */
    used: timestamp.nullable(),
    revoked: timestamp.nullable(),
    /** The most this key may spend per calendar month (UTC), in cents; null: no cap but the balance. */
    monthlyCapCents: z.int().nullable(),
    /** What this key has spent in the current calendar month (UTC), in cents, rounded up. */
    spentThisMonthCents: z.int().nonnegative(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.array(apiKeySchema).meta({ id: 'ApiKeyList' });

/** The largest monthly cap a key accepts: $1,000,000.00. */
export const maxMonthlyCapCents = 100_000_000;

/** Everything is optional: `POST /auth/api-keys` without a body makes an unnamed key without expiry or cap. */
export const createApiKeyRequestSchema = z
  .object({
    name: z
      .string()
      .trim()
      .max(64, 'Use maximum 64 characters')
      .nullish()
      .transform((name) => (name ? name : null)),
    /** Must lie in the future (and within 5 years). */
    expiresAt: timestamp.nullish().transform((value) => value ?? null),
    monthlyCapCents: z
      .int()
      .min(1)
      .max(maxMonthlyCapCents)
      .nullish()
      .transform((value) => value ?? null),
  })
  .meta({ id: 'CreateApiKeyRequest' });
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;

/** The answer of `POST /auth/api-keys`: the key, and its secret `apiKey`, returned this once only. */
export const createdApiKeySchema = apiKeySchema
  .extend({ apiKey: z.string().startsWith(apiKeySecretPrefix) })
  .meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
