import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { createVerifiedAccount } from '../support/accounts.js';
import { journey } from '../support/journey.js';
import { artifactsDir, repoRoot } from '../support/paths.js';
import { signIn } from '../support/signIn.js';

/** pyannote's tutorial sample: two speakers, a man and a woman, taking turns. */
const recording = join(resolve(repoRoot, '../shared/testdata'), 'diarization/pyannote-sample.wav');

/** How far the page is wider than the window: sideways scrolling when above 0. */
function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** The index of the word lit as being played, or null. */
function litWord(page: Page): Promise<string | null> {
  return page.evaluate(
    () => document.querySelector('[data-word][aria-current="true"]')?.getAttribute('data-word') ?? null,
  );
}

describe('transcript view', () => {
  journey(
    'upload a two-speaker recording with diarization on, open its page, play it and see the highlight move, rename a speaker and download a VTT with the name',
    async ({ page }) => {
      // Diarization of uploads on, with the configuration's switch.
      await signIn(page, await createVerifiedAccount(), '/configuration');
      await page.getByRole('heading', { level: 1, name: 'Configuration' }).waitFor();
      await page.getByLabel('Tell who speaks when in uploaded files').check();
      const saved = page.waitForResponse(
        (response) => response.url().endsWith('/api/v1/settings') && response.request().method() === 'PUT',
      );
      await page.getByRole('button', { name: 'Save settings' }).click();
      expect((await saved).status()).toBe(200);

      await page.goto('/submitted-files?upload');
      const dialog = page.getByRole('dialog', { name: 'Upload file' });
      // The account's language is chosen once the settings arrive.
      await expect
        .poll(() => dialog.getByRole('textbox', { name: 'Language' }).inputValue(), { timeout: 20_000 })
        .not.toBe('');
      await dialog.locator('input[type="file"]').setInputFiles(recording);
      await dialog.getByRole('button', { name: 'Upload' }).click();
      await page.getByText('File uploaded: its transcription has started').waitFor({ timeout: 60_000 });
      const row = page.getByRole('table', { name: 'Submitted files' }).locator('tbody tr').first();
      await row.getByText('Done', { exact: true }).waitFor({ timeout: 480_000 });
      const fileId = (await row.getAttribute('data-file-id')) ?? '';

      // A 1366 px laptop shows status and actions without sideways scrolling; a phone gets cards.
      await page.setViewportSize({ width: 1366, height: 768 });
      // Polled: the sidebar slides out of the way after a resize.
      await expect.poll(() => horizontalOverflow(page), { timeout: 5_000 }).toBeLessThanOrEqual(0);
      const actions = page.getByRole('button', { name: `Actions for file ${fileId}` });
      expect(((await actions.boundingBox())?.x ?? Infinity) + 30).toBeLessThanOrEqual(1366);
      await page.setViewportSize({ width: 390, height: 844 });
      const card = page.getByRole('list', { name: 'Submitted files' }).getByRole('listitem').first();
      await card.getByText('Done', { exact: true }).waitFor();
      // Polled: the sidebar slides out of the way after a resize.
      await expect.poll(() => horizontalOverflow(page), { timeout: 5_000 }).toBeLessThanOrEqual(0);
      await page.setViewportSize({ width: 1280, height: 800 });

      // Its page, from its row.
      await page.getByRole('table', { name: 'Submitted files' }).getByRole('link', { name: fileId }).click();
      await page.waitForURL((url) => url.pathname === `/submitted-files/${fileId}`);
      await page.getByRole('heading', { level: 1, name: 'pyannote-sample.wav' }).waitFor();
      const transcript = page.getByRole('region', { name: 'Transcript' });
      await transcript.locator('[data-speaker="S2"]').first().waitFor({ timeout: 20_000 });
      expect(await page.getByRole('textbox', { name: /^Name of S\d+$/ }).count()).toBeGreaterThanOrEqual(2);

      // Space plays (the focus is on no field); the lit word moves on as the recording plays.
      await page.getByRole('heading', { level: 1 }).click();
      await page.keyboard.press('Space');
      await expect.poll(() => litWord(page), { timeout: 15_000 }).not.toBeNull();
      const first = await litWord(page);
      await expect.poll(() => litWord(page), { timeout: 15_000 }).not.toBe(first);
      await page.keyboard.press('Space');
      expect(await page.locator('audio').evaluate((audio: HTMLAudioElement) => audio.paused)).toBe(true);

      // A click on a turn's time plays from there.
      const secondTurnTime = transcript.getByRole('button', { name: /^Play from / }).nth(1);
      await secondTurnTime.click();
      const turnStart = Number(
        await transcript.locator('[data-turn-start]').nth(1).getAttribute('data-turn-start'),
      );
      const time = await page.locator('audio').evaluate((audio: HTMLAudioElement) => audio.currentTime);
      expect(time).toBeGreaterThanOrEqual(turnStart - 0.01);
      await page.locator('audio').evaluate((audio: HTMLAudioElement) => audio.pause());

      // S1 renamed: the turns say the name, and so does the VTT downloaded from then on.
      await page.getByRole('textbox', { name: 'Name of S1' }).fill('Alice Martin');
      await page.getByRole('button', { name: 'Save names' }).click();
      await page.getByText('Speaker names saved').waitFor();
      await transcript.locator('[data-speaker="S1"]').first().getByText('Alice Martin').waitFor();

      await page.getByRole('button', { name: 'Download' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: /\(\.vtt\)/ }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('pyannote-sample.vtt');
      const vtt = await readFile(await download.path(), 'utf8');
      expect(vtt).toMatch(/^WEBVTT/);
      expect(vtt).toContain('<v Alice Martin>');
      expect(vtt).toContain('<v S2>');

      // The page fits a phone: no sideways scrolling, the player and the turns on screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect.poll(() => horizontalOverflow(page), { timeout: 5_000 }).toBeLessThanOrEqual(0);
      await mkdir(artifactsDir, { recursive: true });
      await page.screenshot({ path: join(artifactsDir, 'transcript-view-phone.png') });
    },
    // Transcribed and diarized by the real engine on a machine the other journeys share.
    600_000,
  );
});
