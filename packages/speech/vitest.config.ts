import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'speech',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // Real models recognise real audio: a window takes up to a few seconds on two cores.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
