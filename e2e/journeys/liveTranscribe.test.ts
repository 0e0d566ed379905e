import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { transcriptionLanguageEntrySchema } from '@verbatim/contracts';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { z } from 'zod';
import { createVerifiedAccount } from '../support/accounts.js';
import { chromiumArgs, journey, phoneViewport } from '../support/journey.js';
import { chromiumPath, repoRoot } from '../support/paths.js';
import { signIn } from '../support/signIn.js';

const run = promisify(execFile);

/** A real recording of ../shared/testdata and its reference transcript, read at run time. */
const testdataDir = resolve(repoRoot, '../shared/testdata');
const recordingPath = 'en/ls-dev-clean-2412-153948-0000.flac';
const silenceBeforeSeconds = 1;
const silenceAfterSeconds = 4;

/**
 * How long the server may take to send the last final after Done and close: generous, as the
 * journeys share two cores with whatever else runs (measured: 40 s at a load of 16).
 */
const serverFlushTimeoutMs = 150_000;

let workDir = '';
/** The recording as the fake microphone plays it: 48 kHz mono 16-bit wav, with silence around it. */
let microphoneWav = '';
let reference: { words: string[]; seconds: number } = { words: [], seconds: 0 };

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'verbatim-live-'));
  microphoneWav = join(workDir, 'microphone.wav');
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-i', join(testdataDir, recordingPath)],
    ...['-af', `adelay=${silenceBeforeSeconds * 1000},apad=pad_dur=${silenceAfterSeconds}`],
    ...['-ar', '48000', '-ac', '1', '-c:a', 'pcm_s16le', microphoneWav],
  ]);
  const manifest = await readFile(join(testdataDir, 'manifest.tsv'), 'utf8');
  const row = manifest
    .split('\n')
    .map((line) => line.split('\t'))
    .find(([path]) => path === recordingPath);
  if (!row) throw new Error(`${recordingPath} is not in the test data manifest`);
  reference = { words: words(row[3] ?? ''), seconds: Number(row[2]) };
});

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/** Share of the reference words found in `text` (the spoken words, recognised). */
function recall(text: string): number {
  const heard = new Set(words(text));
  return reference.words.filter((word) => heard.has(word)).length / reference.words.length;
}

/**
 * The journeys of this file run in a Chromium whose microphone plays the recording above (once,
 * then silence) and whose permission prompts answer yes, unless a context refuses the microphone.
 */
const liveJourney = journey.extend<{ $file: { browser: Browser } }>({
  browser: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const browser = await chromium.launch({
        executablePath: chromiumPath,
        headless: true,
        args: [
          ...chromiumArgs,
          '--use-fake-ui-for-media-stream',
          '--use-fake-device-for-media-stream',
          `--use-file-for-fake-audio-capture=${microphoneWav}%noloop`,
          '--autoplay-policy=no-user-gesture-required',
        ],
      });
      await use(browser);
      await browser.close();
    },
    { scope: 'file' },
  ],
});

const transcript = (page: Page) => page.getByRole('textbox', { name: 'Transcript' });
const sessionStatus = (page: Page) => page.getByRole('status').filter({ hasText: /\.|…/ }).first();

async function allowMicrophoneAndClipboard(page: Page) {
  await page
    .context()
    .grantPermissions(['microphone', 'clipboard-read', 'clipboard-write'], { origin: inject('baseUrl') });
}

/** Signs a new account in on Live transcribe, with a microphone chosen and English as language. */
async function openLiveTranscribe(page: Page) {
  const account = await createVerifiedAccount();
  await signIn(page, account, '/live-transcribe');
  await page.getByRole('heading', { level: 1, name: 'Live transcribe' }).waitFor();
  await expect.poll(() => page.getByRole('textbox', { name: /^Microphone/ }).inputValue()).not.toBe('');
  const language = page.getByRole('textbox', { name: /^Language/ });
  await expect.poll(() => language.isEnabled()).toBe(true);
  if ((await language.inputValue()) !== 'English') {
    await language.click();
    await page.getByRole('option', { name: 'English', exact: true }).click();
  }
  return account;
}

/** Copy puts the text shown on the clipboard; Download saves the same text as transcribe.txt. */
async function expectCopyAndDownloadOf(page: Page, shown: string) {
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('transcribe.txt');
  expect(await readFile(await download.path(), 'utf8')).toBe(shown);
  expect(await page.getByRole('textbox', { name: 'Format' }).inputValue()).toBe('Plain text');
}

describe('live transcribe', () => {
  liveJourney(
    'speak into the microphone: words appear while the audio plays, Stop, the final text holds the spoken words; Copy and Download give the same text',
    { timeout: 300_000 },
    async ({ page }) => {
      await allowMicrophoneAndClipboard(page);
      await openLiveTranscribe(page);
      await expect(
        page.getByRole('switch', { name: /Endpoints \(new paragraphs\)/ }).isChecked(),
      ).resolves.toBe(true);

      await page.getByRole('button', { name: 'Start' }).click();
      await page.getByText('Transcribing…').waitFor({ timeout: 20_000 });
      const connected = Date.now();
      // Words while the recording still plays (speech from 1 s to 12.7 s after the microphone opens).
      await expect.poll(() => transcript(page).inputValue(), { timeout: 30_000, interval: 200 }).not.toBe('');
      expect((Date.now() - connected) / 1000).toBeLessThan(silenceBeforeSeconds + reference.seconds);
      await expect.poll(() => page.getByLabel(/^Elapsed time/).textContent()).not.toBe('00:00');

      // Once the whole recording has played, Stop: the server flushes the last final, then closes.
      const played = (silenceBeforeSeconds + reference.seconds + 1) * 1000;
      await page.waitForTimeout(Math.max(0, connected + played - Date.now()));
      await page.getByRole('button', { name: 'Stop' }).click();
      expect(await page.getByLabel(/^Elapsed time/).textContent()).toBe('00:00');
      await page.getByText('Session ended.').waitFor({ timeout: serverFlushTimeoutMs });
      const finalText = await transcript(page).inputValue();
      expect(recall(finalText), finalText).toBeGreaterThan(0.8);
      expect(finalText.endsWith('\n')).toBe(true);

      await expectCopyAndDownloadOf(page, finalText);

      // Reset clears the text and offers a new session.
      await page.getByRole('button', { name: 'Reset' }).click();
      expect(await transcript(page).inputValue()).toBe('');
      await page.getByRole('button', { name: 'Start' }).waitFor();
      expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(0);
    },
  );

  liveJourney(
    'a recording picked instead: Start reads Upload, the text follows the recording at its pace and the session ends by itself',
    { timeout: 300_000 },
    async ({ page }) => {
      await allowMicrophoneAndClipboard(page);
      await openLiveTranscribe(page);
      await page.locator('input[type="file"]').setInputFiles(join(testdataDir, recordingPath));
      const upload = page.getByRole('button', { name: 'Upload' });
      await upload.waitFor();
      expect(await page.getByRole('button', { name: 'Start' }).count()).toBe(0);

      const started = Date.now();
      await upload.click();
      await page.getByText('Transcribing…').waitFor({ timeout: 20_000 });
      await expect.poll(() => transcript(page).inputValue(), { timeout: 30_000, interval: 200 }).not.toBe('');
      // Sent as if spoken: the session lasts about as long as the recording, not less.
      await page.getByText('Session ended.').waitFor({ timeout: serverFlushTimeoutMs });
      expect((Date.now() - started) / 1000).toBeGreaterThan(reference.seconds - 1);
      const finalText = await transcript(page).inputValue();
      expect(recall(finalText)).toBeGreaterThan(0.8);
      await expectCopyAndDownloadOf(page, finalText);

      // Reset clears the text and the file: Start is back.
      await page.getByRole('button', { name: 'Reset' }).click();
      await page.getByRole('button', { name: 'Start' }).waitFor();
      expect(await transcript(page).inputValue()).toBe('');
    },
  );

  liveJourney(
    'the microphone permission refused: blocked, with "Microphone permission denied." and "Microphone permission is blocked."',
    async ({ page }) => {
      // Every permission but the microphone: the browser refuses it without asking.
      await page.context().grantPermissions(['clipboard-read'], { origin: inject('baseUrl') });
      const account = await createVerifiedAccount();
      await signIn(page, account, '/live-transcribe');
      await page.getByText('Microphone permission denied.').waitFor();
      await page.getByText('Microphone permission is blocked.').waitFor();
      await page.getByText('The microphone cannot be used.').waitFor();
      expect(await page.getByRole('textbox', { name: /^Microphone/ }).inputValue()).toBe('');
      // No session starts without a microphone.
      await page.getByRole('button', { name: 'Start' }).click();
      expect(await page.getByText('Transcribing…').count()).toBe(0);
      expect(await sessionStatus(page).textContent()).toBe('The microphone cannot be used.');
    },
  );

  liveJourney('fits a phone: every control reachable, nothing wider than the screen', async ({ page }) => {
    await allowMicrophoneAndClipboard(page);
    await page.setViewportSize(phoneViewport);
    const account = await createVerifiedAccount();
    await signIn(page, account, '/home');
    // Getting started's button leads here. On a phone the navigation's link of the same name is in
    // the closed menu: the button is the one in the page's main region, clicked once it is shown.
    const homeButton = page.getByRole('main').getByRole('link', { name: 'Live transcribe' });
    await homeButton.waitFor();
    await Promise.all([page.waitForURL((url) => url.pathname === '/live-transcribe'), homeButton.click()]);
    await page.getByRole('heading', { level: 1, name: 'Live transcribe' }).waitFor();
    for (const name of ['Start', 'Stop', 'Reset']) {
      await page.getByRole('button', { name }).scrollIntoViewIfNeeded();
      expect(await page.getByRole('button', { name }).isVisible()).toBe(true);
    }
    await transcript(page).scrollIntoViewIfNeeded();
    expect(await transcript(page).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      phoneViewport.width,
    );
  });

  liveJourney(
    'the default transcription language chosen on /configuration is preselected on Live transcribe',
    async ({ page }) => {
      await allowMicrophoneAndClipboard(page);
      const account = await createVerifiedAccount();
      const languagesFetched = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/api/v1/settings/transcript-languages',
      );
      await signIn(page, account, '/configuration');
      const languages = z
        .array(transcriptionLanguageEntrySchema)
        .parse(await (await languagesFetched).json());
      const french = languages.find((language) => language.code === 'fr');
      expect(french?.isRealtimeSupported, 'the journeys need a model that transcribes French live').toBe(
        true,
      );

      await page.getByRole('textbox', { name: 'Default transcription language' }).click();
      await page.getByRole('option', { name: 'French', exact: true }).click();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings updated').first().waitFor();

      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: 'Live transcribe' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Live transcribe' }).waitFor();
      await expect.poll(() => page.getByRole('textbox', { name: /^Language/ }).inputValue()).toBe('French');
    },
  );
});
