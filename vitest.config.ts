import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { testReportOptions } from './scripts/test-report.js';

// Unit and API integration suites of every workspace; the browser journeys have their own config
// (e2e/vitest.config.ts) because they need the built product.
export default defineConfig({
  test: {
    projects: [
      'packages/contracts',
      'packages/speech',
      'apps/server',
      'apps/console',
      'apps/console/vitest.module-mocks.config.ts',
    ],
    // Vitest's default (cores - 1) runs one file at a time on a 2-core machine, leaving a core idle
    // while a suite waits on its database, a child process or a socket: two files at once there.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    ...testReportOptions('suites'),
  },
});
