import { randomBytes } from 'node:crypto';
import { connectIntegrationResponseSchema, crmDeliveryListSchema } from '@verbatim/contracts';
import type { Transcript } from '@verbatim/speech';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.js';
import { LocalFileStorage } from '../../platform/storage/local-file-storage.js';
import { HubSpotStandIn } from '../../test-support/crm/hubspot-stand-in.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { waitFor } from '../../test-support/wait.js';
import { transcriptKey } from '../files/file-keys.js';
import { FilesRepository } from '../files/files.repository.js';

/** Deliveries read the transcripts of submitted files (and jobs) as the transcription worker stored them. */
describe('sending a submitted file to the CRM', () => {
  let runtime: TestRuntime;
  const hubspot = new HubSpotStandIn();

  beforeAll(async () => {
    const url = await hubspot.start();
    hubspot.addContacts(3);
    runtime = await startTestRuntime({ workers: true, env: { HUBSPOT_API_URL: url, HUBSPOT_APP_URL: url } });
  }, 60_000);

  afterAll(async () => {
    await runtime.close();
    await hubspot.close();
  });

  /** Connects the account of `headers` to the HubSpot stand-in. */
  async function connectHubSpot(headers: Record<string, string>) {
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
    return connected;
  }

  /** A file as the worker leaves it once transcribed: status done, its transcript JSON in storage. */
  async function submittedFile(accountId: string, status: 'done' | 'processing', diarized = false) {
    const files = new FilesRepository(runtime.database.db);
    const id = newId('file');
    await files.insert({
      id,
      accountId,
      apiKeyId: null,
      fileName: 'discovery-call.ogg',
      mediaType: 'audio/ogg',
      size: 1000,
      sha1: randomBytes(20).toString('hex'),
      languageCode: 'auto',
      callbackUrl: null,
    });
    await runtime.database.db
      .updateTable('submitted_files')
      .set({
        status,
        is_completed: true,
        received_bytes: 1000,
        duration_seconds: 95.2,
        detected_language: 'fr',
        processed_at: new Date('2026-11-21T16:05:00Z'),
      })
      .where('id', '=', id)
      .execute();
    const transcript: Transcript = {
      language: 'fr',
      duration: 95.2,
      segments: [
        { id: 0, start: 0, end: 3, text: ' Bonjour, merci pour votre appel.', words: [] },
        { id: 1, start: 3, end: 6, text: ' Parlons du devis.', words: [] },
      ],
    };
    if (diarized) {
      transcript.segments = transcript.segments.map((segment, index) => ({
        ...segment,
        speaker: `S${index + 1}`,
      }));
      transcript.speakers = [
        { id: 'S1', name: 'S1' },
        { id: 'S2', name: 'S2' },
      ];
      transcript.speakerTurns = [
        { speaker: 'S1', start: 0, end: 3 },
        { speaker: 'S2', start: 3, end: 6 },
      ];
    }
    await new LocalFileStorage(runtime.config.storage.directory).put(
      transcriptKey(accountId, id),
      Buffer.from(JSON.stringify(transcript)),
    );
    return id;
  }

  it('puts the file name, date, language, duration and text of a done file on the contact', async () => {
    const account = await createAccount(runtime);
    const headers = bearer(await signIn(runtime, account.email));
    const connected = await connectHubSpot(headers);
    const fileId = await submittedFile(account.id, 'done');
    const contactId = hubspot.contacts[2]?.id;
    const sent = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/transcripts/${fileId}/crm`,
      headers,
      payload: { integrationId: connected.integration.id, contactId, as: 'note' },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    await waitFor(async () => {
      const list = crmDeliveryListSchema.parse(
        (
          await runtime.app.inject({
            method: 'GET',
            url: `/api/v1/crm-deliveries?transcriptId=${fileId}`,
            headers,
          })
        ).json(),
      );
      return list.deliveries[0]?.status === 'delivered';
    }, 'the delivery');
    const note = hubspot.engagements.find(
      (engagement) => engagement.associations[0]?.contactId === contactId,
    );
    const body = note?.properties.hs_note_body ?? '';
    expect(body).toContain('<strong>Transcript:</strong> discovery-call.ogg');
    expect(body).toContain('<strong>Date:</strong> 2026-11-21 16:05 UTC');
    expect(body).toContain('<strong>Language:</strong> fr');
    expect(body).toContain('<strong>Duration:</strong> 1:35');
    expect(body).toContain('Bonjour, merci pour votre appel. Parlons du devis.');
    expect(body).toContain(`href="${runtime.config.http.publicUrl}/submitted-files"`);

    // A file still being transcribed, or another account's, is not a transcript to send.
    const pending = await submittedFile(account.id, 'processing');
    const refused = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/transcripts/${pending}/crm`,
      headers,
      payload: { integrationId: connected.integration.id, contactId, as: 'note' },
    });
    expect(refused.statusCode).toBe(404);
    const other = await createAccount(runtime);
    const othersFile = await submittedFile(other.id, 'done');
    const foreign = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/transcripts/${othersFile}/crm`,
      headers,
      payload: { integrationId: connected.integration.id, contactId, as: 'note' },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('keeps the speaker turns of a diarized transcript in notes and tasks, with the names given (by the owner only)', async () => {
    const account = await createAccount(runtime);
    const headers = bearer(await signIn(runtime, account.email));
    const connected = await connectHubSpot(headers);
    const fileId = await submittedFile(account.id, 'done', true);

    // Someone else cannot rename them: the file is not found for them.
    const stranger = await createAccount(runtime);
    const strangerHeaders = bearer(await signIn(runtime, stranger.email));
    const rename = (as: Record<string, string>, speakers: object[]) =>
      runtime.app.inject({
        method: 'PUT',
        url: `/api/v1/files/third-party/${fileId}/speakers`,
        headers: as,
        payload: { speakers },
      });
    expect((await rename(strangerHeaders, [{ id: 'S1', name: 'Mallory' }])).statusCode).toBe(404);
    const renamed = await rename(headers, [{ id: 'S1', name: 'Anna (ventes)' }]);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toEqual({
      speakers: [
        { id: 'S1', name: 'Anna (ventes)' },
        { id: 'S2', name: 'S2' },
      ],
    });

    const contactId = hubspot.contacts[1]?.id;
    for (const as of ['note', 'task'] as const) {
      const sent = await runtime.app.inject({
        method: 'POST',
        url: `/api/v1/transcripts/${fileId}/crm`,
        headers,
        payload: {
          integrationId: connected.integration.id,
          contactId,
          as,
          ...(as === 'task' ? { task: { subject: 'Rappeler', dueAt: '2026-12-01T09:00:00Z' } } : {}),
        },
      });
      expect(sent.statusCode, sent.body).toBe(202);
    }
    await waitFor(async () => {
      const list = crmDeliveryListSchema.parse(
        (
          await runtime.app.inject({
            method: 'GET',
            url: `/api/v1/crm-deliveries?transcriptId=${fileId}`,
            headers,
          })
        ).json(),
      );
      return list.deliveries.length === 2 && list.deliveries.every((d) => d.status === 'delivered');
    }, 'both deliveries');
    const bodies = hubspot.engagements
      .filter((engagement) => engagement.associations[0]?.contactId === contactId)
      .map((engagement) => engagement.properties.hs_note_body ?? engagement.properties.hs_task_body ?? '');
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(body).toContain('Anna (ventes): Bonjour, merci pour votre appel.<br><br>S2: Parlons du devis.');
    }
  });
});
