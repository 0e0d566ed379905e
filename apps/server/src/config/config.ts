import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

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

const port = z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535);
const positiveInt = z.coerce.number({ error: 'must be a number' }).int().positive();

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
});

export type Environment = z.input<typeof environmentSchema>;

export interface Config {
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
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    environment: e.NODE_ENV,
    version,
    http: {
      host: e.HOST,
      port: e.PORT,
      publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
      trustProxy: e.TRUST_PROXY,
      corsOrigins: e.CORS_ORIGINS,
      rateLimit: { max: e.RATE_LIMIT_MAX, windowMs: e.RATE_LIMIT_WINDOW_MS },
      bodyLimitBytes: e.BODY_LIMIT_BYTES,
      shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    },
    logLevel: e.LOG_LEVEL,
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
  };
}
