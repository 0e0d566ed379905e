import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testReportOptions } from '../scripts/test-report.js';

// Browser journeys against the built product: `npm run build`, then
// `npx vitest run --config e2e/vitest.config.ts`. One server for all files, two files at once: a
// journey spends most of its time waiting on the browser and the server (one at a time kept 0.85 of
// 2 cores busy: 550 s in CI, 344 s two at a time). Every journey signs up its own accounts.
export default defineConfig({
  test: {
    name: 'e2e',
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['e2e/journeys/**/*.test.ts', 'e2e/contract/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['e2e/support/globalSetup.ts'],
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    ...testReportOptions('journeys'),
  },
});
