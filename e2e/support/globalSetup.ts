import type { TestProject } from 'vitest/node';
import { startGoogleForProduct } from './googleStandIn.js';
import { thirdPartyApp } from './thirdPartyApp.js';
import { assertJourneysCanRun } from './preflight.js';
import { freePort, productBaseUrl, startProductServer } from './productServer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the product under test answers, e.g. http://localhost:41234. */
    baseUrl: string;
    /** The product's data directory (mail outbox, shared journey accounts). */
    dataDir: string;
  }
}

/**
 * Starts the built product once for all journeys, with Google sign-in pointed at a local stand-in
 * (GitHub stays unconfigured, so its button must not show) and one third-party application that
 * asks for consent, and stops both when they are done.
 */
export default async function setup(project: TestProject) {
  await assertJourneysCanRun();
  const port = await freePort();
  const google = await startGoogleForProduct(productBaseUrl(port));
  const server = await startProductServer({
    port,
    env: { ...google.env, OIDC_CLIENTS: JSON.stringify([thirdPartyApp(productBaseUrl(port))]) },
  }).catch(async (error: unknown) => {
    await google.standIn.close();
    throw error;
  });
  project.provide('baseUrl', server.baseUrl);
  project.provide('dataDir', server.dataDir);
  return async () => {
    await server.stop();
    await google.standIn.close();
  };
}
