import { apiErrorSchema, profileSchema, settingsSchema } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

describe('settings', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { STARTING_CREDIT_CENTS: '750' } });
  });
  afterAll(() => runtime.close());

  async function signedIn() {
    const account = await createAccount(runtime);
    return { account, headers: bearer(await signIn(runtime, account.email)) };
  }

  async function getSettings(headers: Record<string, string>) {
    const response = await runtime.app.inject({ method: 'GET', url: '/api/v1/settings', headers });
    expect(response.statusCode).toBe(200);
    return settingsSchema.parse(response.json());
  }

  function putSettings(headers: Record<string, string>, payload: object) {
    return runtime.app.inject({ method: 'PUT', url: '/api/v1/settings', headers, payload });
  }

  it('GET /settings answers the defaults and the configured starting credit, in cents', async () => {
    const { headers } = await signedIn();
    expect(await getSettings(headers)).toEqual({
      language: 'en',
      transcripts: { language: 'en' },
      calls: { ceiling: null, currentUsage: 0 },
      thirdPartyApi: { credits: { ceiling: 750, currentUsage: 0 } },
    });
  });

  it('reflects usage and purchases of the ledger', async () => {
    const { account, headers } = await signedIn();
    const { credits } = runtime.services;
    await credits.charge({
      accountId: account.id,
      apiKeyId: null,
      product: 'ws_prerecorded',
      seconds: 7200,
      reference: 'file:a',
    });
    await credits.credit({ accountId: account.id, cents: 1000, reference: 'payment:a' });
    expect(await getSettings(headers)).toMatchObject({
      calls: { ceiling: null, currentUsage: 1 },
      // $0.15 per hour, two hours.
      thirdPartyApi: { credits: { ceiling: 1750, currentUsage: 30 } },
    });
  });

  it('PUT /settings changes the interface language (the profile reads the same value) and the transcript language', async () => {
    const { account, headers } = await signedIn();
    const response = await putSettings(headers, { language: 'fr' });
    expect(response.statusCode).toBe(200);
    expect(settingsSchema.parse(response.json())).toMatchObject({
      language: 'fr',
      transcripts: { language: 'en' },
    });
    const profile = profileSchema.parse(
      (await runtime.app.inject({ method: 'GET', url: '/api/v1/profile', headers })).json(),
    );
    expect(profile.language).toBe('fr');

    const transcripts = await putSettings(headers, { transcripts: { language: 'fr-medical' } });
    expect(settingsSchema.parse(transcripts.json())).toMatchObject({
      language: 'fr',
      transcripts: { language: 'fr-medical' },
    });

    // What GET answers may be sent back changed; read-only parts are ignored.
    const current = await getSettings(headers);
    const roundTrip = await putSettings(headers, {
      ...current,
      language: 'en',
      thirdPartyApi: { credits: { ceiling: 999_999, currentUsage: 0 } },
    });
    expect(roundTrip.statusCode).toBe(200);
    expect(settingsSchema.parse(roundTrip.json())).toMatchObject({
      language: 'en',
      transcripts: { language: 'fr-medical' },
      thirdPartyApi: { credits: { ceiling: 750 } },
    });
    const audit = await runtime.database.db
      .selectFrom('audit_events')
      .select('kind')
      .where('account_id', '=', account.id)
      .execute();
    expect(audit.filter((event) => event.kind === 'settings.updated')).toHaveLength(3);
  });

  it('PUT /settings refuses languages it does not know, with the spec message', async () => {
    const { headers } = await signedIn();
    for (const payload of [
      { language: 'de' },
      { transcripts: { language: 'x' } },
      { transcripts: { language: 'english please' } },
      { transcripts: { language: 12 } },
    ]) {
      const response = await putSettings(headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.[0]?.message).toBe('Invalid language');
    }
    expect(await getSettings(headers)).toMatchObject({ language: 'en', transcripts: { language: 'en' } });
  });

  it("user A's settings are A's own: B neither sees nor changes them", async () => {
    const a = await signedIn();
    const b = await signedIn();
    await putSettings(a.headers, { language: 'fr', transcripts: { language: 'de' } });
    await runtime.services.credits.charge({
      accountId: a.account.id,
      apiKeyId: null,
      product: 'http_api',
      seconds: 3600,
      reference: 'a',
    });
    expect(await getSettings(b.headers)).toMatchObject({
      language: 'en',
      transcripts: { language: 'en' },
      calls: { currentUsage: 0 },
      thirdPartyApi: { credits: { ceiling: 750, currentUsage: 0 } },
    });
    expect(await getSettings(a.headers)).toMatchObject({
      language: 'fr',
      transcripts: { language: 'de' },
      thirdPartyApi: { credits: { currentUsage: 10 } },
    });
  });
});
