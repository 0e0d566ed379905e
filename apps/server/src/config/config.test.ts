import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, recogniserBytes, speechPoolSize } from './config.js';

describe('loadConfig', () => {
  it('serves on port 8080 with PGlite and an outbox folder under ./data by default', () => {
    const config = loadConfig({}, '1.2.3');
    expect(config.http.port).toBe(8080);
    expect(config.http.publicUrl).toBe('http://localhost:8080');
    expect(config.database).toEqual({ kind: 'pglite', directory: path.resolve('data/pglite') });
    expect(config.mail.transport).toEqual({ kind: 'outbox', directory: path.resolve('data/outbox') });
    expect(config.workers.inProcess).toBe(true);
    expect(config.http.corsOrigins).toEqual([]);
    expect(config.version).toBe('1.2.3');
  });

  it('switches to PostgreSQL and SMTP when their URLs are given', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://verbatim@db:5432/verbatim',
      SMTP_URL: 'smtp://mail:2525',
      PORT: '9000',
      PUBLIC_URL: 'https://stt.example.com/',
      WORKERS_IN_PROCESS: 'false',
      CORS_ORIGINS: 'https://a.example.com, https://b.example.com',
      LINK_SOCIAL: 'GitHub=https://github.com/verbatim, X=https://x.com/verbatim',
    });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://verbatim@db:5432/verbatim',
      poolSize: 10,
    });
    expect(config.mail.transport).toEqual({ kind: 'smtp', url: 'smtp://mail:2525' });
    expect(config.http.port).toBe(9000);
    expect(config.http.publicUrl).toBe('https://stt.example.com');
    expect(config.workers.inProcess).toBe(false);
    expect(config.http.corsOrigins).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(config.console.links.social).toEqual([
      { name: 'GitHub', url: 'https://github.com/verbatim' },
      { name: 'X', url: 'https://x.com/verbatim' },
    ]);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).database.kind).toBe('pglite');
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        WORKERS_IN_PROCESS: 'maybe',
        LINK_DOCS_URL: 'ftp://docs',
        LINK_SOCIAL: 'nonsense',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'LOG_LEVEL',
      'WORKERS_IN_PROCESS',
      'LINK_DOCS_URL',
      'LINK_SOCIAL',
    ]) {
      expect(problems).toContain(name);
    }
    expect((error as ConfigError).message).toMatch(/^Invalid configuration:\n {2}- /);
  });
});

describe('loadConfig: self-service accounts', () => {
  it('uses ALTCHA, no approval, 48-hour verification and 60-minute recovery links by default', () => {
    const { accounts } = loadConfig({});
    expect(accounts).toEqual({
      captcha: { provider: 'altcha', maxNumber: 100_000, challengeTtlSeconds: 600 },
      registrationRequiresApproval: false,
      registrationsPerHourPerIp: 10,
      emailVerificationTtlHours: 48,
      passwordRecoveryTtlMinutes: 60,
      startingCreditCents: 500,
    });
  });

  it('reads reCAPTCHA, approval and the link lifetimes', () => {
    const { accounts } = loadConfig({
      CAPTCHA_PROVIDER: 'recaptcha',
      RECAPTCHA_SITE_KEY: 'site',
      RECAPTCHA_SECRET_KEY: 'secret',
      REGISTRATION_REQUIRES_APPROVAL: 'true',
      REGISTRATIONS_PER_HOUR_PER_IP: '50',
      EMAIL_VERIFICATION_TTL_HOURS: '24',
      PASSWORD_RECOVERY_TTL_MINUTES: '15',
    });
    expect(accounts).toEqual({
      captcha: {
        provider: 'recaptcha',
        siteKey: 'site',
        secretKey: 'secret',
        verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
        scriptUrl: 'https://www.google.com/recaptcha/api.js',
      },
      registrationRequiresApproval: true,
      registrationsPerHourPerIp: 50,
      emailVerificationTtlHours: 24,
      passwordRecoveryTtlMinutes: 15,
      startingCreditCents: 500,
    });
    const custom = loadConfig({
      CAPTCHA_PROVIDER: 'recaptcha',
      RECAPTCHA_SITE_KEY: 'site',
      RECAPTCHA_SECRET_KEY: 'secret',
      RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9999/verify',
    });
    expect(custom.accounts.captcha).toMatchObject({ verifyUrl: 'http://127.0.0.1:9999/verify' });
  });

  it('refuses reCAPTCHA without its keys, with the other problems', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    expect(problemsOf({ CAPTCHA_PROVIDER: 'recaptcha', RECAPTCHA_SECRET_KEY: '' })).toEqual([
      'RECAPTCHA_SITE_KEY: required when CAPTCHA_PROVIDER is recaptcha',
      'RECAPTCHA_SECRET_KEY: required when CAPTCHA_PROVIDER is recaptcha',
    ]);
    expect(problemsOf({ CAPTCHA_PROVIDER: 'recaptcha', RECAPTCHA_SITE_KEY: 'site', PORT: 'x' })).toEqual([
      expect.stringMatching(/^PORT: /),
      'RECAPTCHA_SECRET_KEY: required when CAPTCHA_PROVIDER is recaptcha',
    ]);
    // Keys without reCAPTCHA chosen are harmless.
    expect(problemsOf({ RECAPTCHA_SITE_KEY: 'site' })).toEqual([]);
  });

  it('names bad values of the account variables', () => {
    const problems = (() => {
      try {
        loadConfig({
          CAPTCHA_PROVIDER: 'hcaptcha',
          RECAPTCHA_VERIFY_URL: 'ftp://google',
          REGISTRATION_REQUIRES_APPROVAL: 'sometimes',
          EMAIL_VERIFICATION_TTL_HOURS: '0',
          PASSWORD_RECOVERY_TTL_MINUTES: 'soon',
        });
      } catch (error) {
        return (error as ConfigError).problems.join('\n');
      }
      return '';
    })();
    expect(problems).toContain('CAPTCHA_PROVIDER: must be altcha or recaptcha');
    for (const name of [
      'RECAPTCHA_VERIFY_URL',
      'REGISTRATION_REQUIRES_APPROVAL',
      'EMAIL_VERIFICATION_TTL_HOURS',
      'PASSWORD_RECOVERY_TTL_MINUTES',
    ]) {
      expect(problems).toContain(name);
    }
  });
});

describe('loadConfig: CRM integrations', () => {
  it('reaches the public HubSpot and Pipedrive APIs, offers no OAuth and generates the token key by default', () => {
    const { integrations } = loadConfig({});
    expect(integrations).toEqual({
      hubspot: { apiUrl: 'https://api.hubapi.com', appUrl: 'https://app.hubspot.com', oauth: null },
      pipedrive: {
        apiUrl: 'https://api.pipedrive.com',
        oauthUrl: 'https://oauth.pipedrive.com',
        oauth: null,
      },
      encryptionKey: null,
    });
  });

  it('reads the OAuth apps, the base URLs and the token key', () => {
    const key = Buffer.alloc(32, 7);
    const { integrations } = loadConfig({
      HUBSPOT_CLIENT_ID: 'hs-id',
      HUBSPOT_CLIENT_SECRET: 'hs-secret',
      HUBSPOT_API_URL: 'http://127.0.0.1:5001/',
      HUBSPOT_APP_URL: 'http://127.0.0.1:5001/app',
      PIPEDRIVE_CLIENT_ID: 'pd-id',
      PIPEDRIVE_CLIENT_SECRET: 'pd-secret',
      PIPEDRIVE_API_URL: 'http://127.0.0.1:5002',
      PIPEDRIVE_OAUTH_URL: 'http://127.0.0.1:5002/oauth/',
      INTEGRATIONS_ENCRYPTION_KEY: key.toString('base64'),
    });
    expect(integrations.hubspot).toEqual({
      apiUrl: 'http://127.0.0.1:5001',
      appUrl: 'http://127.0.0.1:5001/app',
      oauth: { clientId: 'hs-id', clientSecret: 'hs-secret' },
    });
    expect(integrations.pipedrive).toEqual({
      apiUrl: 'http://127.0.0.1:5002',
      oauthUrl: 'http://127.0.0.1:5002/oauth',
      oauth: { clientId: 'pd-id', clientSecret: 'pd-secret' },
    });
    expect(integrations.encryptionKey?.equals(key)).toBe(true);
  });

  it('refuses a client id without its secret, bad URLs and a key that is not 32 bytes', () => {
    let problems: string[] = [];
    try {
      loadConfig({
        HUBSPOT_CLIENT_ID: 'hs-id',
        PIPEDRIVE_CLIENT_SECRET: 'pd-secret',
        HUBSPOT_API_URL: 'ftp://api',
        PIPEDRIVE_OAUTH_URL: 'oauth',
        INTEGRATIONS_ENCRYPTION_KEY: 'c2hvcnQ=',
      });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual(
      expect.arrayContaining([
        'HUBSPOT_CLIENT_SECRET: required together with HUBSPOT_CLIENT_ID',
        'PIPEDRIVE_CLIENT_ID: required together with PIPEDRIVE_CLIENT_SECRET',
        expect.stringMatching(/^HUBSPOT_API_URL: /),
        expect.stringMatching(/^PIPEDRIVE_OAUTH_URL: /),
        expect.stringMatching(/^INTEGRATIONS_ENCRYPTION_KEY: must be 32 random bytes/),
      ]),
    );
  });
});

describe('speechPoolSize', () => {
  const gib = 1024 ** 3;
  const base = 81_768_585;
  /** [SPEECH_WORKERS, SPEECH_THREADS, model bytes, cores, memory GiB] → [workers, threads per worker]. */
  const cases: [string, number | undefined, number | undefined, number, number, number, [number, number]][] =
    [
      ['a recogniser of one thread per core', undefined, undefined, base, 2, 64, [2, 1]],
      ['one core', undefined, undefined, base, 1, 64, [1, 1]],
      ['8 cores', undefined, undefined, base, 8, 64, [8, 1]],
      ['at most 8 recognisers, then wider ones', undefined, undefined, base, 32, 64, [8, 4]],
      // large-v3 (3.1 GB of f16 weights) on 8 cores and 16 GiB: one recogniser with every core.
      ['half the memory with a large model', undefined, undefined, 3.1e9, 8, 16, [1, 8]],
      ['half the memory with a medium model', undefined, undefined, 1.1e9, 8, 16, [3, 2]],
      ['never none', undefined, undefined, 3.1e9, 2, 2, [1, 2]],
      ['the cores around the workers set', 1, undefined, base, 2, 64, [1, 2]],
      ['the cores around the threads set', undefined, 2, base, 8, 64, [4, 2]],
      ['both as set', 3, 3, base, 2, 64, [3, 3]],
    ];
  it.each(cases)('%s', (_case, workers, threads, modelBytes, cores, memoryGib, [pool, width]) => {
    expect(speechPoolSize(workers, threads, modelBytes, { cores, memoryBytes: memoryGib * gib })).toEqual({
      workers: pool,
      threadsPerWorker: width,
    });
  });

  it('counts a recogniser as more than its weights, and sizes the server pool for the models configured', () => {
    expect(recogniserBytes(base)).toBeGreaterThan(2 * base);
    const pool = loadConfig({ SPEECH_MODEL: 'base-q8_0' }, '1.2.3').speech;
    expect(pool.workers).toBeGreaterThanOrEqual(1);
    expect(pool.workers).toBeLessThanOrEqual(8);
  });
});
