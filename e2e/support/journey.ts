import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect, inject, test } from 'vitest';
import { artifactsDir, chromiumPath } from './paths.js';

export const desktopViewport = { width: 1280, height: 800 };
export const phoneViewport = { width: 375, height: 740 };

/** How every journey's Chromium starts; a file may launch its own with more (a fake microphone). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * `journey` is `test` with a browser (one per file) and a fresh page per test, opened at the
 * desktop size on the product's base URL. A failing test leaves a screenshot in e2e/artifacts/.
 */
export const journey = test.extend<{ $test: { page: Page }; $file: { browser: Browser } }>({
  browser: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const browser = await chromium.launch({
        executablePath: chromiumPath,
        headless: true,
        args: chromiumArgs,
      });
      await use(browser);
      await browser.close();
    },
    { scope: 'file' },
  ],
  page: async ({ browser, task }, use) => {
    const context = await browser.newContext({ baseURL: inject('baseUrl'), viewport: desktopViewport });
    // Well below the test timeout, so a missing element fails with Playwright's own explanation.
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    // The server's Content-Security-Policy must allow everything the console does (the captcha's
    // worker included): a violation fails the journey, naming the directive.
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
    await use(page);
    expect(cspViolations).toEqual([]);
    if (task.result?.state === 'fail') {
      await mkdir(artifactsDir, { recursive: true });
      const fileName = `${task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`;
      await page.screenshot({ path: join(artifactsDir, fileName), fullPage: true }).catch(() => undefined);
    }
    await context.close();
  },
});
