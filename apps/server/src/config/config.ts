import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MeteredProduct } from '@verbatim/contracts';
import { findCatalogueModel } from '@verbatim/speech';
import { z } from 'zod';
import { isCountryCode } from '../modules/vat/countries.js';
import type { S3StorageSettings } from '../platform/storage/s3-file-storage.js';
import { checkVatNumber, vatPrefixOf } from '../modules/vat/vat-number.js';
import { memberStateOf } from '../modules/vat/vat-treatment.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** apps/server/{src,dist}/config → the repository's apps/console/dist. */
const defaultConsoleDir = path.resolve(here, '../../../console/dist');

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

const socialLinks = z.string().transform((value, ctx) => {
  const links: { name: string; url: string }[] = [];
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const separator = entry.indexOf('=');
    const name = entry.slice(0, separator).trim();
    const url = entry.slice(separator + 1).trim();
    if (separator <= 0 || !httpUrl.safeParse(url).success) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" is not of the form Name=https://…` });
      continue;
    }
    links.push({ name, url });
  }
  return links;
});

/** A whisper.cpp model name as the catalogue spells it: `base-q8_0`, `tiny.en`, `large-v3-turbo`. */
const modelName = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be a model name such as base-q8_0');

/** `fr=small-q8_0,de=base-q8_0`: the model to use per transcription language. */
const languageModelMap = z.string().transform((value, ctx) => {
  const map: Record<string, string> = {};
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [language = '', model = ''] = entry.split('=').map((part) => part.trim());
    if (!/^[a-z]{2,3}(-[a-z]+)?$/.test(language) || !modelName.safeParse(model).success) {
      ctx.addIssue({
        code: 'custom',
        message: `"${entry}" is not of the form language=model, such as fr=small-q8_0`,
      });
      continue;
    }
    map[language] = model;
  }
  return map;
});

const port = z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535);
const positiveInt = z.coerce.number({ error: 'must be a number' }).int().positive();
const nonNegativeInt = z.coerce.number({ error: 'must be a number' }).int().min(0);

/** A dollar amount such as `0.10`, read exactly (no floating point) as millionths of a dollar. */
const usdAsMicros = z
  .string()
  .regex(/^\d{1,7}(\.\d{1,6})?$/, 'must be a dollar amount such as 0.10 (at most 6 decimals)')
  .transform((value) => {
    const [whole = '0', fraction = ''] = value.split('.');
    return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
  });

/**
 * Every environment variable the server reads, with its default. The README's configuration table
 * documents the same list; keep both in step.
 */
const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: port.default(8080),
  PUBLIC_URL: httpUrl.optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection URL')
    .optional(),
  DATABASE_POOL_SIZE: positiveInt.default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: booleanFlag.default(false),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(httpUrl)),
  RATE_LIMIT_MAX: positiveInt.default(600),
  RATE_LIMIT_WINDOW_MS: positiveInt.default(60_000),
  BODY_LIMIT_BYTES: positiveInt.default(1_048_576),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  WORKERS_IN_PROCESS: booleanFlag.default(true),
  WORKER_CONCURRENCY: positiveInt.default(2),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Verbatim <no-reply@localhost>'),
  PRODUCT_NAME: z.string().min(1).default('Verbatim'),
  CONSOLE_DIR: z.string().min(1).default(defaultConsoleDir),
  LINK_PRICING_URL: httpUrl.default('https://verbatim.example.com/pricing'),
  LINK_DOCS_URL: httpUrl.default('https://verbatim.example.com/docs'),
  LINK_CONTACT_URL: httpUrl.default('https://verbatim.example.com/contact'),
  LINK_DEMO_URL: httpUrl.default('https://verbatim.example.com/demo'),
  LINK_PRIVACY_URL: httpUrl.default('https://verbatim.example.com/privacy'),
  LINK_TERMS_URL: httpUrl.default('https://verbatim.example.com/terms'),
  LINK_SOCIAL: socialLinks.default([]),
  ACCESS_TOKEN_TTL_SECONDS: positiveInt.max(86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: positiveInt.max(365).default(14),
  SESSION_TTL_DAYS: positiveInt.max(365).default(14),
  SIGNIN_FAILURES_BEFORE_CAPTCHA: positiveInt.default(5),
  SIGNIN_FAILURE_WINDOW_MINUTES: positiveInt.default(15),
  SIGNIN_REQUESTS_PER_MINUTE_PER_IP: positiveInt.max(100_000).default(30),
  PROFILE_PHOTO_MAX_BYTES: positiveInt.default(5 * 1024 * 1024),
  OAUTH_GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  OAUTH_GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  OAUTH_GOOGLE_ISSUER: httpUrl.default('https://accounts.google.com'),
  OAUTH_GITHUB_CLIENT_ID: z.string().min(1).optional(),
  OAUTH_GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  OAUTH_GITHUB_URL: httpUrl.default('https://github.com'),
  OAUTH_GITHUB_API_URL: httpUrl.default('https://api.github.com'),
  OIDC_CLIENTS: z
    .string()
    .default('[]')
    .transform((value, ctx) => {
      try {
        return JSON.parse(value) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON array of client metadata' });
        return z.NEVER;
      }
    })
    .pipe(
      z.array(
        z.looseObject({
          client_id: z
            .string()
            .min(1)
            .regex(/^[\w.-]+$/),
          client_name: z.string().min(1).optional(),
        }),
        { error: 'must be a JSON array of client metadata' },
      ),
    ),
  CAPTCHA_PROVIDER: z
    .enum(['altcha', 'recaptcha'], { error: 'must be altcha or recaptcha' })
    .default('altcha'),
  RECAPTCHA_SITE_KEY: z.string().min(1).optional(),
  RECAPTCHA_SECRET_KEY: z.string().min(1).optional(),
  RECAPTCHA_VERIFY_URL: httpUrl.default('https://www.google.com/recaptcha/api/siteverify'),
  RECAPTCHA_SCRIPT_URL: httpUrl.default('https://www.google.com/recaptcha/api.js'),
  REGISTRATION_REQUIRES_APPROVAL: booleanFlag.default(false),
  REGISTRATIONS_PER_HOUR_PER_IP: positiveInt.max(100_000).default(10),
  EMAIL_VERIFICATION_TTL_HOURS: positiveInt.default(48),
  PASSWORD_RECOVERY_TTL_MINUTES: positiveInt.default(60),
  SELLER_NAME: z.string().trim().min(1).optional(),
  SELLER_ADDRESS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(/\\n|\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  SELLER_COUNTRY: z
    .string()
    .trim()
    .transform((value) => value.toUpperCase())
    .refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code, such as FR')
    .default('FR'),
  SELLER_VAT_NUMBER: z
    .string()
    .transform((value) => value.replace(/[\s.-]/g, '').toUpperCase())
    .pipe(
      z
        .string()
        .regex(/^[A-Z]{2}[0-9A-Z+*]{2,13}$/, 'must be a VAT number with its prefix, such as FR40303265045'),
    )
    .optional(),
  SELLER_EMAIL: z.email('must be an e-mail address').optional(),
  VIES_ENABLED: booleanFlag.default(false),
  VIES_URL: httpUrl.default('https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number'),
  VIES_TIMEOUT_MS: positiveInt.max(60_000).default(3000),
  PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe'], { error: 'must be sandbox or stripe' }).default('sandbox'),
  SANDBOX_WEBHOOK_URL: httpUrl.optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\S+$/, 'must be a Stripe secret key (sk_test_… or sk_live_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, "must be the endpoint's signing secret (whsec_…)")
    .optional(),
  STRIPE_API_URL: httpUrl.optional(),
  STARTING_CREDIT_CENTS: nonNegativeInt.max(100_000_000).default(500),
  // Licence server (the cloud product): its Ed25519 signing key (PKCS#8 DER base64 or PEM); by
  // default generated on first start and kept with the server secrets.
  LICENSING_PRIVATE_KEY: z.string().optional(),
  ON_PREMISE_OFFER_URL: httpUrl.default('https://verbatim.example.com/on-premise'),
  SALES_EMAIL: z.email('must be an e-mail address').default('sales@verbatim.example.com'),
  // The on-premise edition: set LICENSE_KEY (and LICENSE_PUBLIC_KEY to check it offline).
  LICENSE_KEY: z.string().optional(),
  LICENSE_PUBLIC_KEY: z.string().optional(),
  LICENSE_SERVER_URL: httpUrl.optional(),
  LICENSE_REPORT_INTERVAL: positiveInt.max(60).default(60),
  PRICE_HTTP_API_USD_PER_HOUR: usdAsMicros.default(100_000),
  PRICE_WS_STREAMING_USD_PER_HOUR: usdAsMicros.default(300_000),
  PRICE_WS_PRERECORDED_USD_PER_HOUR: usdAsMicros.default(150_000),
  API_KEYS_PER_ACCOUNT: positiveInt.max(10_000).default(50),
  API_KEY_FAILURES_PER_IP: positiveInt.default(20),
  API_KEY_FAILURE_WINDOW_SECONDS: positiveInt.default(300),
  SPEECH_MODELS_DIR: z.string().min(1).optional(),
  SPEECH_MODEL: modelName.default('base-q8_0'),
  // Unset: English uses SPEECH_MODEL. English-only tiny.en (beam 5) was less accurate than base
  // on the 51 English clips of the dev set (bench:speech: 8.10% against 5.82% WER).
  SPEECH_MODEL_EN: modelName.optional(),
  SPEECH_MODEL_BY_LANGUAGE: languageModelMap.default({}),
  SPEECH_MODELS_URL: httpUrl.default('https://huggingface.co/ggerganov/whisper.cpp/resolve/main'),
  SPEECH_MODEL_AUTO_DOWNLOAD: booleanFlag.default(true),
  SPEECH_WORKERS: positiveInt.max(64).optional(),
  SPEECH_THREADS: positiveInt.max(64).optional(),
  SPEECH_QUEUE_LIMIT: nonNegativeInt.max(10_000).default(8),
  SPEECH_MAX_UPLOAD_BYTES: positiveInt.default(524_288_000),
  SPEECH_MAX_DURATION_SECONDS: positiveInt.default(4 * 3600),
  LIVE_MAX_SESSIONS: positiveInt.max(10_000).default(16),
  LIVE_IDLE_TIMEOUT_SECONDS: positiveInt.max(3600).default(60),
  LIVE_METERING_SLICE_SECONDS: positiveInt.max(15).default(15),
  FILES_STORAGE_QUOTA_BYTES: positiveInt.default(10 * 1024 ** 3),
  FILES_PROCESSING_STALE_SECONDS: positiveInt.min(5).default(120),
  // Where files are kept: a folder under DATA_DIR, or a bucket of S3 or an S3-compatible store.
  FILES_STORAGE: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
  S3_ENDPOINT: httpUrl.optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/, 'must be a region such as eu-west-3')
    .default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3 to 63 of a-z, 0-9, dots, hyphens)')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: booleanFlag.optional(),
  S3_PREFIX: z
    .string()
    .regex(
      /^(?!.*\.\.)([A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}\/)*[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}\/?$/,
      'must be folder names such as verbatim/',
    )
    .transform((value) => (value.endsWith('/') ? value : `${value}/`))
    .optional(),
  WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: booleanFlag.default(false),
  OUTBOUND_HTTP_DISABLED: booleanFlag.default(false),
  WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
  WEBHOOK_RETRY_FIRST_DELAY_SECONDS: positiveInt.default(5),
  HUBSPOT_CLIENT_ID: z.string().min(1).optional(),
  HUBSPOT_CLIENT_SECRET: z.string().min(1).optional(),
  HUBSPOT_API_URL: httpUrl.default('https://api.hubapi.com'),
  HUBSPOT_APP_URL: httpUrl.default('https://app.hubspot.com'),
  PIPEDRIVE_CLIENT_ID: z.string().min(1).optional(),
  PIPEDRIVE_CLIENT_SECRET: z.string().min(1).optional(),
  PIPEDRIVE_API_URL: httpUrl.default('https://api.pipedrive.com'),
  PIPEDRIVE_OAUTH_URL: httpUrl.default('https://oauth.pipedrive.com'),
  INTEGRATIONS_ENCRYPTION_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/_-]{43}=?$/, 'must be 32 random bytes in base64 (openssl rand -base64 32)')
    .optional(),
});

export type Environment = z.input<typeof environmentSchema>;

export interface Config {
  /**
   * Files the product keeps: the local folder `directory` of the embedded default, or a bucket of
   * S3 or an S3-compatible store (FILES_STORAGE=s3).
   */
  storage: { kind: 'local'; directory: string } | { kind: 's3'; directory: string; s3: S3StorageSettings };
  profilePhotoMaxBytes: number;
  identity: {
    /** The token issuer: PUBLIC_URL/oidc. */
    issuer: string;
    /** The audience of access tokens for the API. */
    apiResource: string;
    accessTokenTtlSeconds: number;
    refreshTokenTtlSeconds: number;
    sessionTtlSeconds: number;
    /** Failed sign-ins per e-mail address (or 4× that per client address) before the captcha is required. */
    failuresBeforeCaptcha: number;
    failureWindowSeconds: number;
    /**
     * Sign-in requests (the console's token endpoint, the sign-in steps of the authorization-code
     * flow) one client address may make in a minute, whatever their outcome.
     */
    signInRequestsPerMinutePerIp: number;
    /** Applications other than the console (a CLI, a TV app…): users see a consent prompt for them. */
    thirdPartyClients: ({ client_id: string; client_name?: string | undefined } & Record<string, unknown>)[];
    /** Sign-in with another account provider; each is offered only when configured. */
    externalProviders: {
      google?: { clientId: string; clientSecret: string; issuer: string };
      github?: { clientId: string; clientSecret: string; webUrl: string; apiUrl: string };
    };
  };
  environment: 'development' | 'production' | 'test';
  version: string;
  http: {
    host: string;
    port: number;
    publicUrl: string;
    trustProxy: boolean;
    corsOrigins: string[];
    rateLimit: { max: number; windowMs: number };
    bodyLimitBytes: number;
    shutdownTimeoutMs: number;
  };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Who sells: printed on invoices; its country decides between domestic VAT and the reverse charge. */
  seller: {
    name: string;
    addressLines: string[];
    /** ISO 3166-1 alpha-2. */
    country: string;
    /** With its prefix (FR…); null when not registered for VAT. */
    vatNumber: string | null;
    /** Printed on invoices for questions about them; null: not printed. */
    email: string | null;
  };
  vat: {
    /** The EU's VIES service (REST API); null: VAT numbers are judged on format and check digits only. */
    vies: { url: string; timeoutMs: number } | null;
  };
  /** Who takes the money for prepaid credits. */
  payments: {
    provider:
      | {
          /** The built-in test-mode checkout: test cards only, never real money. */
          kind: 'sandbox';
          /** Where it delivers its webhooks; null: the product's own route under the public URL. */
          webhookUrl: string | null;
        }
      | {
          kind: 'stripe';
          secretKey: string;
          webhookSecret: string;
          /** null: api.stripe.com */ apiUrl: string | null;
        };
  };
  dataDir: string;
  database:
    | { kind: 'pglite'; /** null: in memory, gone at exit (tests). */ directory: string | null }
    | { kind: 'postgres'; url: string; poolSize: number };
  workers: { inProcess: boolean; concurrency: number };
  mail: { from: string; transport: { kind: 'smtp'; url: string } | { kind: 'outbox'; directory: string } };
  console: {
    directory: string;
    productName: string;
    links: {
      pricing: string;
      docs: string;
      contact: string;
      demo: string;
      privacyPolicy: string;
      generalTerms: string;
      social: { name: string; url: string }[];
    };
  };
  licensing: {
    /** The licence server's signing key; null: generated and kept with the server secrets. */
    privateKey: string | null;
    offerUrl: string;
    salesEmail: string;
    /** Present in the on-premise edition, which counts usage against this licence instead of credits. */
    installation: {
      key: string;
      publicKey: string;
      /** null: air-gapped, usage leaves by `verbatim licenses report`. */
      serverUrl: string | null;
      reportIntervalSeconds: number;
    } | null;
  };
  /** Self-service accounts: captcha, registration and password recovery. */
  accounts: {
    captcha:
      | {
          provider: 'altcha';
          /** Upper bound of the proof-of-work number: the client tries half of it on average. */
          maxNumber: number;
          challengeTtlSeconds: number;
        }
      | {
          provider: 'recaptcha';
          siteKey: string;
          secretKey: string;
          verifyUrl: string;
          /** The widget's script, loaded by the console (and allowed by the CSP). */
          scriptUrl: string;
        };
    registrationRequiresApproval: boolean;
    /** Sign-ups one client address may make in an hour. */
    registrationsPerHourPerIp: number;
    emailVerificationTtlHours: number;
    passwordRecoveryTtlMinutes: number;
    /** Free credit recorded in the ledger of every new account, in cents. */
    startingCreditCents: number;
  };
  /** What each metered product costs, per hour of audio, in millionths of a dollar (charged per second). */
  prices: { microsPerHour: Record<MeteredProduct, number> };
  speech: {
    /** Folder of whisper.cpp ggml model files. */
    modelsDir: string;
    /** Model used when no per-language choice applies. */
    defaultModel: string;
    /** Per-language choices (`en` from SPEECH_MODEL_EN, others from SPEECH_MODEL_BY_LANGUAGE). */
    modelByLanguage: Record<string, string>;
    /** Where `models download` fetches official ggml files from (`<url>/ggml-<name>.bin`). */
    downloadBaseUrl: string;
    /** Download the default model at start-up when the folder has no usable model. */
    autoDownload: boolean;
    /** Recogniser worker threads, and CPU threads each one gives whisper.cpp. */
    workers: number;
    threadsPerWorker: number;
    /** Transcriptions waiting for a worker before new ones are refused with SPEECH_BUSY. */
    queueLimit: number;
    maxUploadBytes: number;
    maxDurationSeconds: number;
    /** Live transcription sockets: how many at once, closed after this long without audio, charged per slice of audio. */
    live: { maxSessions: number; idleTimeoutSeconds: number; meteringSliceSeconds: number };
  };
  /** CRM integrations: where each provider's API lives, and its OAuth app when the operator made one. */
  integrations: {
    hubspot: { apiUrl: string; appUrl: string; oauth: { clientId: string; clientSecret: string } | null };
    pipedrive: { apiUrl: string; oauthUrl: string; oauth: { clientId: string; clientSecret: string } | null };
    /** AES-256 key sealing the stored tokens; null: generated on first start and kept with the server secrets. */
    encryptionKey: Buffer | null;
  };
  /** Submitted files: resumable uploads, transcription jobs and their webhooks. */
  files: {
    /** Bytes of recordings one account may keep (uploads in progress count at their declared size). */
    storageQuotaBytes: number;
    /** A file whose worker has not reported for this long is taken up by another (the first died). */
    processingStaleSeconds: number;
    webhooks: {
      /** Deliver to loopback, private, link-local and metadata addresses (local testing only). */
      allowPrivateAddresses: boolean;
      /**
       * No request to a customer-given address leaves the server: webhooks and recording URLs fail
       * at once (the API contract run sets it; off by default).
       */
      outboundDisabled: boolean;
      timeoutMs: number;
      /** Delay before the first retry; doubled each time, for 24 hours. */
      firstRetryDelaySeconds: number;
    };
  };
  apiKeys: {
    /** Keys an account may hold at once (revoked ones do not count). */
    maxPerAccount: number;
    /** Failed API key attempts from one client address, within the window, before it must wait. */
    failuresPerIp: number;
    failureWindowSeconds: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and checks the environment once; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, version = '0.0.0'): Config {
  // An empty variable means "not set": shells and .env files produce them all the time.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  const problems = [
    ...(parsed.error?.issues ?? []).map(
      (issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`,
    ),
    ...recaptchaProblems(present),
    ...sellerVatNumberProblems(parsed.data),
    ...stripeProblems(present),
    ...s3Problems(present),
    ...pairedProblems(present, 'OAUTH_GOOGLE_CLIENT_ID', 'OAUTH_GOOGLE_CLIENT_SECRET'),
    ...licenceProblems(present),
    ...pairedProblems(present, 'OAUTH_GITHUB_CLIENT_ID', 'OAUTH_GITHUB_CLIENT_SECRET'),
    ...pairedProblems(present, 'HUBSPOT_CLIENT_ID', 'HUBSPOT_CLIENT_SECRET'),
    ...pairedProblems(present, 'PIPEDRIVE_CLIENT_ID', 'PIPEDRIVE_CLIENT_SECRET'),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    environment: e.NODE_ENV,
    storage: fileStorageConfig(e, path.join(dataDir, 'files')),
    profilePhotoMaxBytes: e.PROFILE_PHOTO_MAX_BYTES,
    identity: {
      issuer: `${publicUrl}/oidc`,
      apiResource: `${publicUrl}/api`,
      accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL_DAYS * 86_400,
      sessionTtlSeconds: e.SESSION_TTL_DAYS * 86_400,
      failuresBeforeCaptcha: e.SIGNIN_FAILURES_BEFORE_CAPTCHA,
      failureWindowSeconds: e.SIGNIN_FAILURE_WINDOW_MINUTES * 60,
      signInRequestsPerMinutePerIp: e.SIGNIN_REQUESTS_PER_MINUTE_PER_IP,
      thirdPartyClients: e.OIDC_CLIENTS,
      externalProviders: {
        ...(e.OAUTH_GOOGLE_CLIENT_ID && e.OAUTH_GOOGLE_CLIENT_SECRET
          ? {
              google: {
                clientId: e.OAUTH_GOOGLE_CLIENT_ID,
                clientSecret: e.OAUTH_GOOGLE_CLIENT_SECRET,
                issuer: e.OAUTH_GOOGLE_ISSUER.replace(/\/+$/, ''),
              },
            }
          : {}),
        ...(e.OAUTH_GITHUB_CLIENT_ID && e.OAUTH_GITHUB_CLIENT_SECRET
          ? {
              github: {
                clientId: e.OAUTH_GITHUB_CLIENT_ID,
                clientSecret: e.OAUTH_GITHUB_CLIENT_SECRET,
                webUrl: e.OAUTH_GITHUB_URL.replace(/\/+$/, ''),
                apiUrl: e.OAUTH_GITHUB_API_URL.replace(/\/+$/, ''),
              },
            }
          : {}),
      },
    },
    version,
    http: {
      host: e.HOST,
      port: e.PORT,
      publicUrl,
      trustProxy: e.TRUST_PROXY,
      corsOrigins: e.CORS_ORIGINS,
      rateLimit: { max: e.RATE_LIMIT_MAX, windowMs: e.RATE_LIMIT_WINDOW_MS },
      bodyLimitBytes: e.BODY_LIMIT_BYTES,
      shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    },
    logLevel: e.LOG_LEVEL,
    seller: {
      name: e.SELLER_NAME ?? e.PRODUCT_NAME,
      addressLines: e.SELLER_ADDRESS,
      country: e.SELLER_COUNTRY,
      vatNumber: e.SELLER_VAT_NUMBER ?? null,
      email: e.SELLER_EMAIL ?? null,
    },
    vat: { vies: e.VIES_ENABLED ? { url: e.VIES_URL, timeoutMs: e.VIES_TIMEOUT_MS } : null },
    payments: {
      provider:
        e.PAYMENT_PROVIDER === 'stripe'
          ? {
              kind: 'stripe',
              secretKey: e.STRIPE_SECRET_KEY ?? '',
              webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? '',
              apiUrl: e.STRIPE_API_URL?.replace(/\/+$/, '') ?? null,
            }
          : { kind: 'sandbox', webhookUrl: e.SANDBOX_WEBHOOK_URL ?? null },
    },
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE }
      : { kind: 'pglite', directory: path.join(dataDir, 'pglite') },
    workers: { inProcess: e.WORKERS_IN_PROCESS, concurrency: e.WORKER_CONCURRENCY },
    mail: {
      from: e.MAIL_FROM,
      transport: e.SMTP_URL
        ? { kind: 'smtp', url: e.SMTP_URL }
        : { kind: 'outbox', directory: path.join(dataDir, 'outbox') },
    },
    console: {
      directory: path.resolve(e.CONSOLE_DIR),
      productName: e.PRODUCT_NAME,
      links: {
        pricing: e.LINK_PRICING_URL,
        docs: e.LINK_DOCS_URL,
        contact: e.LINK_CONTACT_URL,
        demo: e.LINK_DEMO_URL,
        privacyPolicy: e.LINK_PRIVACY_URL,
        generalTerms: e.LINK_TERMS_URL,
        social: e.LINK_SOCIAL,
      },
    },
    accounts: {
      captcha:
        e.CAPTCHA_PROVIDER === 'recaptcha'
          ? {
              provider: 'recaptcha',
              siteKey: e.RECAPTCHA_SITE_KEY ?? '',
              secretKey: e.RECAPTCHA_SECRET_KEY ?? '',
              verifyUrl: e.RECAPTCHA_VERIFY_URL,
              scriptUrl: e.RECAPTCHA_SCRIPT_URL,
            }
          : { provider: 'altcha', maxNumber: 100_000, challengeTtlSeconds: 600 },
      registrationRequiresApproval: e.REGISTRATION_REQUIRES_APPROVAL,
      registrationsPerHourPerIp: e.REGISTRATIONS_PER_HOUR_PER_IP,
      emailVerificationTtlHours: e.EMAIL_VERIFICATION_TTL_HOURS,
      passwordRecoveryTtlMinutes: e.PASSWORD_RECOVERY_TTL_MINUTES,
      startingCreditCents: e.STARTING_CREDIT_CENTS,
    },
    licensing: {
      privateKey: e.LICENSING_PRIVATE_KEY ?? null,
      offerUrl: e.ON_PREMISE_OFFER_URL,
      salesEmail: e.SALES_EMAIL,
      installation: e.LICENSE_KEY
        ? {
            key: e.LICENSE_KEY.trim(),
            publicKey: e.LICENSE_PUBLIC_KEY ?? '',
            serverUrl: e.LICENSE_SERVER_URL?.replace(/\/+$/, '') ?? null,
            reportIntervalSeconds: e.LICENSE_REPORT_INTERVAL,
          }
        : null,
    },
    prices: {
      microsPerHour: {
        http_api: e.PRICE_HTTP_API_USD_PER_HOUR,
        ws_streaming: e.PRICE_WS_STREAMING_USD_PER_HOUR,
        ws_prerecorded: e.PRICE_WS_PRERECORDED_USD_PER_HOUR,
      },
    },
    speech: {
      modelsDir: path.resolve(e.SPEECH_MODELS_DIR ?? path.join(dataDir, 'models')),
      defaultModel: e.SPEECH_MODEL,
      modelByLanguage: {
        ...e.SPEECH_MODEL_BY_LANGUAGE,
        ...(e.SPEECH_MODEL_EN ? { en: e.SPEECH_MODEL_EN } : {}),
      },
      downloadBaseUrl: e.SPEECH_MODELS_URL.replace(/\/+$/, ''),
      autoDownload: e.SPEECH_MODEL_AUTO_DOWNLOAD,
      ...speechPoolSize(
        e.SPEECH_WORKERS,
        e.SPEECH_THREADS,
        largestModelBytes([
          e.SPEECH_MODEL,
          ...Object.values(e.SPEECH_MODEL_BY_LANGUAGE),
          e.SPEECH_MODEL_EN ?? '',
        ]),
      ),
      queueLimit: e.SPEECH_QUEUE_LIMIT,
      maxUploadBytes: e.SPEECH_MAX_UPLOAD_BYTES,
      maxDurationSeconds: e.SPEECH_MAX_DURATION_SECONDS,
      live: {
        maxSessions: e.LIVE_MAX_SESSIONS,
        idleTimeoutSeconds: e.LIVE_IDLE_TIMEOUT_SECONDS,
        meteringSliceSeconds: e.LIVE_METERING_SLICE_SECONDS,
      },
    },
    integrations: {
      hubspot: {
        apiUrl: e.HUBSPOT_API_URL.replace(/\/+$/, ''),
        appUrl: e.HUBSPOT_APP_URL.replace(/\/+$/, ''),
        oauth:
          e.HUBSPOT_CLIENT_ID && e.HUBSPOT_CLIENT_SECRET
            ? { clientId: e.HUBSPOT_CLIENT_ID, clientSecret: e.HUBSPOT_CLIENT_SECRET }
            : null,
      },
      pipedrive: {
        apiUrl: e.PIPEDRIVE_API_URL.replace(/\/+$/, ''),
        oauthUrl: e.PIPEDRIVE_OAUTH_URL.replace(/\/+$/, ''),
        oauth:
          e.PIPEDRIVE_CLIENT_ID && e.PIPEDRIVE_CLIENT_SECRET
            ? { clientId: e.PIPEDRIVE_CLIENT_ID, clientSecret: e.PIPEDRIVE_CLIENT_SECRET }
            : null,
      },
      encryptionKey: e.INTEGRATIONS_ENCRYPTION_KEY
        ? Buffer.from(e.INTEGRATIONS_ENCRYPTION_KEY, 'base64')
        : null,
    },
    files: {
      storageQuotaBytes: e.FILES_STORAGE_QUOTA_BYTES,
      processingStaleSeconds: e.FILES_PROCESSING_STALE_SECONDS,
      webhooks: {
        allowPrivateAddresses: e.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES,
        outboundDisabled: e.OUTBOUND_HTTP_DISABLED,
        timeoutMs: e.WEBHOOK_TIMEOUT_MS,
        firstRetryDelaySeconds: e.WEBHOOK_RETRY_FIRST_DELAY_SECONDS,
      },
    },
    apiKeys: {
      maxPerAccount: e.API_KEYS_PER_ACCOUNT,
      failuresPerIp: e.API_KEY_FAILURES_PER_IP,
      failureWindowSeconds: e.API_KEY_FAILURE_WINDOW_SECONDS,
    },
  };
}

/** Recognisers of the default pool at most: each holds its model and buffers in memory. */
const maxDefaultSpeechWorkers = 8;

/**
 * What one recogniser holds: its model's weights, whisper.cpp's caches and buffers (about as much
 * again, with beam 5) and a little more. Measured with base (82 MB): 230 MB more peak RSS for a
 * second recogniser.
 */
export function recogniserBytes(modelBytes: number): number {
  return 2 * modelBytes + 64 * 1024 * 1024;
}

/** The machine the pool is sized for. */
export interface SpeechMachine {
  cores: number;
  memoryBytes: number;
}

/**
 * Fills the machine's cores without oversubscribing them, one whisper.cpp thread per recogniser:
 * with its threads waiting passively (OMP_WAIT_POLICY, so that a busy machine never makes them
 * spin), a decode on two threads is no faster than on one (bench:speech, 2 cores: base on the
 * English dev set 122.6 s with 1 recogniser × 2 threads, 108.7 s with 1 × 1, 58.9 s with 2 × 1),
 * while two recognisers decode two files, streams or requests at once. The recognisers take at
 * most half the machine's memory with the largest model configured (`modelBytes`), and there are
 * at most `maxDefaultSpeechWorkers`: past that, they get more threads instead.
 */
export function speechPoolSize(
  workers: number | undefined,
  threads: number | undefined,
  modelBytes = 0,
  machine: SpeechMachine = { cores: Math.max(1, os.availableParallelism()), memoryBytes: os.totalmem() },
): { workers: number; threadsPerWorker: number } {
  const { cores } = machine;
  const fitInMemory = Math.floor(machine.memoryBytes / 2 / recogniserBytes(modelBytes));
  const defaultWorkers = Math.max(1, Math.min(cores, maxDefaultSpeechWorkers, fitInMemory));
  const threadsPerWorker = threads ?? Math.max(1, Math.floor(cores / (workers ?? defaultWorkers)));
  return {
    workers: workers ?? Math.max(1, Math.min(defaultWorkers, Math.floor(cores / threadsPerWorker))),
    threadsPerWorker,
  };
}

/** The largest of the configured models the catalogue knows (0 when it knows none of them). */
function largestModelBytes(names: readonly string[]): number {
  return Math.max(0, ...names.map((name) => findCatalogueModel(name)?.approximateBytes ?? 0));
}

/** Variables that only make sense together: one without the other is a mistake worth stopping for. */
function pairedProblems(env: Record<string, string | undefined>, first: string, second: string): string[] {
  if (Boolean(env[first]) === Boolean(env[second])) return [];
  const missing = env[first] ? second : first;
  return [`${missing}: required together with ${env[first] ? first : second}`];
}

/** The on-premise edition checks its key offline: it needs the licence server's public key. */
function licenceProblems(env: Record<string, string | undefined>): string[] {
  return env.LICENSE_KEY && !env.LICENSE_PUBLIC_KEY
    ? [
        'LICENSE_PUBLIC_KEY: required with LICENSE_KEY (GET /api/v1/licensing/public-key of the licence server)',
      ]
    : [];
}

/** FILES_STORAGE=s3 needs a bucket; a key id without its secret (or the reverse) is a mistake. */
function s3Problems(env: Record<string, string | undefined>): string[] {
  if (env.FILES_STORAGE !== 's3') return [];
  return [
    ...(env.S3_BUCKET ? [] : ['S3_BUCKET: required when FILES_STORAGE is s3']),
    ...pairedProblems(env, 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'),
  ];
}

function fileStorageConfig(e: z.output<typeof environmentSchema>, directory: string): Config['storage'] {
  if (e.FILES_STORAGE === 'local' || !e.S3_BUCKET) return { kind: 'local', directory };
  return {
    kind: 's3',
    directory,
    s3: {
      bucket: e.S3_BUCKET,
      region: e.S3_REGION,
      endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
      // S3-compatible stores (MinIO…) mostly address buckets by path; AWS by host name.
      forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
      prefix: e.S3_PREFIX ?? '',
      credentials:
        e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
          : undefined,
    },
  };
}

/** Stripe needs its secret key and the webhook endpoint's signing secret. */
function stripeProblems(env: Record<string, string | undefined>): string[] {
  if (env.PAYMENT_PROVIDER !== 'stripe') return [];
  return ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']
    .filter((name) => !env[name])
    .map((name) => `${name}: required when PAYMENT_PROVIDER is stripe`);
}

/** The seller's own VAT number, printed on every invoice, must be one of its member state. */
function sellerVatNumberProblems(
  env: { SELLER_COUNTRY: string; SELLER_VAT_NUMBER?: string | undefined } | undefined,
): string[] {
  const memberState = env && memberStateOf(env.SELLER_COUNTRY);
  if (!env?.SELLER_VAT_NUMBER || !memberState) return [];
  const prefix = vatPrefixOf(memberState);
  if (!env.SELLER_VAT_NUMBER.startsWith(prefix)) {
    return [
      `SELLER_VAT_NUMBER: must start with ${prefix}, the VAT prefix of SELLER_COUNTRY ${env.SELLER_COUNTRY}`,
    ];
  }
  return checkVatNumber(env.SELLER_VAT_NUMBER, memberState).valid
    ? []
    : [`SELLER_VAT_NUMBER: not a valid ${prefix} VAT number (wrong length or check digits)`];
}

/** reCAPTCHA needs both of its keys; checked on the raw variables so every problem is listed at once. */
function recaptchaProblems(env: Record<string, string | undefined>): string[] {
  if (env.CAPTCHA_PROVIDER !== 'recaptcha') return [];
  return ['RECAPTCHA_SITE_KEY', 'RECAPTCHA_SECRET_KEY']
    .filter((name) => !env[name])
    .map((name) => `${name}: required when CAPTCHA_PROVIDER is recaptcha`);
}
