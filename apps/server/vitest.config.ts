import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // Each file starts its own app and database; PGlite takes a few seconds to boot.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
