import { defineConfig } from 'vitest/config';

// Unit and API integration suites of every workspace; the browser journeys have their own config
// (e2e/vitest.config.ts) because they need the built product.
export default defineConfig({
  test: {
    projects: ['packages/contracts', 'packages/speech', 'apps/server', 'apps/console'],
  },
});
