/**
 * The API contract test (`npm run test:contract`, through scripts/contract-test.sh): starts the built
 * product on its embedded defaults in a temporary data folder, creates a verified account and an
 * API key through the real routes, then runs schemathesis over /api/openapi.json twice, once with
 * the console's access token and once with the API key. Exits non-zero when either run fails.
 *
 * Usage: node --import tsx e2e/contract/run.ts <schemathesis executable> [more schemathesis run options]
 * (e.g. `--include-path-regex '^/api/v1/profile'` to look at some operations only).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createdApiKeySchema } from '@verbatim/contracts';
import { HubSpotStandIn } from '../../apps/server/src/test-support/crm/hubspot-stand-in.js';
import { PipedriveStandIn } from '../../apps/server/src/test-support/crm/pipedrive-stand-in.js';
import { createVerifiedAccount, newEmail } from '../support/accounts.js';
import { startProductServer, type ProductServer } from '../support/productServer.js';
import { recordTestCounts } from '../../scripts/test-report.js';
import { countsOfRunReport, withPlainClosingBanner } from './run-report.js';

const schemathesis = process.argv[2] ? resolve(process.argv[2]) : undefined;
const extraOptions = process.argv.slice(3);
const configFile = fileURLToPath(new URL('schemathesis.toml', import.meta.url));
const modelsDir = fileURLToPath(new URL('../../../shared/models', import.meta.url));

/** The same cases on every run, so a failure in CI reproduces locally. */
const seed = process.env.CONTRACT_SEED ?? '20261123';

async function main(): Promise<number> {
  if (!schemathesis) throw new Error('usage: run.ts <schemathesis executable>');
  const started = Date.now();
  const reportDirectory = mkdtempSync(join(tmpdir(), 'verbatim-contract-'));
  // Local stand-ins of the CRMs' APIs: a fuzzed token is refused by the CRM (400 CRM_TOKEN_INVALID)
  // as it would be in production, and nothing leaves the machine.
  const hubspot = new HubSpotStandIn();
  const pipedrive = new PipedriveStandIn();
  const [hubspotUrl, pipedriveUrl] = await Promise.all([hubspot.start(), pipedrive.start()]);
  const server = await startProductServer({
    env: {
      // Fuzzing sends thousands of requests from one address in a few minutes; the per-route limits
      // (sign-in, password change, key generation) still apply and answer 429, which is documented.
      RATE_LIMIT_MAX: '1000000',
      // Real models when the shared folder is there (never downloaded); without, transcription
      // answers its documented 503.
      ...(existsSync(modelsDir) ? { SPEECH_MODELS_DIR: modelsDir } : {}),
      HUBSPOT_API_URL: hubspotUrl,
      PIPEDRIVE_API_URL: pipedriveUrl,
      PIPEDRIVE_OAUTH_URL: pipedriveUrl,
      // Nor do recordings to fetch (POST /transcripts/jobs?url=https://…) and webhooks: every
      // request to a customer-given address fails at once (422 URL_FETCH_FAILED, a failed attempt).
      OUTBOUND_HTTP_DISABLED: 'true',
    },
  });
  try {
    // Two accounts: the first run may revoke every API key it finds (it lists them, then follows
    // the link to DELETE); the key of the second run belongs to another account, out of its reach.
    const { accessToken } = await createVerifiedAccount(newEmail('contract'), server);
    const keyOwner = await createVerifiedAccount(newEmail('contract'), server);
    const apiKey = await createApiKey(server, keyOwner.accessToken);
    let failed = 0;
    const run = async (name: string, options: string[]) => {
      console.log(`\n--- schemathesis with the ${name} (seed ${seed}) ---`);
      const runName = `contract-${name.replace(/\W+/g, '-')}`;
      const reportFile = join(reportDirectory, `${runName}.json`);
      const code = await runSchemathesis(server.baseUrl, [
        ...options,
        '--report',
        'json',
        '--report-json-path',
        reportFile,
      ]);
      if (code !== 0) failed += 1;
      console.log(`--- ${name}: ${code === 0 ? 'passed' : `FAILED (exit code ${code})`} ---`);
      if (!existsSync(reportFile)) return;
      const counts = countsOfRunReport(reportFile);
      recordTestCounts(runName, counts);
      console.log(`Cases: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
    };
    // The whole document with the console's token.
    await run('console session', ['--header', `Authorization: Bearer ${accessToken}`]);
    // The key's run covers the operations that take API keys (elsewhere a key is refused with 403
    // before anything else), without the coverage phase: its boundary values of every schema were
    // just sent, and the answers to them do not depend on the credential.
    const apiKeyPaths = await operationsTakingApiKeys(server);
    await run('API key', [
      '--header',
      `Authorization: Bearer ${apiKey}`,
      '--phases',
      'examples,fuzzing,stateful',
      ...apiKeyPaths.flatMap((path) => ['--include-path', path]),
    ]);
    console.log(`\ncontract test: ${failed === 0 ? 'passed' : `${failed} of 2 runs failed`}`);
    console.log(`wall time ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return failed === 0 ? 0 : 1;
  } finally {
    await server.stop();
    await Promise.all([hubspot.close(), pipedrive.close()]);
    rmSync(reportDirectory, { recursive: true, force: true });
  }
}

/** An API key of the account, made through the real route. */
async function createApiKey(server: ProductServer, accessToken: string): Promise<string> {
  const response = await fetch(new URL('/api/v1/auth/api-keys', server.baseUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'contract test' }),
  });
  if (response.status !== 201)
    throw new Error(`POST /auth/api-keys answered ${response.status}: ${await response.text()}`);
  return createdApiKeySchema.parse(await response.json()).apiKey;
}

/** The paths of the document with an operation whose security accepts an API key. */
async function operationsTakingApiKeys(server: ProductServer): Promise<string[]> {
  const response = await fetch(new URL('/api/openapi.json', server.baseUrl));
  const document = (await response.json()) as {
    paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
  };
  return Object.entries(document.paths)
    .filter(([, operations]) =>
      Object.values(operations).some((operation) =>
        operation.security?.some((requirement) => 'apiKeyBearer' in requirement),
      ),
    )
    .map(([path]) => path);
}

function runSchemathesis(baseUrl: string, options: string[]): Promise<number> {
  const args = [
    '--config-file',
    configFile,
    '--no-color',
    'run',
    new URL('/api/openapi.json', baseUrl).href,
    '--url',
    baseUrl,
    '--checks',
    'all',
    '--seed',
    seed,
    ...options,
    ...extraOptions,
  ];
  return new Promise((resolve, reject) => {
    // Its working folder collects hypothesis' files: a throwaway one.
    const child = spawn(schemathesis ?? 'schemathesis', args, {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: tmpdir(),
    });
    child.stdout.pipe(withPlainClosingBanner()).pipe(process.stdout, { end: false });
    child.once('error', reject);
    child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
