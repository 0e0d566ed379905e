import {
  apiErrorSchema,
  connectIntegrationResponseSchema,
  contactsPageSchema,
  crmDeliveryListSchema,
  crmDeliverySchema,
  crmProviderListSchema,
  integrationListSchema,
  type CrmDelivery,
  type Integration,
} from '@verbatim/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.js';
import { HubSpotStandIn } from '../../test-support/crm/hubspot-stand-in.js';
import { PipedriveStandIn } from '../../test-support/crm/pipedrive-stand-in.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { waitFor } from '../../test-support/wait.js';
import type { CrmTranscript, TranscriptSource } from './transcript-source.js';

/**
 * The transcripts deliveries read, keyed by id, each owned by one account: stands in for the
 * transcript storage of submitted files (issue 13) behind the module's TranscriptSource interface.
 */
class TestTranscripts implements TranscriptSource {
  readonly #byId = new Map<string, { accountId: string; transcript: CrmTranscript }>();

  add(accountId: string, overrides: Partial<CrmTranscript> = {}): CrmTranscript {
    const id = overrides.id ?? newId('file');
    const transcript: CrmTranscript = {
      id,
      fileName: 'call-with-ada.mp3',
      date: new Date('2026-11-20T09:30:00Z'),
      language: 'en',
      durationSeconds: 754,
      text: 'Hello Ada, thanks for taking the call.\nLet us talk about the engine.',
      url: `http://localhost/files?fileId=${id}`,
      ...overrides,
    };
    this.#byId.set(id, { accountId, transcript });
    return transcript;
  }

  find(accountId: string, transcriptId: string): Promise<CrmTranscript | undefined> {
    const entry = this.#byId.get(transcriptId);
    return Promise.resolve(entry?.accountId === accountId ? entry.transcript : undefined);
  }
}

describe('CRM integrations', () => {
  let runtime: TestRuntime;
  const hubspot = new HubSpotStandIn();
  const pipedrive = new PipedriveStandIn();
  const transcripts = new TestTranscripts();

  beforeAll(async () => {
    const [hubspotUrl, pipedriveUrl] = await Promise.all([hubspot.start(), pipedrive.start()]);
    runtime = await startTestRuntime({
      workers: true,
      crmTranscripts: transcripts,
      env: {
        HUBSPOT_API_URL: hubspotUrl,
        HUBSPOT_APP_URL: hubspotUrl,
        HUBSPOT_CLIENT_ID: hubspot.clientId,
        HUBSPOT_CLIENT_SECRET: hubspot.clientSecret,
        PIPEDRIVE_API_URL: pipedriveUrl,
        PIPEDRIVE_OAUTH_URL: pipedriveUrl,
        PIPEDRIVE_CLIENT_ID: pipedrive.clientId,
        PIPEDRIVE_CLIENT_SECRET: pipedrive.clientSecret,
        RATE_LIMIT_MAX: '100000',
      },
    });
    hubspot.addContacts(250);
    pipedrive.addPersons(250);
  }, 60_000);

  afterAll(async () => {
    await runtime.close();
    await Promise.all([hubspot.close(), pipedrive.close()]);
  });

  async function signedIn() {
    const account = await createAccount(runtime);
    return { account, headers: bearer(await signIn(runtime, account.email)) };
  }

  function inject(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) {
    return runtime.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  }

  async function connectByToken(
    headers: Record<string, string>,
    provider: 'hubspot' | 'pipedrive',
    token: string,
  ) {
    const response = await inject('POST', '/api/v1/integrations', headers, { provider, token });
    expect(response.statusCode, response.body).toBe(201);
    const answer = connectIntegrationResponseSchema.parse(response.json());
    if (answer.kind !== 'connected') throw new Error('expected a connection');
    return answer.integration;
  }

  /** Starts OAuth, lets the stand-in consent, and follows its redirect to our callback. */
  async function connectByOAuth(headers: Record<string, string>, provider: 'hubspot' | 'pipedrive') {
    const start = await inject('POST', '/api/v1/integrations', headers, { provider });
    expect(start.statusCode, start.body).toBe(200);
    const answer = connectIntegrationResponseSchema.parse(start.json());
    if (answer.kind !== 'authorize') throw new Error('expected an authorization page');
    const authorize = new URL(answer.authorizeUrl);
    const consent = await fetch(authorize, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const callback = new URL(consent.headers.get('location') ?? '');
    return { authorize, callback };
  }

  async function followCallback(callback: URL) {
    const response = await runtime.app.inject({
      method: 'GET',
      url: `${callback.pathname}${callback.search}`,
    });
    expect(response.statusCode).toBe(302);
    return new URL(response.headers.location as string);
  }

  async function deliveriesOf(headers: Record<string, string>, transcriptId: string): Promise<CrmDelivery[]> {
    const response = await inject('GET', `/api/v1/crm-deliveries?transcriptId=${transcriptId}`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return crmDeliveryListSchema.parse(response.json()).deliveries;
  }

  async function settled(headers: Record<string, string>, transcriptId: string, status = 'delivered') {
    let last: CrmDelivery[] = [];
    await waitFor(async () => {
      last = await deliveriesOf(headers, transcriptId);
      return last.length > 0 && last.every((delivery) => delivery.status === status);
    }, `deliveries of ${transcriptId} ${status}`);
    return last;
  }

  function send(headers: Record<string, string>, transcriptId: string, payload: object) {
    return inject('POST', `/api/v1/transcripts/${transcriptId}/crm`, headers, payload);
  }

  it('lists both providers with OAuth and token connection on this server', async () => {
    const { headers } = await signedIn();
    const response = await inject('GET', '/api/v1/providers', headers);
    expect(response.statusCode).toBe(200);
    expect(crmProviderListSchema.parse(response.json()).providers).toEqual([
      {
        id: 'hubspot',
        name: 'HubSpot',
        connectMethods: ['oauth', 'token'],
        capabilities: ['contacts', 'contact_search', 'notes', 'tasks'],
        maxBodyChars: 65_536,
      },
      {
        id: 'pipedrive',
        name: 'Pipedrive',
        connectMethods: ['oauth', 'token'],
        capabilities: ['contacts', 'contact_search', 'notes', 'tasks'],
        maxBodyChars: 100_000,
      },
    ]);
  });

  it('connects HubSpot with a private app token checked against HubSpot, never answering the token', async () => {
    const { headers } = await signedIn();
    const refused = await inject('POST', '/api/v1/integrations', headers, {
      provider: 'hubspot',
      token: 'pat-na1-not-a-real-token',
    });
    expect(refused.statusCode).toBe(400);
    expect(apiErrorSchema.parse(refused.json()).code).toBe('CRM_TOKEN_INVALID');

    const token = hubspot.issuePrivateAppToken();
    const integration = await connectByToken(headers, 'hubspot', token);
    expect(integration).toMatchObject({
      provider: 'hubspot',
      accountName: `HubSpot ${hubspot.portalId}`,
      method: 'token',
      status: 'connected',
    });
    const list = await inject('GET', '/api/v1/integrations', headers);
    expect(integrationListSchema.parse(list.json()).integrations).toEqual([integration]);
    expect(list.body).not.toContain(token);
    // The same portal again is the same connection (a reconnection), not a second one.
    const again = await connectByToken(headers, 'hubspot', hubspot.issuePrivateAppToken());
    expect(again.id).toBe(integration.id);
  });

  it('connects Pipedrive with a personal API token, sent as x-api-token', async () => {
    const { headers } = await signedIn();
    const token = pipedrive.issueApiToken();
    const integration = await connectByToken(headers, 'pipedrive', token);
    expect(integration).toMatchObject({
      provider: 'pipedrive',
      accountName: pipedrive.companyName,
      method: 'token',
    });
    const me = pipedrive.requests.filter((request) => request.path === '/v1/users/me').at(-1);
    expect(me?.headers['x-api-token']).toBe(token);
  });

  it('connects by OAuth with a single-use state and the exact redirect URI; a replayed or wrong state is refused', async () => {
    const { account, headers } = await signedIn();
    const { authorize, callback } = await connectByOAuth(headers, 'hubspot');
    const redirectUri = `${runtime.config.http.publicUrl}/api/v1/integrations/oauth/hubspot/callback`;
    expect(`${authorize.origin}${authorize.pathname}`).toBe(
      `${runtime.config.integrations.hubspot.appUrl}/oauth/authorize`,
    );
    expect(authorize.searchParams.get('redirect_uri')).toBe(redirectUri);
    expect(authorize.searchParams.get('scope')).toBe('crm.objects.contacts.read crm.objects.contacts.write');
    expect(authorize.searchParams.get('client_id')).toBe(hubspot.clientId);

    // A forged state (or none) never reaches the token endpoint.
    const tokenCalls = () => hubspot.requests.filter((request) => request.path === '/oauth/v1/token').length;
    const before = tokenCalls();
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state-value');
    expect((await followCallback(forged)).searchParams.get('error')).toBe('CRM_OAUTH_STATE_INVALID');
    expect(tokenCalls()).toBe(before);

    const back = await followCallback(callback);
    expect(back.pathname).toBe('/integrations');
    const integrationId = back.searchParams.get('connected');
    expect(integrationId).toBeTruthy();
    const exchange = hubspot.requests.filter((request) => request.path === '/oauth/v1/token').at(-1);
    expect(exchange?.form.get('redirect_uri')).toBe(redirectUri);
    expect(exchange?.form.get('grant_type')).toBe('authorization_code');

    // The state was used: the same callback again is refused.
    expect((await followCallback(callback)).searchParams.get('error')).toBe('CRM_OAUTH_STATE_INVALID');

    const list = integrationListSchema.parse((await inject('GET', '/api/v1/integrations', headers)).json());
    expect(list.integrations).toEqual([
      expect.objectContaining({
        id: integrationId,
        provider: 'hubspot',
        method: 'oauth',
        accountName: hubspot.hubDomain,
      }),
    ]);
    // Bound to the account that started it.
    const row = await runtime.database.db
      .selectFrom('crm_integrations')
      .select('account_id')
      .where('id', '=', integrationId ?? '')
      .executeTakeFirstOrThrow();
    expect(row.account_id).toBe(account.id);
  });

  it('pages 250 HubSpot contacts through next_page_url, each exactly once', async () => {
    const { headers } = await signedIn();
    await connectByToken(headers, 'hubspot', hubspot.issuePrivateAppToken());
    const seen: string[] = [];
    let url: string | null = '/api/v1/contacts?provider=hubspot&limit=100';
    let pages = 0;
    while (url) {
      const target = new URL(url, 'http://localhost');
      const response = await inject('GET', `${target.pathname}${target.search}`, headers);
      expect(response.statusCode, response.body).toBe(200);
      const page = contactsPageSchema.parse(response.json());
      seen.push(...page.contacts.map((contact) => contact.id));
      url = page.next_page_url;
      if (url) expect(url.startsWith(`${runtime.config.http.publicUrl}/api/v1/contacts?`)).toBe(true);
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
    expect(seen).toEqual(hubspot.contacts.map((contact) => contact.id));
    const first = contactsPageSchema.parse(
      (await inject('GET', '/api/v1/contacts?provider=hubspot&limit=1', headers)).json(),
    ).contacts[0];
    expect(first).toEqual({
      id: hubspot.contacts[0]?.id,
      type: 'contact',
      name: 'Ada1 Lovelace1',
      email: 'ada1@example.com',
      phone: '+33 1 00 00 0001',
      company: 'Engines 1',
    });
  });

  it('pages 250 Pipedrive persons through next_page_url, each exactly once', async () => {
    const { headers } = await signedIn();
    await connectByToken(headers, 'pipedrive', pipedrive.issueApiToken());
    const seen: string[] = [];
    let url: string | null = '/api/v1/contacts?provider=pipedrive&limit=100';
    while (url) {
      const target = new URL(url, 'http://localhost');
      const response = await inject('GET', `${target.pathname}${target.search}`, headers);
      expect(response.statusCode, response.body).toBe(200);
      const page = contactsPageSchema.parse(response.json());
      seen.push(...page.contacts.map((contact) => contact.id));
      url = page.next_page_url;
    }
    expect(seen).toEqual(pipedrive.persons.map((person) => String(person.id)));
  });

  it('searches contacts, and the search continues through next_page_url', async () => {
    const { headers } = await signedIn();
    await connectByToken(headers, 'hubspot', hubspot.issuePrivateAppToken());
    const first = contactsPageSchema.parse(
      (await inject('GET', '/api/v1/contacts?provider=hubspot&q=lovelace12&limit=5', headers)).json(),
    );
    expect(first.contacts.map((contact) => contact.name)).toEqual([
      'Ada12 Lovelace12',
      'Ada120 Lovelace120',
      'Ada121 Lovelace121',
      'Ada122 Lovelace122',
      'Ada123 Lovelace123',
    ]);
    const next = new URL(first.next_page_url ?? '');
    expect(next.searchParams.get('q')).toBe('lovelace12');
    const second = contactsPageSchema.parse(
      (await inject('GET', `${next.pathname}${next.search}`, headers)).json(),
    );
    expect(second.contacts.map((contact) => contact.name)).toEqual([
      'Ada124 Lovelace124',
      'Ada125 Lovelace125',
      'Ada126 Lovelace126',
      'Ada127 Lovelace127',
      'Ada128 Lovelace128',
    ]);
    // A cursor taken to another search is refused rather than mixing lists.
    next.searchParams.set('q', 'ada');
    const mixed = await inject('GET', `${next.pathname}${next.search}`, headers);
    expect(mixed.statusCode).toBe(400);

    await connectByToken(headers, 'pipedrive', pipedrive.issueApiToken());
    const persons = contactsPageSchema.parse(
      (await inject('GET', '/api/v1/contacts?provider=pipedrive&q=grace7%40example.com', headers)).json(),
    );
    expect(persons.contacts).toEqual([
      {
        id: String(pipedrive.persons[6]?.id),
        type: 'person',
        name: 'Grace Hopper 7',
        email: 'grace7@example.com',
        phone: '+1 555 010007',
        company: 'Compilers 7',
      },
    ]);
  });

  it('answers the record page of a contact', async () => {
    const { headers } = await signedIn();
    await connectByToken(headers, 'hubspot', hubspot.issuePrivateAppToken());
    await connectByToken(headers, 'pipedrive', pipedrive.issueApiToken());
    const hs = await inject(
      'GET',
      '/api/v1/contacts/contact-url?provider=hubspot&contactId=1001&type=contact',
      headers,
    );
    expect(hs.json()).toEqual({
      url: `${runtime.config.integrations.hubspot.appUrl}/contacts/${hubspot.portalId}/record/0-1/1001`,
    });
    const pd = await inject(
      'GET',
      '/api/v1/contacts/contact-url?provider=pipedrive&contactId=7&type=person',
      headers,
    );
    expect(pd.json()).toEqual({ url: `https://${pipedrive.companyDomain}.pipedrive.com/person/7` });
  });

  it('sends a transcript as a HubSpot note and as a task on the right contact, with the expected body', async () => {
    const { account, headers } = await signedIn();
    const integration = await connectByToken(headers, 'hubspot', hubspot.issuePrivateAppToken());
    const transcript = transcripts.add(account.id);
    const contact = hubspot.contacts[41];
    const noteAnswer = await send(headers, transcript.id, {
      integrationId: integration.id,
      contactId: contact?.id,
      as: 'note',
    });
    expect(noteAnswer.statusCode, noteAnswer.body).toBe(202);
    expect(crmDeliverySchema.parse(noteAnswer.json())).toMatchObject({
      status: 'queued',
      kind: 'note',
      contactId: contact?.id,
    });
    const dueAt = '2026-12-01T14:00:00.000Z';
    const taskAnswer = await send(headers, transcript.id, {
      integrationId: integration.id,
      contactId: contact?.id,
      as: 'task',
      task: { subject: 'Call Ada back', dueAt },
    });
    expect(taskAnswer.statusCode, taskAnswer.body).toBe(202);
    const delivered = await settled(headers, transcript.id);
    expect(delivered).toHaveLength(2);
    for (const delivery of delivered) {
      expect(delivery.recordUrl).toBe(
        `${runtime.config.integrations.hubspot.appUrl}/contacts/${hubspot.portalId}/record/0-1/${contact?.id}`,
      );
      expect(delivery.attempts).toBe(1);
    }

    const mine = hubspot.engagements.filter((engagement) =>
      engagement.associations.some((a) => a.contactId === contact?.id),
    );
    const note = mine.find((engagement) => engagement.kind === 'note');
    const task = mine.find((engagement) => engagement.kind === 'task');
    expect(note?.associations).toEqual([
      { contactId: contact?.id, typeId: 202, category: 'HUBSPOT_DEFINED' },
    ]);
    expect(note?.properties.hs_timestamp).toBe('2026-11-20T09:30:00.000Z');
    const body = note?.properties.hs_note_body ?? '';
    expect(body).toContain('call-with-ada.mp3');
    expect(body).toContain('2026-11-20 09:30 UTC');
    expect(body).toContain('<strong>Language:</strong> en');
    expect(body).toContain('<strong>Duration:</strong> 12:34');
    expect(body).toContain('Hello Ada, thanks for taking the call.<br>Let us talk about the engine.');
    expect(body).toContain(`href="${transcript.url ?? ''}"`);
    expect(task?.associations).toEqual([
      { contactId: contact?.id, typeId: 204, category: 'HUBSPOT_DEFINED' },
    ]);
    expect(task?.properties).toMatchObject({
      hs_task_subject: 'Call Ada back',
      hs_task_status: 'NOT_STARTED',
      hs_timestamp: dueAt,
      hs_task_body: body,
    });
  });

  it('sends a transcript as a Pipedrive note and activity on the right person', async () => {
    const { account, headers } = await signedIn();
    const integration = await connectByToken(headers, 'pipedrive', pipedrive.issueApiToken());
    const transcript = transcripts.add(account.id, {
      fileName: 'réunion.wav',
      language: 'fr',
      durationSeconds: 3723,
    });
    const person = pipedrive.persons[9];
    expect(
      (
        await send(headers, transcript.id, {
          integrationId: integration.id,
          contactId: String(person?.id),
          as: 'note',
        })
      ).statusCode,
    ).toBe(202);
    expect(
      (
        await send(headers, transcript.id, {
          integrationId: integration.id,
          contactId: String(person?.id),
          as: 'task',
          task: { subject: 'Envoyer le devis', dueAt: '2026-12-02T08:15:00Z' },
        })
      ).statusCode,
    ).toBe(202);
    const delivered = await settled(headers, transcript.id);
    expect(delivered.map((delivery) => delivery.recordUrl)).toEqual([
      `https://${pipedrive.companyDomain}.pipedrive.com/person/${person?.id}`,
      `https://${pipedrive.companyDomain}.pipedrive.com/person/${person?.id}`,
    ]);
    const note = pipedrive.notes.find((candidate) => candidate.person_id === person?.id);
    expect(note?.content).toContain('réunion.wav');
    expect(note?.content).toContain('<strong>Duration:</strong> 1:02:03');
    expect(note?.content).toContain('<strong>Language:</strong> fr');
    const activity = pipedrive.activities.find((candidate) =>
      candidate.participants.some((p) => p.person_id === person?.id),
    );
    expect(activity).toMatchObject({
      subject: 'Envoyer le devis',
      type: 'task',
      due_date: '2026-12-02',
      due_time: '08:15',
      participants: [{ person_id: person?.id, primary: true }],
    });
    expect(activity?.note).toBe(note?.content);
  });

  it('makes one record when the same transcript is sent twice, and honours Idempotency-Key', async () => {
    const { account, headers } = await signedIn();
    const integration = await connectByToken(headers, 'hubspot', hubspot.issuePrivateAppToken());
    const transcript = transcripts.add(account.id, { fileName: 'twice.mp3' });
    const contactId = hubspot.contacts[77]?.id;
    const payload = { integrationId: integration.id, contactId, as: 'note' };
    const [first, second] = await Promise.all([
      send(headers, transcript.id, payload),
      send(headers, transcript.id, payload),
    ]);
    expect(first.statusCode).toBe(202);
    expect(second.statusCode).toBe(202);
    expect(crmDeliverySchema.parse(second.json()).id).toBe(crmDeliverySchema.parse(first.json()).id);
    await settled(headers, transcript.id);
    const third = await send(headers, transcript.id, payload);
    expect(crmDeliverySchema.parse(third.json())).toMatchObject({
      id: crmDeliverySchema.parse(first.json()).id,
      status: 'delivered',
    });
    const notes = () =>
      hubspot.engagements.filter((engagement) => engagement.properties.hs_note_body?.includes('twice.mp3'));
    expect(notes()).toHaveLength(1);

    const keyed = transcripts.add(account.id, { fileName: 'keyed.mp3' });
    const withKey = (contact: string | undefined) =>
      runtime.app.inject({
        method: 'POST',
        url: `/api/v1/transcripts/${keyed.id}/crm`,
        headers: { ...headers, 'idempotency-key': 'retry-7f3a' },
        payload: { integrationId: integration.id, contactId: contact, as: 'note' },
      });
    const a = await withKey(hubspot.contacts[5]?.id);
    const b = await withKey(hubspot.contacts[6]?.id);
    expect(crmDeliverySchema.parse(b.json()).id).toBe(crmDeliverySchema.parse(a.json()).id);
    await settled(headers, keyed.id);
    expect(
      hubspot.engagements.filter((engagement) => engagement.properties.hs_note_body?.includes('keyed.mp3')),
    ).toHaveLength(1);
  });

  it('waits for Retry-After when HubSpot answers 429, then delivers', async () => {
    const { account, headers } = await signedIn();
    const integration = await connectByToken(headers, 'hubspot', hubspot.issuePrivateAppToken());
    const transcript = transcripts.add(account.id, { fileName: 'busy.mp3' });
    hubspot.fail('POST', /^\/crm\/v3\/objects\/notes$/, 429, 1, 2);
    await send(headers, transcript.id, {
      integrationId: integration.id,
      contactId: hubspot.contacts[3]?.id,
      as: 'note',
    });
    const [delivery] = await settled(headers, transcript.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, lastError: null });
    const attempts = hubspot.requests.filter(
      (request) =>
        request.path === '/crm/v3/objects/notes' && JSON.stringify(request.body).includes('busy.mp3'),
    );
    expect(attempts).toHaveLength(2);
    expect(
      hubspot.engagements.filter((engagement) => engagement.properties.hs_note_body?.includes('busy.mp3')),
    ).toHaveLength(1);
  });

  it('marks the connection needs_reconnect when the token is revoked at the provider; reconnecting resumes the delivery', async () => {
    const { account, headers } = await signedIn();
    const token = hubspot.issuePrivateAppToken();
    const integration = await connectByToken(headers, 'hubspot', token);
    hubspot.revoke(token);

    const contacts = await inject('GET', `/api/v1/contacts?integrationId=${integration.id}`, headers);
    expect(contacts.statusCode).toBe(409);
    expect(apiErrorSchema.parse(contacts.json()).code).toBe('CRM_RECONNECT_REQUIRED');
    const list = integrationListSchema.parse((await inject('GET', '/api/v1/integrations', headers)).json());
    expect(list.integrations[0]?.status).toBe('needs_reconnect');

    const transcript = transcripts.add(account.id, { fileName: 'after-revoke.mp3' });
    await send(headers, transcript.id, {
      integrationId: integration.id,
      contactId: hubspot.contacts[8]?.id,
      as: 'note',
    });
    const [waiting] = await settled(headers, transcript.id, 'waiting_reconnect');
    expect(waiting?.lastErrorCode).toBe('CRM_RECONNECT_REQUIRED');

    const reconnected = await connectByToken(headers, 'hubspot', hubspot.issuePrivateAppToken());
    expect(reconnected).toMatchObject({ id: integration.id, status: 'connected' });
    const [delivered] = await settled(headers, transcript.id);
    expect(delivered?.status).toBe('delivered');
    expect(
      hubspot.engagements.filter((engagement) =>
        engagement.properties.hs_note_body?.includes('after-revoke.mp3'),
      ),
    ).toHaveLength(1);
  });

  it('refreshes an expired OAuth token once for parallel requests, and a refused refresh asks for reconnection', async () => {
    const { headers } = await signedIn();
    const { callback } = await connectByOAuth(headers, 'pipedrive');
    const back = await followCallback(callback);
    const integrationId = back.searchParams.get('connected') ?? '';
    expect(integrationId).not.toBe('');
    // OAuth connections answer at the company's own api_domain (here the stand-in itself).
    const refreshes = () =>
      pipedrive.requests.filter(
        (request) => request.path === '/oauth/token' && request.form.get('grant_type') === 'refresh_token',
      ).length;
    const before = refreshes();
    pipedrive.expireAccessTokens();
    const pages = await Promise.all(
      [1, 2, 3].map(() => inject('GET', `/api/v1/contacts?integrationId=${integrationId}&limit=2`, headers)),
    );
    expect(pages.map((page) => page.statusCode)).toEqual([200, 200, 200]);
    expect(refreshes()).toBe(before + 1);

    pipedrive.revokeAll();
    const refused = await inject('GET', `/api/v1/contacts?integrationId=${integrationId}`, headers);
    expect(refused.statusCode).toBe(409);
    expect(apiErrorSchema.parse(refused.json()).code).toBe('CRM_RECONNECT_REQUIRED');
  });

  it('revokes the OAuth grant at the provider on disconnect, then forgets it', async () => {
    const { headers } = await signedIn();
    const back = await followCallback((await connectByOAuth(headers, 'hubspot')).callback);
    const integrationId = back.searchParams.get('connected') ?? '';
    const deleted = await inject('DELETE', `/api/v1/integrations/${integrationId}`, headers);
    expect(deleted.statusCode).toBe(204);
    const revocation = hubspot.requests.filter((request) => request.method === 'DELETE').at(-1);
    expect(revocation?.path).toMatch(/^\/oauth\/v1\/refresh-tokens\/hs-refresh-/);
    expect(hubspot.hasRefreshToken(decodeURIComponent(revocation?.path.split('/').at(-1) ?? ''))).toBe(false);
    expect(
      integrationListSchema.parse((await inject('GET', '/api/v1/integrations', headers)).json()).integrations,
    ).toEqual([]);
  });

  it('keeps tokens unreadable in a database dump and out of the logs', async () => {
    const { headers } = await signedIn();
    const hubspotToken = hubspot.issuePrivateAppToken();
    const pipedriveToken = pipedrive.issueApiToken();
    await connectByToken(headers, 'hubspot', hubspotToken);
    await connectByToken(headers, 'pipedrive', pipedriveToken);
    await followCallback((await connectByOAuth(headers, 'pipedrive')).callback);
    const dump = await sql<{
      row: string;
    }>`select row_to_json(t)::text as row from crm_integrations t`.execute(runtime.database.db);
    const secrets = await sql<{
      row: string;
    }>`select row_to_json(t)::text as row from server_secrets t`.execute(runtime.database.db);
    const text = [...dump.rows, ...secrets.rows].map((row) => row.row).join('\n');
    expect(dump.rows.length).toBeGreaterThanOrEqual(3);
    for (const secret of [hubspotToken, pipedriveToken, ...issuedPipedriveTokens()]) {
      expect(text).not.toContain(secret);
      expect(JSON.stringify(runtime.logs)).not.toContain(secret);
    }
    expect(text).toMatch(/"access_token_sealed":"v1\./);
    expect(runtime.logs.length).toBeGreaterThan(0);
  });

  /** The tokens the Pipedrive stand-in issued through OAuth, read from its answers' requests. */
  function issuedPipedriveTokens(): string[] {
    return pipedrive.requests
      .filter((request) => request.path !== '/oauth/token')
      .map((request) => /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1])
      .filter((token): token is string => Boolean(token));
  }

  it('refuses a task without its subject and due date, and an unknown transcript', async () => {
    const { account, headers } = await signedIn();
    const integration = await connectByToken(headers, 'hubspot', hubspot.issuePrivateAppToken());
    const transcript = transcripts.add(account.id);
    const noTask = await send(headers, transcript.id, {
      integrationId: integration.id,
      contactId: '1001',
      as: 'task',
    });
    expect(noTask.statusCode).toBe(400);
    expect(apiErrorSchema.parse(noTask.json()).code).toBe('VALIDATION_FAILED');
    const unknown = await send(headers, 'file_unknown', {
      integrationId: integration.id,
      contactId: '1001',
      as: 'note',
    });
    expect(unknown.statusCode).toBe(404);
    const none = await signedIn();
    const notConnected = await inject('GET', '/api/v1/contacts', none.headers);
    expect(notConnected.statusCode).toBe(404);
    expect(apiErrorSchema.parse(notConnected.json()).code).toBe('CRM_NOT_CONNECTED');
  });

  it('answers 404 to another account on every route of a connection, its contacts and its deliveries', async () => {
    const owner = await signedIn();
    const integration: Integration = await connectByToken(
      owner.headers,
      'hubspot',
      hubspot.issuePrivateAppToken(),
    );
    const transcript = transcripts.add(owner.account.id, { fileName: 'private.mp3' });
    await send(owner.headers, transcript.id, {
      integrationId: integration.id,
      contactId: hubspot.contacts[0]?.id,
      as: 'note',
    });
    await settled(owner.headers, transcript.id);

    const other = await signedIn();
    const attempts = [
      await inject('DELETE', `/api/v1/integrations/${integration.id}`, other.headers),
      await inject('GET', `/api/v1/contacts?integrationId=${integration.id}`, other.headers),
      await inject(
        'GET',
        `/api/v1/contacts/contact-url?provider=hubspot&contactId=1001&integrationId=${integration.id}`,
        other.headers,
      ),
      await send(other.headers, transcript.id, {
        integrationId: integration.id,
        contactId: '1001',
        as: 'note',
      }),
      await inject('GET', `/api/v1/crm-deliveries?transcriptId=${transcript.id}`, other.headers),
    ];
    expect(attempts.map((response) => response.statusCode)).toEqual([404, 404, 404, 404, 404]);
    // The other account's own connection cannot reach the owner's transcript either.
    const own = await connectByToken(other.headers, 'hubspot', hubspot.issuePrivateAppToken());
    const foreign = await send(other.headers, transcript.id, {
      integrationId: own.id,
      contactId: '1001',
      as: 'note',
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      integrationListSchema.parse((await inject('GET', '/api/v1/integrations', other.headers)).json())
        .integrations,
    ).toEqual([own]);
    // The owner's connection is untouched.
    expect(
      integrationListSchema.parse((await inject('GET', '/api/v1/integrations', owner.headers)).json())
        .integrations,
    ).toHaveLength(1);
  });
});
