import { readFile } from 'node:fs/promises';
import {
  connectIntegrationResponseSchema,
  crmDeliveryListSchema,
  crmDeliverySchema,
  type CrmDelivery,
  type RecordingUploadState,
  type TranscriptJob,
} from '@verbatim/contracts';
import { readManifest, sharedModelsDir, wordErrorRate } from '@verbatim/speech/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putChunk, sha1 } from '../../test-support/files.js';
import { HubSpotStandIn } from '../../test-support/crm/hubspot-stand-in.js';
import { PipedriveStandIn } from '../../test-support/crm/pipedrive-stand-in.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { waitFor } from '../../test-support/wait.js';

const clip = readManifest().find((entry) => entry.path === 'en/ls-dev-clean-2412-153948-0000.flac');
const shortClip = readManifest().find((entry) => entry.path === 'en/ls-dev-clean-3752-4944-0000.flac');

interface Caller {
  headers: Record<string, string>;
  integrationId: string;
}

/** The text of an HTML note body, for comparing with the reference transcript. */
function plain(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_entity, code: string) => String.fromCharCode(Number(code)));
}

// Uploads that ask for their transcript on a CRM contact: real recognition (tiny.en), real queue,
// the HubSpot stand-in reached through the official SDK.
describe('uploads sent to the CRM once done (real models)', { timeout: 300_000 }, () => {
  let runtime: TestRuntime;
  const hubspot = new HubSpotStandIn();
  const pipedrive = new PipedriveStandIn();
  let alice: Caller;
  let bob: Caller;

  async function connectedCaller(): Promise<Caller> {
    const account = await createAccount(runtime);
    const headers = bearer(await signIn(runtime, account.email));
    const connected = connectIntegrationResponseSchema.parse(
      (
        await runtime.app.inject({
          method: 'POST',
          url: '/api/v1/integrations',
          headers,
          payload: { provider: 'hubspot', token: hubspot.issuePrivateAppToken() },
        })
      ).json(),
    );
    if (connected.kind !== 'connected') throw new Error('expected a connection');
    return { headers, integrationId: connected.integration.id };
  }

  async function deliveries(caller: Caller, transcriptId: string): Promise<CrmDelivery[]> {
    const response = await runtime.app.inject({
      method: 'GET',
      url: `/api/v1/crm-deliveries?transcriptId=${transcriptId}`,
      headers: caller.headers,
    });
    return crmDeliveryListSchema.parse(response.json()).deliveries;
  }

  async function delivered(caller: Caller, transcriptId: string): Promise<CrmDelivery> {
    let last: CrmDelivery | undefined;
    await waitFor(
      async () => {
        try {
          last = (await deliveries(caller, transcriptId))[0];
        } catch {
          return false; // not done yet: no transcript, no delivery
        }
        return last?.status === 'delivered';
      },
      'the delivery',
      240_000,
    );
    if (!last) throw new Error('no delivery');
    return last;
  }

  beforeAll(async () => {
    const url = await hubspot.start();
    hubspot.addContacts(5);
    const pipedriveUrl = await pipedrive.start();
    pipedrive.addPersons(3);
    runtime = await startTestRuntime({
      workers: true,
      env: {
        HUBSPOT_API_URL: url,
        HUBSPOT_APP_URL: url,
        PIPEDRIVE_API_URL: pipedriveUrl,
        SPEECH_MODELS_DIR: sharedModelsDir,
        SPEECH_MODEL_EN: 'tiny.en-q8_0',
        SPEECH_WORKERS: '1',
        SPEECH_THREADS: '2',
      },
    });
    alice = await connectedCaller();
    bob = await connectedCaller();
  }, 120_000);

  afterAll(async () => {
    await runtime.close();
    await hubspot.close();
    await pipedrive.close();
  });

  it('an upload with crm lands as a note with the transcript on the contact once done, queued once', async () => {
    if (!clip) throw new Error('test clip missing from the manifest');
    const audio = await readFile(clip.absolutePath);
    const contactId = hubspot.contacts[1]?.id ?? '';
    const created = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/media/recordings',
      headers: alice.headers,
      payload: {
        fileName: 'sales-call.flac',
        type: 'audio/flac',
        languageCode: 'en',
        size: audio.length,
        sha1: sha1(audio),
        crm: { integrationId: alice.integrationId, contactId, as: 'note' },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    let state = created.json<RecordingUploadState>();
    while (!state.isCompleted) {
      const chunk = await putChunk(
        runtime.app,
        alice.headers,
        state.fileId,
        state.size,
        audio.subarray(state.size, state.size + 64 * 1024),
      );
      expect(chunk.statusCode, chunk.body).toBe(200);
      state = chunk.json<RecordingUploadState>();
    }
    const delivery = await delivered(alice, state.fileId);
    expect(delivery).toMatchObject({ kind: 'note', contactId, integrationId: alice.integrationId });
    expect(delivery.recordUrl).toContain(`/record/0-1/${contactId}`);
    const notes = hubspot.engagements.filter(
      (engagement) => engagement.associations[0]?.contactId === contactId && engagement.kind === 'note',
    );
    expect(notes).toHaveLength(1);
    const body = notes[0]?.properties.hs_note_body ?? '';
    expect(body).toContain('<strong>Transcript:</strong> sales-call.flac');
    expect(body).toContain('<strong>Language:</strong> en');
    const text = plain(body.slice(body.indexOf('</p>') + 4));
    expect(wordErrorRate(clip.referenceText, text, 'en').wer).toBeLessThan(0.3);
    // Sending it again by hand answers the same delivery: one record.
    const again = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/transcripts/${state.fileId}/crm`,
      headers: alice.headers,
      payload: { integrationId: alice.integrationId, contactId, as: 'note' },
    });
    expect(crmDeliverySchema.parse(again.json()).id).toBe(delivery.id);
    expect(await deliveries(alice, state.fileId)).toHaveLength(1);
  });

  it('a job of the public API with crm options lands as a task with its subject and due date', async () => {
    if (!shortClip) throw new Error('test clip missing from the manifest');
    const audio = await readFile(shortClip.absolutePath);
    const contactId = hubspot.contacts[2]?.id ?? '';
    const params = new URLSearchParams({
      language: 'en',
      fileName: 'follow-up.flac',
      crmIntegrationId: alice.integrationId,
      crmContactId: contactId,
      crmAs: 'task',
      crmTaskSubject: 'Call back about the quote',
      crmTaskDueAt: '2026-12-01T09:00:00Z',
    });
    const created = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/transcripts/jobs?${params.toString()}`,
      headers: { ...alice.headers, 'content-type': 'audio/flac' },
      payload: audio,
    });
    expect(created.statusCode, created.body).toBe(202);
    const job = created.json<TranscriptJob>();
    const delivery = await delivered(alice, job.id);
    expect(delivery.kind).toBe('task');
    const task = hubspot.engagements.find(
      (engagement) => engagement.associations[0]?.contactId === contactId && engagement.kind === 'task',
    );
    expect(task?.properties.hs_task_subject).toBe('Call back about the quote');
    expect(task?.properties.hs_timestamp).toBe('2026-12-01T09:00:00.000Z');
    expect(task?.properties.hs_task_body).toContain('follow-up.flac');
  });

  it("refuses at upload another account's connection (404) and an incomplete request (400)", async () => {
    const payload = (crm: unknown) => ({
      fileName: 'refused.flac',
      type: 'audio/flac',
      languageCode: 'en',
      size: 1000,
      sha1: 'a'.repeat(40),
      crm,
    });
    const foreign = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/media/recordings',
      headers: bob.headers,
      payload: payload({ integrationId: alice.integrationId, contactId: '1001', as: 'note' }),
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'CRM_NOT_CONNECTED' });
    const taskWithoutSubject = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/media/recordings',
      headers: bob.headers,
      payload: payload({ integrationId: bob.integrationId, contactId: '1001', as: 'task' }),
    });
    expect(taskWithoutSubject.statusCode).toBe(400);
    const unknownContact = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/media/recordings',
      headers: bob.headers,
      payload: payload({ integrationId: bob.integrationId, contactId: '999999', as: 'note' }),
    });
    expect(unknownContact.statusCode).toBe(400);
    expect(unknownContact.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'HubSpot has no contact with this id in the connected account.',
    });
    expect(taskWithoutSubject.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const job = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/transcripts/jobs?language=en&crmIntegrationId=${alice.integrationId}&crmContactId=1001&crmAs=note`,
      headers: { ...bob.headers, 'content-type': 'audio/flac' },
      payload: Buffer.alloc(2000, 1),
    });
    expect(job.statusCode).toBe(404);
    expect(job.json()).toMatchObject({ code: 'CRM_NOT_CONNECTED' });
    const half = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/transcripts/jobs?language=en&crmIntegrationId=${bob.integrationId}`,
      headers: { ...bob.headers, 'content-type': 'audio/flac' },
      payload: Buffer.alloc(2000, 1),
    });
    expect(half.statusCode).toBe(400);
    expect(half.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('checks the contact of an upload in Pipedrive too: a known person is accepted, an unknown one refused', async () => {
    const connected = connectIntegrationResponseSchema.parse(
      (
        await runtime.app.inject({
          method: 'POST',
          url: '/api/v1/integrations',
          headers: bob.headers,
          payload: { provider: 'pipedrive', token: pipedrive.issueApiToken() },
        })
      ).json(),
    );
    if (connected.kind !== 'connected') throw new Error('expected a connection');
    const create = (contactId: string, sha1: string) =>
      runtime.app.inject({
        method: 'POST',
        url: '/api/v1/media/recordings',
        headers: bob.headers,
        payload: {
          fileName: 'pipedrive.flac',
          type: 'audio/flac',
          languageCode: 'en',
          size: 1000,
          sha1,
          crm: { integrationId: connected.integration.id, contactId, as: 'note' },
        },
      });
    const known = await create(String(pipedrive.persons[0]?.id), 'b'.repeat(40));
    expect(known.statusCode, known.body).toBe(200);
    const unknown = await create('424242', 'c'.repeat(40));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const notANumber = await create('ada', 'd'.repeat(40));
    expect(notANumber.statusCode).toBe(400);
  });

  it('sends a text (a live session) to a contact as a note, once, and keeps it with the delivery', async () => {
    const contactId = hubspot.contacts[3]?.id ?? '';
    const text = 'Thanks for calling. We agreed on the <premium> plan & a demo next week.';
    const send = (caller: Caller, integrationId: string) =>
      runtime.app.inject({
        method: 'POST',
        url: '/api/v1/crm-deliveries',
        headers: caller.headers,
        payload: { text, title: 'Live session', crm: { integrationId, contactId, as: 'note' } },
      });
    const first = await send(alice, alice.integrationId);
    expect(first.statusCode, first.body).toBe(202);
    const delivery = crmDeliverySchema.parse(first.json());
    const done = await delivered(alice, delivery.transcriptId);
    expect(done.id).toBe(delivery.id);
    const second = await send(alice, alice.integrationId);
    expect(crmDeliverySchema.parse(second.json()).id).toBe(delivery.id);
    const notes = hubspot.engagements.filter(
      (engagement) => engagement.associations[0]?.contactId === contactId,
    );
    expect(notes).toHaveLength(1);
    const body = notes[0]?.properties.hs_note_body ?? '';
    expect(body).toContain('<strong>Transcript:</strong> Live session');
    expect(body).toContain('We agreed on the &#60;premium&#62; plan &#38; a demo next week.');
    // Another account: its connection is not this one, its deliveries are not these.
    expect((await send(bob, alice.integrationId)).statusCode).toBe(404);
    expect(
      (
        await runtime.app.inject({
          method: 'GET',
          url: `/api/v1/crm-deliveries?transcriptId=${delivery.transcriptId}`,
          headers: bob.headers,
        })
      ).statusCode,
    ).toBe(404);
    const empty = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/crm-deliveries',
      headers: alice.headers,
      payload: { text: '   ', crm: { integrationId: alice.integrationId, contactId, as: 'note' } },
    });
    expect(empty.statusCode).toBe(400);
  });
});
