import {
  apiErrorSchema,
  createdApiKeySchema,
  profileSchema,
  settingsSchema,
  transcriptDeletionOptionSchema,
  transcriptionLanguageEntrySchema,
} from '@verbatim/contracts';
import { z } from 'zod';
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

  function putExtension(headers: Record<string, string>, payload: object) {
    return runtime.app.inject({
      method: 'PUT',
      url: '/api/v1/settings/recording-extension',
      headers,
      payload,
    });
  }

  it('GET /settings answers the defaults and the configured starting credit, in cents', async () => {
    const { headers } = await signedIn();
    expect(await getSettings(headers)).toEqual({
      language: 'en',
      transcripts: { language: 'en', deletionAfterDays: null, diarize: false },
      recordingExtension: 'ogg',
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

  it('PUT /settings keeps the deletion period; null is never; GET sends it back unchanged', async () => {
    const { account, headers } = await signedIn();
    for (const days of [1, 7, 30, 90, 365, null]) {
      const response = await putSettings(headers, { transcripts: { deletionAfterDays: days } });
      expect(response.statusCode, response.body).toBe(200);
      expect(settingsSchema.parse(response.json()).transcripts).toEqual({
        language: 'en',
        deletionAfterDays: days,
        diarize: false,
      });
      expect(await runtime.services.settings.deletionPeriodOf(account.id)).toBe(days);
    }
    await putSettings(headers, { transcripts: { deletionAfterDays: 30 } });
    // Changing the language alone keeps the period, and the other way round.
    await putSettings(headers, { transcripts: { language: 'es' } });
    expect((await getSettings(headers)).transcripts).toEqual({
      language: 'es',
      deletionAfterDays: 30,
      diarize: false,
    });
  });

  it('PUT /settings keeps whether uploads tell who speaks when by default, and refuses what is not a boolean', async () => {
    const { account, headers } = await signedIn();
    expect((await getSettings(headers)).transcripts.diarize).toBe(false);
    expect((await putSettings(headers, { transcripts: { diarize: true } })).statusCode).toBe(200);
    expect((await getSettings(headers)).transcripts).toEqual({
      language: 'en',
      deletionAfterDays: null,
      diarize: true,
    });
    expect(await runtime.services.settings.diarizesByDefault(account.id)).toBe(true);
    const refused = await putSettings(headers, { transcripts: { diarize: 'yes' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    await putSettings(headers, { transcripts: { language: 'es' } });
    expect((await getSettings(headers)).transcripts.diarize).toBe(true);
  });

  it('PUT /settings refuses periods that are not offered and unknown language codes, each with its message', async () => {
    const { headers } = await signedIn();
    await putSettings(headers, { transcripts: { deletionAfterDays: 7 } });
    const cases: [object, string, string[]][] = [
      [
        { transcripts: { deletionAfterDays: 2 } },
        'Invalid deletion period',
        ['transcripts', 'deletionAfterDays'],
      ],
      [
        { transcripts: { deletionAfterDays: '7' } },
        'Invalid deletion period',
        ['transcripts', 'deletionAfterDays'],
      ],
      [
        { transcripts: { deletionAfterDays: 0 } },
        'Invalid deletion period',
        ['transcripts', 'deletionAfterDays'],
      ],
      // Well-formed but no language Whisper knows.
      [{ transcripts: { language: 'xx' } }, 'Invalid language', ['transcripts', 'language']],
      [{ transcripts: { language: 'en-medical' } }, 'Invalid language', ['transcripts', 'language']],
    ];
    for (const [payload, message, path] of cases) {
      const response = await putSettings(headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const body = apiErrorSchema.parse(response.json());
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.details?.[0]).toMatchObject({ location: 'body', path, message });
    }
    // A refused change leaves everything as it was, also the valid part of the same request.
    const mixed = await putSettings(headers, { language: 'fr', transcripts: { language: 'xx' } });
    expect(mixed.statusCode).toBe(400);
    expect(await getSettings(headers)).toMatchObject({
      language: 'en',
      transcripts: { language: 'en', deletionAfterDays: 7, diarize: false },
    });
  });

  it('PUT /settings/recording-extension keeps the format of kept recordings; PUT /settings leaves it alone', async () => {
    const { account, headers } = await signedIn();
    for (const extension of ['webm', 'wav', 'flac', 'mp3', 'ogg', 'wav']) {
      const response = await putExtension(headers, { extension });
      expect(response.statusCode, response.body).toBe(200);
      expect(settingsSchema.parse(response.json()).recordingExtension).toBe(extension);
    }
    const sentBack = await putSettings(headers, {
      ...(await getSettings(headers)),
      recordingExtension: 'mp3',
    });
    expect(settingsSchema.parse(sentBack.json()).recordingExtension).toBe('wav');
    const audit = await runtime.database.db
      .selectFrom('audit_events')
      .select('detail')
      .where('account_id', '=', account.id)
      .where('kind', '=', 'settings.updated')
      .execute();
    expect(audit).toHaveLength(6);
  });

  it('PUT /settings/recording-extension refuses other formats and other bodies with a clear message', async () => {
    const { headers } = await signedIn();
    for (const payload of [
      { extension: 'aac' },
      { extension: 'OGG' },
      { extension: '' },
      { extension: 3 },
      {},
    ]) {
      const response = await putExtension(headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(apiErrorSchema.parse(response.json()).details?.[0]).toMatchObject({
        path: ['extension'],
        message: 'Invalid recording extension',
      });
    }
    expect((await getSettings(headers)).recordingExtension).toBe('ogg');
  });

  it('GET /settings/transcript-deletion offers never, 1, 7, 30, 90 and 365 days, named in the interface language', async () => {
    const { headers } = await signedIn();
    const list = async (query = '') => {
      const response = await runtime.app.inject({
        method: 'GET',
        url: `/api/v1/settings/transcript-deletion${query}`,
        headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return z.array(transcriptDeletionOptionSchema).parse(response.json());
    };
    expect(await list()).toEqual([
      { days: null, name: 'Never' },
      { days: 1, name: '1 day' },
      { days: 7, name: '7 days' },
      { days: 30, name: '30 days' },
      { days: 90, name: '90 days' },
      { days: 365, name: '1 year' },
    ]);
    await putSettings(headers, { language: 'fr' });
    expect((await list()).map((option) => option.name)).toEqual([
      'Jamais',
      '1 jour',
      '7 jours',
      '30 jours',
      '90 jours',
      '1 an',
    ]);
    expect((await list('?locale=en'))[0]?.name).toBe('Never');
    const bad = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/settings/transcript-deletion?locale=de',
      headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(apiErrorSchema.parse(bad.json()).details?.[0]?.message).toBe('Invalid language');
  });

  it('without an installed model the language list is empty, and any known language may be saved', async () => {
    const { headers } = await signedIn();
    const response = await runtime.app.inject({
      method: 'GET',
      url: '/api/v1/settings/transcript-languages',
      headers,
    });
    expect(response.statusCode).toBe(200);
    expect(z.array(transcriptionLanguageEntrySchema).parse(response.json())).toEqual([]);
    expect((await putSettings(headers, { transcripts: { language: 'fr-medical' } })).statusCode).toBe(200);
  });

  it('the settings calls need a signed-in caller; an API key reads them but cannot change them', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/settings'],
      ['PUT', '/api/v1/settings'],
      ['PUT', '/api/v1/settings/recording-extension'],
      ['GET', '/api/v1/settings/transcript-languages'],
      ['GET', '/api/v1/settings/transcript-deletion'],
    ] as const) {
      const response = await runtime.app.inject({ method, url, payload: method === 'PUT' ? {} : undefined });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
    const { headers } = await signedIn();
    const created = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/auth/api-keys',
      headers,
      payload: {},
    });
    const key = { 'x-api-key': createdApiKeySchema.parse(created.json()).apiKey };
    for (const url of [
      '/api/v1/settings',
      '/api/v1/settings/transcript-deletion',
      '/api/v1/settings/transcript-languages',
    ]) {
      expect((await runtime.app.inject({ method: 'GET', url, headers: key })).statusCode, url).toBe(200);
    }
    expect((await putSettings(key, { language: 'fr' })).statusCode).toBe(403);
    expect((await putExtension(key, { extension: 'wav' })).statusCode).toBe(403);
    expect(await getSettings(headers)).toMatchObject({ language: 'en', recordingExtension: 'ogg' });
  });

  it("user A's settings are A's own: B neither sees nor changes them", async () => {
    const a = await signedIn();
    const b = await signedIn();
    await putSettings(a.headers, { language: 'fr', transcripts: { language: 'de', deletionAfterDays: 90 } });
    await putExtension(a.headers, { extension: 'flac' });
    await runtime.services.credits.charge({
      accountId: a.account.id,
      apiKeyId: null,
      product: 'http_api',
      seconds: 3600,
      reference: 'a',
    });
    expect(await getSettings(b.headers)).toEqual({
      language: 'en',
      transcripts: { language: 'en', deletionAfterDays: null, diarize: false },
      recordingExtension: 'ogg',
      calls: { ceiling: null, currentUsage: 0 },
      thirdPartyApi: { credits: { ceiling: 750, currentUsage: 0 } },
    });
    // B's own changes stay B's.
    await putSettings(b.headers, { transcripts: { deletionAfterDays: 1 } });
    await putExtension(b.headers, { extension: 'webm' });
    expect(await getSettings(a.headers)).toMatchObject({
      language: 'fr',
      transcripts: { language: 'de', deletionAfterDays: 90 },
      recordingExtension: 'flac',
      thirdPartyApi: { credits: { currentUsage: 10 } },
    });
    // What the deletion job reads is per account too.
    expect(await runtime.services.settings.deletionPeriodOf(a.account.id)).toBe(90);
    expect(await runtime.services.settings.deletionPeriodOf(b.account.id)).toBe(1);
    expect(await runtime.services.settings.deletionPeriodOf((await createAccount(runtime)).id)).toBeNull();
  });
});
