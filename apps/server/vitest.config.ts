import { defineProject } from 'vitest/config';

/**
 * The second pass on PostgreSQL (`npm run test:postgres`) leaves out the suites whose subject is
 * speech recognition: they spend minutes in whisper.cpp, and what they write to the database goes
 * through the ledger, settings and files code that the remaining suites exercise on PostgreSQL.
 */
const speechSuites = [
  'src/modules/transcripts/transcripts.routes.test.ts',
  'src/modules/transcripts/openai-transcriptions.routes.test.ts',
  'src/modules/transcripts/transcribe.cli.test.ts',
  'src/modules/transcripts/speech-unavailable.test.ts',
  'src/modules/transcripts/live/live.routes.test.ts',
  'src/modules/transcripts/diarization.api.test.ts',
  'src/modules/transcripts/headerless-pcm.routes.test.ts',
  'src/modules/speech-models/**/*.test.ts',
  'src/modules/settings/settings.languages.test.ts',
  'src/modules/files/files.progress.test.ts',
  'src/modules/files/files.workers.speech.test.ts',
  'src/modules/files/recording-fetch.test.ts',
  'src/modules/integrations/upload-to-crm.test.ts',
];
/**
 * Suites that run on an embedded PGlite folder whatever DATABASE_URL says (the folder's lock and
 * its one owner, a server killed over its folder, the in-memory pool): on the PostgreSQL pass they
 * would only run again what the first pass ran.
 */
const embeddedDatabaseSuites = [
  'src/platform/db-owner/one-owner.test.ts',
  'src/platform/db-owner/data-folder-lock.test.ts',
  'src/platform/db/pglite-pool.test.ts',
  'src/modules/files/files.restart.test.ts',
];
const databasePassOnly = process.env.VERBATIM_TEST_PASS === 'database';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    exclude: [
      '**/node_modules/**',
      ...(databasePassOnly ? [...speechSuites, ...embeddedDatabaseSuites] : []),
    ],
    environment: 'node',
    // Files share a worker's imported modules: the server's module graph takes ~5 s to load, and
    // every file starts its own app, database and data folder anyway, so nothing leaks between them.
    isolate: false,
    // Each file starts its own app and database; PGlite takes a few seconds to boot.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
