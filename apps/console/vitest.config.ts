import { defineProject } from 'vitest/config';

/**
 * Test files that replace a module with `vi.mock`: a mock needs a module registry of its own, so
 * they run isolated (`vitest.module-mocks.config.ts`). Under the shared registry they fail, loudly.
 */
export const filesWithModuleMocks = [
  'src/screens/register/RegisterScreen.test.tsx',
  'src/screens/login/LoginScreen.test.tsx',
];

export const consoleTestOptions = {
  environment: 'jsdom',
  setupFiles: ['./src/test/setup.ts'],
  restoreMocks: true,
  unstubGlobals: true,
};

export default defineProject({
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  test: {
    name: 'console',
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...filesWithModuleMocks],
    ...consoleTestOptions,
    // Files share a worker's imported modules (React, Mantine, the router): loading them again for
    // every file took most of the console suites' time (121 s isolated, 45 s shared, here). Every
    // render builds its own router, query client and i18n instance, and setup.ts cleans the DOM,
    // toasts and storage after each test.
    isolate: false,
  },
});
