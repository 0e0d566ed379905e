import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ApiError,
  InstallationLicence,
  Licence,
  TranscriptResponse,
  UsageReportResult,
} from '@verbatim/contracts';
import { sharedModelsDir, testdataFile } from '@verbatim/speech/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { buildUsageReport } from './usage-report-file.js';
import { UsageJournal } from './usage-journal.js';

/** A licence server that can be made unreachable, or made to lose its answers after counting. */
interface Link {
  url: string;
  mode: 'up' | 'down' | 'lose-answer';
  close(): Promise<void>;
}

async function startLink(target: string): Promise<Link> {
  const link = { mode: 'up' } as Link;
  const server = http.createServer((request, response) => {
    void (async () => {
      if (link.mode === 'down') return request.socket.destroy();
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers: Record<string, string> = {};
      if (request.headers.authorization) headers.authorization = request.headers.authorization;
      if (request.headers['content-type']) headers['content-type'] = request.headers['content-type'];
      const upstream = await fetch(`${target}${request.url ?? '/'}`, {
        method: request.method ?? 'GET',
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const text = await upstream.text();
      if (link.mode === 'lose-answer') return request.socket.destroy();
      response.writeHead(upstream.status, { 'content-type': 'application/json' });
      response.end(text);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  link.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  link.close = () => new Promise((resolve) => server.close(() => resolve()));
  return link;
}

const clips = {
  short: 'en/librivox-sense-sensibility-0880.wav',
  other: 'en/ls-dev-clean-3752-4944-0002.flac',
  third: 'en/librivox-sense-sensibility-0930.wav',
  long: 'en/ls-dev-clean-2412-153948-0000.flac',
};

interface Caller {
  headers: Record<string, string>;
}

// Two or more servers in one process, transcribing real recordings on two shared cores.
describe(
  'on-premise licences: a cloud licence server and on-premise installations',
  { timeout: 300_000 },
  () => {
    let cloud: TestRuntime;
    let link: Link;
    let alice: Caller & { email: string };
    let bob: Caller;
    let publicKey: string;
    const installations: TestRuntime[] = [];

    async function caller(runtime: TestRuntime): Promise<Caller & { email: string }> {
      const account = await createAccount(runtime);
      return { headers: bearer(await signIn(runtime, account.email)), email: account.email };
    }

    async function licencesOf(who: Caller): Promise<Licence[]> {
      const response = await cloud.app.inject({
        method: 'GET',
        url: '/api/v1/limiter/on-premise/licenses',
        headers: who.headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Licence[]>();
    }

    async function licence(id: string): Promise<Licence> {
      const found = (await licencesOf(alice)).find((entry) => entry.id === id);
      if (!found) throw new Error(`licence ${id} not listed`);
      return found;
    }

    async function issue(hours: number, graceDays = 7) {
      return cloud.services.licences.issue({
        email: alice.email,
        name: `Hospital ${hours}h`,
        hours,
        expires: new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10),
        graceDays,
      });
    }

    async function startInstallation(key: string, serverUrl: string | null): Promise<TestRuntime> {
      const runtime = await startTestRuntime({
        env: {
          LICENSE_KEY: key,
          LICENSE_PUBLIC_KEY: publicKey,
          ...(serverUrl ? { LICENSE_SERVER_URL: serverUrl } : {}),
          // No credit at all: the on-premise edition must not look at it.
          STARTING_CREDIT_CENTS: '0',
          SPEECH_MODELS_DIR: sharedModelsDir,
          SPEECH_MODEL: 'tiny.en-q8_0',
          SPEECH_WORKERS: '2',
          SPEECH_THREADS: '1',
        },
      });
      installations.push(runtime);
      return runtime;
    }

    async function transcribe(runtime: TestRuntime, who: Caller, clip: string) {
      return runtime.app.inject({
        method: 'POST',
        url: '/api/v1/transcripts?language=en',
        headers: { ...who.headers, 'content-type': 'application/octet-stream' },
        payload: await readFile(testdataFile(clip)),
      });
    }

    async function transcribed(runtime: TestRuntime, who: Caller, clip: string): Promise<number> {
      const response = await transcribe(runtime, who, clip);
      expect(response.statusCode, response.body).toBe(200);
      const billed = response.json<TranscriptResponse>().billedSeconds;
      expect(billed).toBeGreaterThan(0);
      return billed;
    }

    async function refusal(runtime: TestRuntime, who: Caller, clip: string): Promise<ApiError> {
      const response = await transcribe(runtime, who, clip);
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
      return response.json<ApiError>();
    }

    async function installationView(runtime: TestRuntime, who: Caller): Promise<InstallationLicence> {
      const response = await runtime.app.inject({
        method: 'GET',
        url: '/api/v1/licensing/installation',
        headers: who.headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<InstallationLicence>();
    }

    function reporter(runtime: TestRuntime) {
      const found = runtime.services.installation?.reporter;
      if (!found) throw new Error('no reporter');
      return found;
    }

    beforeAll(async () => {
      cloud = await startTestRuntime();
      const address = await cloud.app.listen({ host: '127.0.0.1', port: 0 });
      link = await startLink(address);
      alice = await caller(cloud);
      bob = await caller(cloud);
      const response = await cloud.app.inject({ method: 'GET', url: '/api/v1/licensing/public-key' });
      expect(response.statusCode).toBe(200);
      publicKey = response.json<{ publicKey: string }>().publicKey;
    }, 120_000);

    afterAll(async () => {
      for (const runtime of installations) await runtime.close();
      await link.close();
      await cloud.close();
    });

    it('lists an account its own licences only, key shown as its prefix', async () => {
      expect(await licencesOf(bob)).toEqual([]);
      const { licence: issued, key } = await issue(10);
      const listed = await licence(issued.id);
      expect(listed).toMatchObject({ name: 'Hospital 10h', status: 'active', uses: 0, maxUses: 36_000 });
      expect(key.startsWith(listed.keyPrefix)).toBe(true);
      expect(JSON.stringify(await licencesOf(alice))).not.toContain(key);
      expect(await licencesOf(bob)).toEqual([]);
      const anonymous = await cloud.app.inject({ method: 'GET', url: '/api/v1/limiter/on-premise/licenses' });
      expect(anonymous.statusCode).toBe(401);
    });

    it('counts the seconds transcribed on premise exactly once, through an outage and a lost answer', async () => {
      const { licence: issued, key } = await issue(10);
      const site = await startInstallation(key, link.url);
      const nurse = await caller(site);
      await reporter(site).reportNow();

      // No credit on this server, and none needed: the licence pays.
      const first = await transcribed(site, nurse, clips.short);
      expect(await reporter(site).reportNow()).toEqual({ sent: 1, error: null });
      expect((await licence(issued.id)).uses).toBe(first);

      // The licence server unreachable for two batches: they wait in the journal.
      link.mode = 'down';
      const second = await transcribed(site, nurse, clips.other);
      expect((await reporter(site).reportNow()).error).not.toBeNull();
      const third = await transcribed(site, nurse, clips.third);
      expect((await reporter(site).reportNow()).error).not.toBeNull();
      expect((await licence(issued.id)).uses).toBe(first);
      expect(await installationView(site, nurse)).toMatchObject({
        used: first + second + third,
        unreportedSeconds: second + third,
        problem: null,
      });

      // Back, but the answer to the first batch is lost after it was counted: it is resent.
      link.mode = 'lose-answer';
      expect((await reporter(site).reportNow()).sent).toBe(0);
      expect((await licence(issued.id)).uses).toBe(first + second);
      link.mode = 'up';
      expect(await reporter(site).reportNow()).toEqual({ sent: 2, error: null });
      const after = await licence(issued.id);
      expect(after.uses).toBe(first + second + third);
      expect(after.lastReportAt).not.toBeNull();
      expect(await installationView(site, nurse)).toMatchObject({
        licenceId: issued.id,
        used: first + second + third,
        unreportedSeconds: 0,
        remaining: 36_000 - (first + second + third),
        problem: null,
      });
      // Nothing left to send: a round only asks for the standing, and counts nothing.
      expect(await reporter(site).reportNow()).toEqual({ sent: 0, error: null });
      expect((await licence(issued.id)).uses).toBe(first + second + third);

      // Suspended by the operator: refused once the installation hears of it; resumed: accepted.
      await cloud.services.licences.suspend(issued.id);
      await reporter(site).reportNow();
      expect((await refusal(site, nurse, clips.short)).code).toBe('LICENSE_SUSPENDED');
      await cloud.services.licences.resume(issued.keyPrefix);
      await reporter(site).reportNow();
      await transcribed(site, nurse, clips.short);

      // Offline past the grace days: refused; the licence server reached again: accepted.
      link.mode = 'down';
      await site.database.db
        .updateTable('licence_standing')
        .set({ last_report_at: new Date(Date.now() - 8 * 86_400_000) })
        .execute();
      const offline = await refusal(site, nurse, clips.short);
      expect(offline.code).toBe('LICENSE_OFFLINE_TOO_LONG');
      expect(offline.message).toContain(link.url);
      link.mode = 'up';
      await reporter(site).reportNow();
      await transcribed(site, nurse, clips.short);
    });

    it('stops counting usage made with a revoked key, as credits do', async () => {
      const { key } = await issue(1);
      const site = await startInstallation(key, link.url);
      const nurse = await caller(site);
      const created = await site.app.inject({
        method: 'POST',
        url: '/api/v1/auth/api-keys',
        headers: nurse.headers,
        payload: { name: 'scanner' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const apiKey = created.json<{ id: string }>();
      const owner = await site.database.db
        .selectFrom('api_keys')
        .select('account_id')
        .where('id', '=', apiKey.id)
        .executeTakeFirstOrThrow();
      const charge = (accountId: string, reference: string) =>
        site.services.usageMeter.charge({
          accountId,
          apiKeyId: apiKey.id,
          product: 'http_api',
          seconds: 3,
          reference,
        });
      expect(await charge(owner.account_id, 'first')).toEqual({ replayed: false });
      expect(await charge(owner.account_id, 'first')).toEqual({ replayed: true });
      await expect(charge('acc_someone_else', 'second')).rejects.toMatchObject({ code: 'FORBIDDEN' });
      const revoked = await site.app.inject({
        method: 'DELETE',
        url: `/api/v1/auth/api-keys/${apiKey.id}`,
        headers: nurse.headers,
      });
      expect(revoked.statusCode, revoked.body).toBeLessThan(300);
      await expect(charge(owner.account_id, 'third')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
      expect((await installationView(site, nurse)).unreportedSeconds).toBe(3);
    });

    it('refuses new work once the licence is used up, while work in progress completes', async () => {
      // 14 seconds: two 12-second recordings admitted together both finish, then nothing more starts.
      const { licence: issued, key } = await issue(14 / 3600);
      const site = await startInstallation(key, link.url);
      const nurse = await caller(site);
      await reporter(site).reportNow();
      const [one, two] = await Promise.all([
        transcribe(site, nurse, clips.long),
        transcribe(site, nurse, clips.long),
      ]);
      expect(one?.statusCode, one?.body).toBe(200);
      expect(two?.statusCode, two?.body).toBe(200);
      const refused = await refusal(site, nurse, clips.short);
      expect(refused.code).toBe('LICENSE_EXHAUSTED');
      await reporter(site).reportNow();
      const after = await licence(issued.id);
      expect(after.uses).toBe(24);
      expect(after.status).toBe('exhausted');
    });

    it('shows and answers a key that is not the licence server’s', async () => {
      const { key } = await issue(1);
      const altered = `${key.slice(0, 20)}${key[20] === 'A' ? 'B' : 'A'}${key.slice(21)}`;
      const site = await startInstallation(altered, link.url);
      const nurse = await caller(site);
      const view = await installationView(site, nurse);
      expect(view.problem).toBe('LICENSE_INVALID');
      expect(view.problemMessage).toContain('LICENSE_KEY');
      const refused = await refusal(site, nurse, clips.short);
      expect(refused.code).toBe('LICENSE_INVALID');
      // The cloud product has no licence of its own.
      const none = await cloud.app.inject({
        method: 'GET',
        url: '/api/v1/licensing/installation',
        headers: alice.headers,
      });
      expect(none.statusCode).toBe(404);
    });

    it('counts an air-gapped report once, however many times it is uploaded, for its owner only', async () => {
      const { licence: issued, key } = await issue(2);
      const site = await startInstallation(key, null);
      const nurse = await caller(site);
      const first = await transcribed(site, nurse, clips.short);
      const second = await transcribed(site, nurse, clips.other);
      const installation = site.services.installation;
      if (!installation) throw new Error('not an installation');
      const { report, markWritten } = await buildUsageReport(
        installation.licence,
        new UsageJournal(site.database.db),
      );
      await markWritten();
      expect(report.batches.reduce((sum, batch) => sum + batch.seconds, 0)).toBe(first + second);

      const upload = (who: Caller, body: unknown) =>
        cloud.app.inject({
          method: 'POST',
          url: '/api/v1/limiter/on-premise/licenses/usage-reports',
          headers: who.headers,
          payload: body as Record<string, unknown>,
        });
      const stranger = await upload(bob, report);
      expect(stranger.statusCode).toBe(404);
      const once = await upload(alice, report);
      expect(once.statusCode, once.body).toBe(200);
      expect(once.json<UsageReportResult>()).toMatchObject({
        batchesCounted: 1,
        secondsCounted: first + second,
      });
      const twice = await upload(alice, report);
      expect(twice.json<UsageReportResult>()).toMatchObject({ batchesCounted: 0, batchesSkipped: 1 });
      expect((await licence(issued.id)).uses).toBe(first + second);

      const batch = report.batches[0];
      if (!batch) throw new Error('no batch');
      const forged = await upload(alice, { ...report, batches: [{ ...batch, seconds: 1 }] });
      expect(forged.statusCode).toBe(400);
      expect(forged.json<ApiError>().code).toBe('BAD_REQUEST');
      expect((await licence(issued.id)).uses).toBe(first + second);
    });
  },
);
