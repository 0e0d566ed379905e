import { z } from 'zod';

const timestamp = z.iso.datetime({ offset: true });

/**
 * Where a licence stands: `expiring` is active with 30 days or less left, `exhausted` has used
 * every second it allows. A suspended licence is refused until the operator resumes it.
 */
export const licenceStatuses = ['active', 'expiring', 'expired', 'suspended', 'exhausted'] as const;
export const licenceStatusSchema = z.enum(licenceStatuses);
export type LicenceStatus = z.infer<typeof licenceStatusSchema>;

/** An on-premise licence (spec §3 License). `uses` and `maxUses` are seconds of audio. */
export const licenceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    /** The start of the key, enough to recognise it; the key itself is shown once, when issued. */
    keyPrefix: z.string(),
    status: licenceStatusSchema,
    created: timestamp,
    /** The last moment the licence may be used. */
    expiry: timestamp,
    uses: z.int().nonnegative(),
    maxUses: z.int().positive(),
    /** Days the on-premise edition keeps working without reaching the licence server. */
    graceDays: z.int().nonnegative(),
    lastReportAt: timestamp.nullable(),
  })
  .meta({ id: 'Licence' });
export type Licence = z.infer<typeof licenceSchema>;

/** Spec §7 `GET /limiter/on-premise/licenses`: the account's licences, newest first. */
export const licencesSchema = z.array(licenceSchema).meta({ id: 'Licences' });

/** The public half of the key that signs licence keys, to verify them offline. */
export const licensingPublicKeySchema = z
  .object({
    algorithm: z.literal('Ed25519'),
    /** SubjectPublicKeyInfo, DER, base64: the value of LICENSE_PUBLIC_KEY. */
    publicKey: z.string(),
  })
  .meta({ id: 'LicensingPublicKey' });
export type LicensingPublicKey = z.infer<typeof licensingPublicKeySchema>;

/** One batch of usage of an on-premise installation; the licence server counts each batchId once. */
export const usageBatchSchema = z
  .object({
    batchId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'letters, digits, _ and -, 8 to 64 of them'),
    seconds: z.int().positive().max(31_622_400),
    periodStart: timestamp,
    periodEnd: timestamp,
  })
  .refine((batch) => Date.parse(batch.periodStart) <= Date.parse(batch.periodEnd), {
    message: 'periodStart must not be after periodEnd',
    path: ['periodEnd'],
  })
  .meta({
    id: 'UsageBatch',
    description: 'periodEnd must not be before periodStart (400 VALIDATION_FAILED otherwise).',
  });
export type UsageBatch = z.infer<typeof usageBatchSchema>;

/** The licence server's answer to a usage report (or a status check) of an installation. */
export const licenceStandingSchema = z
  .object({
    licenceId: z.string(),
    status: licenceStatusSchema,
    uses: z.int().nonnegative(),
    maxUses: z.int().positive(),
    expiry: timestamp,
    /** False when this batchId had already been counted: nothing was added. */
    counted: z.boolean().optional(),
  })
  .meta({ id: 'LicenceStanding' });
export type LicenceStanding = z.infer<typeof licenceStandingSchema>;

/**
 * The usage of an air-gapped installation, carried by hand to the cloud console: its batches,
 * signed with HMAC-SHA256 keyed by the licence key (hex), over the JSON of every other field with
 * object keys sorted. `keyPayload` names the key that signed it.
 */
export const usageReportSchema = z
  .object({
    format: z.literal('verbatim-usage-report/1'),
    licenceId: z.string().min(1).max(100),
    keyPayload: z.string().min(1).max(2000),
    createdAt: timestamp,
    batches: z.array(usageBatchSchema).max(100_000),
    signature: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .meta({ id: 'UsageReport' });
export type UsageReport = z.infer<typeof usageReportSchema>;

export const usageReportResultSchema = z
  .object({
    licence: licenceSchema,
    /** Batches counted now; those already counted are skipped. */
    batchesCounted: z.int().nonnegative(),
    batchesSkipped: z.int().nonnegative(),
    secondsCounted: z.int().nonnegative(),
  })
  .meta({ id: 'UsageReportResult' });
export type UsageReportResult = z.infer<typeof usageReportResultSchema>;

export const licenceProblemCodes = [
  'LICENSE_INVALID',
  'LICENSE_EXPIRED',
  'LICENSE_EXHAUSTED',
  'LICENSE_SUSPENDED',
  'LICENSE_OFFLINE_TOO_LONG',
] as const;

/** The on-premise edition's own licence, as it knows it (`GET /licensing/installation`). */
export const installationLicenceSchema = z
  .object({
    licenceId: z.string().nullable(),
    name: z.string().nullable(),
    keyPrefix: z.string().nullable(),
    status: licenceStatusSchema.nullable(),
    expiry: timestamp.nullable(),
    /** Seconds counted by the licence server plus those not reported yet. */
    used: z.int().nonnegative(),
    maxUses: z.int().nonnegative(),
    remaining: z.int().nonnegative(),
    unreportedSeconds: z.int().nonnegative(),
    lastReportAt: timestamp.nullable(),
    /** Why new work is refused now; null when it is accepted. */
    problem: z.enum(licenceProblemCodes).nullable(),
    problemMessage: z.string().nullable(),
  })
  .meta({ id: 'InstallationLicence' });
export type InstallationLicence = z.infer<typeof installationLicenceSchema>;
