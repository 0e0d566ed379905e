import { readFile } from 'node:fs/promises';
import type { ApiError, ConsoleConfig, InstallationLicence, Readiness } from '@verbatim/contracts';
import { sharedModelsDir, testdataFile } from '@verbatim/speech/test-support';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testLicenceSigner } from '../../test-support/licence-keys.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

const dayMs = 86_400_000;

/** The routes of billing, VAT, credit usage and payments, which the on-premise edition does not serve. */
const billingRoutes = [
  { method: 'GET', url: '/api/v1/limiter/usages' },
  { method: 'GET', url: '/api/v1/limiter/countries' },
  { method: 'GET', url: '/api/v1/limiter/vat-rate/FR' },
  { method: 'POST', url: '/api/v1/limiter/payment-sessions' },
  { method: 'GET', url: '/api/v1/limiter/payments' },
  { method: 'GET', url: '/api/v1/limiter/payments/pay_1/invoice' },
  { method: 'POST', url: '/api/v1/limiter/payments/webhook/sandbox' },
] as const;
const billingPaths = [
  '/api/v1/limiter/usages',
  '/api/v1/limiter/countries',
  '/api/v1/limiter/vat-rate/{country}',
  '/api/v1/limiter/payment-sessions',
  '/api/v1/limiter/payments',
  '/api/v1/limiter/payments/{paymentId}/invoice',
  '/api/v1/limiter/payments/webhook/sandbox',
];

describe(
  'the on-premise edition: no billing, and a licence problem said everywhere',
  { timeout: 180_000 },
  () => {
    const signer = testLicenceSigner();
    let cloud: TestRuntime;
    let site: TestRuntime;
    let expired: TestRuntime;

    const installationEnv = (key: string) => ({
      LICENSE_KEY: key,
      LICENSE_PUBLIC_KEY: signer.publicKey,
      SPEECH_MODELS_DIR: sharedModelsDir,
      SPEECH_MODEL: 'tiny.en-q8_0',
      SPEECH_WORKERS: '1',
      SPEECH_THREADS: '1',
    });

    async function headersOf(runtime: TestRuntime) {
      const account = await createAccount(runtime);
      return bearer(await signIn(runtime, account.email));
    }

    async function openApiPaths(runtime: TestRuntime): Promise<string[]> {
      const response = await runtime.app.inject({ method: 'GET', url: '/api/openapi.json' });
      expect(response.statusCode).toBe(200);
      return Object.keys(response.json<OpenAPIV3_1.Document>().paths ?? {});
    }

    beforeAll(async () => {
      // Air-gapped (no LICENSE_SERVER_URL): nothing here reaches a licence server.
      [cloud, site, expired] = await Promise.all([
        startTestRuntime(),
        startTestRuntime({
          env: installationEnv(signer.key({ expiresAt: new Date(Date.now() + 90 * dayMs), maxUses: 36_000 })),
        }),
        startTestRuntime({
          env: installationEnv(signer.key({ expiresAt: new Date(Date.now() - dayMs), maxUses: 36_000 })),
        }),
      ]);
    }, 150_000);

    afterAll(async () => {
      await Promise.all([cloud, site, expired].filter(Boolean).map((runtime) => runtime.close()));
    });

    it('serves no billing, VAT, credit or payment route, and its OpenAPI document lists none', async () => {
      const headers = await headersOf(site);
      for (const route of billingRoutes) {
        const response = await site.app.inject({
          ...route,
          headers,
          payload: route.method === 'POST' ? {} : undefined,
        });
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(404);
        expect(response.json<ApiError>().code).toBe('ROUTE_NOT_FOUND');
      }
      const sitePaths = await openApiPaths(site);
      for (const path of billingPaths) expect(sitePaths).not.toContain(path);
      // Transcription and the licence are served and listed.
      expect(sitePaths).toContain('/api/v1/transcripts');
      expect(sitePaths).toContain('/api/v1/licensing/installation');

      // The cloud product serves and lists them all (the list above names real routes).
      const cloudPaths = await openApiPaths(cloud);
      for (const path of billingPaths) expect(cloudPaths).toContain(path);
      const usages = await cloud.app.inject({
        method: 'GET',
        url: '/api/v1/limiter/usages',
        headers: await headersOf(cloud),
      });
      expect(usages.statusCode).toBe(200);
    });

    it('says a valid licence is fine: /ready and console-config carry no problem', async () => {
      const ready = await site.app.inject({ method: 'GET', url: '/api/v1/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json<Readiness>().checks.licence).toEqual({ ok: true, code: null });
      const config = (
        await site.app.inject({ method: 'GET', url: '/api/v1/console-config' })
      ).json<ConsoleConfig>();
      expect(config).toMatchObject({ edition: 'on_premise', licenceProblem: null });
      const cloudConfig = (
        await cloud.app.inject({ method: 'GET', url: '/api/v1/console-config' })
      ).json<ConsoleConfig>();
      expect(cloudConfig).toMatchObject({ edition: 'cloud', licenceProblem: null });
      const cloudReady = (await cloud.app.inject({ method: 'GET', url: '/api/v1/ready' })).json<Readiness>();
      expect(cloudReady.checks.licence).toBeUndefined();
    });

    it('starts with an expired key, says so on /ready and in console-config, and refuses transcription', async () => {
      const ready = await expired.app.inject({ method: 'GET', url: '/api/v1/ready' });
      // The server serves accounts and the console: ready, with the licence check failing.
      expect(ready.statusCode).toBe(200);
      const licence = ready.json<Readiness>().checks.licence;
      expect(licence).toMatchObject({ ok: false, code: 'LICENSE_EXPIRED' });
      expect(licence?.detail).toContain('expired on');

      const config = (
        await expired.app.inject({ method: 'GET', url: '/api/v1/console-config' })
      ).json<ConsoleConfig>();
      expect(config.edition).toBe('on_premise');
      expect(config.licenceProblem?.code).toBe('LICENSE_EXPIRED');
      expect(config.licenceProblem?.message).toContain('ask your provider to extend it');

      const headers = await headersOf(expired);
      const view = await expired.app.inject({
        method: 'GET',
        url: '/api/v1/licensing/installation',
        headers,
      });
      expect(view.json<InstallationLicence>()).toMatchObject({
        status: 'expired',
        problem: 'LICENSE_EXPIRED',
      });

      const refused = await expired.app.inject({
        method: 'POST',
        url: '/api/v1/transcripts?language=en',
        headers: { ...headers, 'content-type': 'application/octet-stream' },
        payload: await readFile(testdataFile('en/librivox-sense-sensibility-0880.wav')),
      });
      expect(refused.statusCode, refused.body).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode).toBeLessThan(500);
      expect(refused.json<ApiError>().code).toBe('LICENSE_EXPIRED');
    });
  },
);
