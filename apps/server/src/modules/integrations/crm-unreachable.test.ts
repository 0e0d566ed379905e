import { apiErrorSchema } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipedriveStandIn } from '../../test-support/crm/pipedrive-stand-in.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

/**
 * Connecting a CRM that cannot be reached (nothing listens at its address) or that fails (5xx):
 * 502 CRM_UNREACHABLE with Retry-After and a message naming the CRM, as the OpenAPI document says;
 * never a 500, never CRM_TOKEN_INVALID (the token may be fine).
 */
describe('connecting a CRM that cannot be reached', () => {
  let runtime: TestRuntime;
  let headers: Record<string, string>;
  const failing = new PipedriveStandIn();

  beforeAll(async () => {
    // HubSpot's address is port 2, where nothing listens: the connection is refused. (A stand-in
    // started and closed would free a port the system hands to the next test file's server.)
    const failingUrl = await failing.start();
    runtime = await startTestRuntime({
      env: {
        HUBSPOT_API_URL: 'http://127.0.0.1:2',
        PIPEDRIVE_API_URL: failingUrl,
        PIPEDRIVE_OAUTH_URL: failingUrl,
      },
    });
    const account = await createAccount(runtime);
    headers = bearer(await signIn(runtime, account.email));
  }, 120_000);

  afterAll(async () => {
    await runtime.close();
    await failing.close();
  });

  function connect(provider: 'hubspot' | 'pipedrive', token: string) {
    return runtime.app.inject({
      method: 'POST',
      url: '/api/v1/integrations',
      headers,
      payload: { provider, token },
    });
  }

  it('answers 502 CRM_UNREACHABLE with Retry-After when nothing answers at the CRM address', async () => {
    const response = await connect('hubspot', 'pat-na1-00000000-0000-0000-0000-000000000000');
    expect(response.statusCode, response.body).toBe(502);
    const error = apiErrorSchema.parse(response.json());
    expect(error.code).toBe('CRM_UNREACHABLE');
    expect(error.message).toBe('HubSpot could not be reached. Try again in a moment.');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers 502 CRM_UNREACHABLE when the CRM fails with a 5xx', async () => {
    const token = failing.issueApiToken();
    failing.fail('GET', /^\/v1\/users\/me$/, 503, 10);
    const response = await connect('pipedrive', token);
    expect(response.statusCode, response.body).toBe(502);
    expect(apiErrorSchema.parse(response.json()).code).toBe('CRM_UNREACHABLE');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('documents the 502 of POST /integrations', async () => {
    const document = (await runtime.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>>;
    }>();
    const responses = document.paths['/api/v1/integrations']?.post?.responses ?? {};
    expect(responses['502']?.description).toContain('CRM_UNREACHABLE');
  });
});
