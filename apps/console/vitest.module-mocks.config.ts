import { defineProject } from 'vitest/config';
import consoleProject, { consoleTestOptions, filesWithModuleMocks } from './vitest.config';

/** The console's test files that mock a module, each in a module registry of its own. */
export default defineProject({
  resolve: consoleProject.resolve,
  test: { name: 'console-module-mocks', include: filesWithModuleMocks, ...consoleTestOptions },
});
