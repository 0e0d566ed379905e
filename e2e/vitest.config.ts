import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testReportOptions } from '../scripts/test-report.js';

// Browser journeys against the built product: `npm run build`, then
// `npx vitest run --config e2e/vitest.config.ts`. One server for all files, files one after another.
export default defineConfig({
  test: {
    name: 'e2e',
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['e2e/journeys/**/*.test.ts', 'e2e/contract/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['e2e/support/globalSetup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    ...testReportOptions('journeys'),
  },
});
