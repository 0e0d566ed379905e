import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  test: { name: 'contracts', include: ['src/**/*.test.ts'] },
});
