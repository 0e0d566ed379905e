import type { TestProject } from 'vitest/node';
import { assertJourneysCanRun } from './preflight.js';
import { startProductServer } from './productServer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the product under test answers, e.g. http://localhost:41234. */
    baseUrl: string;
    /** The product's data directory (mail outbox, shared journey accounts). */
    dataDir: string;
  }
}

/** Starts the built product once for all journeys and stops it when they are done. */
export default async function setup(project: TestProject) {
  await assertJourneysCanRun();
  const server = await startProductServer();
  project.provide('baseUrl', server.baseUrl);
  project.provide('dataDir', server.dataDir);
  return async () => {
    await server.stop();
  };
}
