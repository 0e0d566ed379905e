import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page, Route } from 'playwright-core';
import { describe, expect } from 'vitest';
import { createVerifiedAccount, sharedAccount } from '../support/accounts.js';
import { journey, phoneViewport } from '../support/journey.js';
import { repoRoot } from '../support/paths.js';
import { signIn } from '../support/signIn.js';

const testdata = resolve(repoRoot, '../shared/testdata');
/** 3.7 s of LibriSpeech dev-clean: "NO ONE WHO IS HIMSELF HONEST WILL DOUBT MY BEING SO". */
const recording = join(testdata, 'en/ls-dev-clean-2412-153948-0002.flac');
const recordingName = 'ls-dev-clean-2412-153948-0002.flac';

/** The table's rows as column header → cell text (as written, not as styled: badges show upper case). */
async function fileRows(page: Page): Promise<Record<string, string>[]> {
  const table = page.getByRole('table', { name: 'Submitted files' });
  const headers = await table.getByRole('columnheader').allTextContents();
  const rows = await table.locator('tbody tr').all();
  return Promise.all(
    rows.map(async (row) => {
      const cells = await row.getByRole('cell').allTextContents();
      return Object.fromEntries(headers.map((header, index) => [header, (cells[index] ?? '').trim()]));
    }),
  );
}

function uploadDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Upload file' });
}

describe('submitted files', () => {
  journey(
    'upload a real recording with the modal from Getting started, see its row go to done, download the SRT and read it',
    async ({ page }) => {
      const account = await createVerifiedAccount();
      await signIn(page, account, '/home');
      await page
        .getByRole('navigation', { name: 'Quick actions' })
        .getByRole('button', { name: 'Upload file' })
        .click();
      const dialog = uploadDialog(page);
      await dialog.waitFor();
      // Spec §3 Settings: the account's transcription language is chosen already.
      await expect.poll(() => dialog.getByRole('textbox', { name: 'Language' }).inputValue()).toBe('English');

      await dialog.locator('input[type="file"]').setInputFiles(recording);
      await dialog.getByRole('button', { name: 'Upload' }).click();

      // The last byte checked, the modal closes on the files screen, newest first.
      await page.getByText('File uploaded: its transcription has started').waitFor({ timeout: 30_000 });
      await page.waitForURL((url) => url.pathname === '/submitted-files');
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('table', { name: 'Submitted files' }).waitFor();
      const [uploaded] = await fileRows(page);
      expect(uploaded?.['File ID']).toContain(recordingName);
      expect(uploaded?.Uploaded).toBe('Yes');
      expect(uploaded?.['Created At']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

      // Live status: the table asks again on its own until the transcript is done.
      const row = page.getByRole('table', { name: 'Submitted files' }).locator('tbody tr').first();
      await row.getByText('Done', { exact: true }).waitFor({ timeout: 180_000 });
      const [done] = await fileRows(page);
      expect(done?.Language).toMatch(/^en/);
      expect(done).toMatchObject({
        'Duration (hh:mm:ss)': '00:00:04',
        'Webhook URL': '-',
        Uploaded: 'Yes',
        'Transcript status': 'Done',
        'Failure reason': '-',
      });

      const fileId = (await row.getAttribute('data-file-id')) ?? '';
      expect(done?.['File ID']).toBe(`${fileId}${recordingName}`);
      await page.getByRole('button', { name: `Actions for file ${fileId}` }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: 'SubRip subtitles (.srt)' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('ls-dev-clean-2412-153948-0002.srt');
      const srt = await readFile(await download.path(), 'utf8');
      expect(srt).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\r?\n/);
      expect(srt.toLowerCase()).toMatch(/honest/);
      expect(srt.toLowerCase()).toMatch(/doubt/);
    },
  );

  journey(
    'an upload interrupted by a reload resumes from the bytes the server holds, and the file can be deleted',
    async ({ page }) => {
      // 11 minutes of silence as 16-bit wav: 21 MB, three chunks of 8 MiB; no speech to transcribe.
      const workDir = await mkdtemp(join(tmpdir(), 'verbatim-upload-'));
      const silence = join(workDir, 'long-silence.wav');
      await promisify(execFile)('ffmpeg', [
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'anullsrc=r=16000:cl=mono',
        '-t',
        '660',
        '-c:a',
        'pcm_s16le',
        silence,
      ]);
      try {
        await signIn(page, await createVerifiedAccount(), '/submitted-files?upload');
        // The second chunk is held in the browser, as a connection lost mid-upload would leave it,
        // and the page reloaded meanwhile.
        let holdSecondChunk = true;
        let secondChunkHeld: (route: Route) => void = () => undefined;
        const secondChunk = new Promise<Route>((resolve) => (secondChunkHeld = resolve));
        await page.route('**/api/v1/media/fil_*', async (route) => {
          if (holdSecondChunk && route.request().headers()['x-start-byte'] === '8388608') {
            secondChunkHeld(route);
            return;
          }
          await route.fallback();
        });
        const requests: string[] = [];
        page.on('request', (request) => {
          if (!request.url().includes('/api/v1/media/')) return;
          const startByte = request.headers()['x-start-byte'];
          requests.push(
            `${request.method()} ${new URL(request.url()).pathname}${startByte ? ` @${startByte}` : ''}`,
          );
        });
        const dialog = uploadDialog(page);
        await expect
          .poll(() => dialog.getByRole('textbox', { name: 'Language' }).inputValue(), { timeout: 15_000 })
          .toBe('English');
        await dialog.locator('input[type="file"]').setInputFiles(silence);
        await dialog.getByRole('button', { name: 'Upload' }).click();
        const held = await secondChunk;
        await dialog.getByText(/^Uploading… 39% \(8.4 of 21.1 MB\)/).waitFor();

        holdSecondChunk = false;
        await page.reload();
        await held.abort().catch(() => undefined);
        expect(requests.slice(0, 3)).toEqual([
          'POST /api/v1/media/recordings',
          expect.stringMatching(/^PUT \/api\/v1\/media\/fil_\w+ @0$/),
          expect.stringMatching(/^PUT \/api\/v1\/media\/fil_\w+ @8388608$/),
        ]);
        const fileId = /media\/(fil_\w+)/.exec(requests[1] ?? '')?.[1] ?? '';
        requests.length = 0;

        // The same file picked again after the reload: the SHA-1 is remembered, the placeholder asked
        // where it stands, and the upload goes on from there.
        // The field shows the code with a loader until the language list arrives (longer after a
        // reload, which fetches the screen's chunks again).
        await expect
          .poll(() => dialog.getByRole('textbox', { name: 'Language' }).inputValue(), { timeout: 15_000 })
          .toBe('English');
        await dialog.locator('input[type="file"]').setInputFiles(silence);
        await dialog.getByRole('button', { name: 'Upload' }).click();
        await page.getByText('File uploaded: its transcription has started').waitFor({ timeout: 60_000 });
        expect(requests[0]).toBe(`GET /api/v1/media/${fileId}`);
        expect(requests[1]).toBe(`PUT /api/v1/media/${fileId} @8388608`);
        expect(requests.filter((request) => request.startsWith('POST'))).toEqual([]);

        const row = page.locator(`tr[data-file-id="${fileId}"]`);
        await row.getByText('Processing failed', { exact: true }).waitFor({ timeout: 120_000 });
        const [failed] = await fileRows(page);
        expect(failed).toMatchObject({ Uploaded: 'Yes', 'Failure reason': 'No speech found' });

        await page.getByRole('button', { name: `Actions for file ${fileId}` }).click();
        await page.getByRole('menuitem', { name: 'Delete' }).click();
        await page
          .getByRole('dialog', { name: 'Delete file' })
          .getByRole('button', { name: 'Delete' })
          .click();
        await page.getByText('File deleted').waitFor();
        await row.waitFor({ state: 'detached' });
        await page.getByText('No files uploaded yet.').waitFor();
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },
    // 21 MB uploaded twice in part and 11 minutes of audio decoded and searched for speech: about
    // 30 s, and more than the default 60 s on a machine shared with other work (its own waits
    // allow 60 s for the upload and 120 s for the processing).
    180_000,
  );

  journey("the upload modal shows the spec's validation messages", async ({ page }) => {
    await signIn(page, await sharedAccount(), '/submitted-files');
    await page.getByRole('heading', { level: 1, name: 'Submitted files' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Upload file' }).click();
    const dialog = uploadDialog(page);
    await dialog.waitFor();

    await dialog.getByRole('textbox', { name: 'Webhook URL (optional)' }).fill('ftp://example.com/hook');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await dialog.getByText('Invalid file').waitFor();
    await dialog.getByText('Invalid url').waitFor();

    // Not audio or video: refused before anything is sent.
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/media/')) sent.push(request.url());
    });
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a recording'),
    });
    await dialog.getByRole('textbox', { name: 'Webhook URL (optional)' }).fill('https://example.com/hook');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await dialog.getByText('Invalid file').waitFor();
    await expect.poll(() => dialog.getByText('Invalid url').count()).toBe(0);
    expect(sent).toEqual([]);
  });

  journey('the files screen and the upload modal fit a phone screen', async ({ page }) => {
    await page.setViewportSize(phoneViewport);
    await signIn(page, await sharedAccount(), '/submitted-files');
    await page.getByRole('heading', { level: 1, name: 'Submitted files' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Upload file' }).click();
    const dialog = uploadDialog(page);
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box?.width ?? Infinity).toBeLessThanOrEqual(phoneViewport.width);
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
