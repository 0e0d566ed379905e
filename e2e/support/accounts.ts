import { randomBytes } from 'node:crypto';
import { solveChallenge } from 'altcha-lib/v1';
import { captchaChallengeSchema, tokenResponseSchema } from '@verbatim/contracts';
import { inject } from 'vitest';
import { linkFromOutbox } from './outbox.js';

export interface Account {
  email: string;
  password: string;
}

/** A password that passes the rule of spec §5. */
export const journeyPassword = 'Journey-Pass-1';

/** A fresh address; short because spec §5 caps e-mail addresses at 32 characters. */
export function newEmail(prefix = 'j'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

/** A running product: where it answers, and its data directory (whose outbox/ holds every e-mail). */
export interface ProductAddress {
  baseUrl: string;
  dataDir: string;
}

/** The journeys' server (only inside a vitest run). */
const journeyServer = (): ProductAddress => ({ baseUrl: inject('baseUrl'), dataDir: inject('dataDir') });

async function api(baseUrl: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(new URL(`/api/v1${path}`, baseUrl), init);
}

/** Solves a captcha challenge of the server as the widget would: the base64 payload. */
export async function solvedCaptcha(baseUrl = inject('baseUrl')): Promise<string> {
  const challenge = captchaChallengeSchema.parse(
    await (await api(baseUrl, '/auth/captcha/challenge')).json(),
  );
  const solution = await solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  ).promise;
  if (!solution) throw new Error('the captcha challenge could not be solved');
  const payload = { ...challenge, number: solution.number, took: solution.took };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/**
 * Registers through the API (not the form), then opens the verification link's code; the answer
 * to that is the console's first access token.
 */
export async function createVerifiedAccount(
  email = newEmail(),
  server: ProductAddress = journeyServer(),
): Promise<Account & { accessToken: string }> {
  const registered = await api(server.baseUrl, '/auth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email,
      password: journeyPassword,
      passConf: journeyPassword,
      reCaptchaKey: await solvedCaptcha(server.baseUrl),
      registeredAs: 'api',
    }),
  });
  if (registered.status !== 201)
    throw new Error(`register answered ${registered.status}: ${await registered.text()}`);
  const link = await linkFromOutbox(email, '/auth/verify/', undefined, server.dataDir);
  const code = new URL(link).pathname.split('/').pop() ?? '';
  const verified = await api(server.baseUrl, '/auth/profile/verify', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: 'verbatim-console',
      grant_type: 'urn:verbatim:params:oauth:grant-type:email-verification',
      code,
    }),
  });
  if (!verified.ok) throw new Error(`verification answered ${verified.status}: ${await verified.text()}`);
  const tokens = tokenResponseSchema.parse(await verified.json());
  return { email, password: journeyPassword, accessToken: tokens.access_token };
}

let fileAccount: Promise<Account> | undefined;

/**
 * One verified account for the journeys of a test file that only need to be signed in. Each file
 * has its own: files run side by side, and a journey may change its account (its language, its
 * sessions), which another file's journey must not see halfway through.
 */
export function sharedAccount(): Promise<Account> {
  fileAccount ??= createVerifiedAccount(newEmail('shared')).then(({ email, password }) => ({
    email,
    password,
  }));
  return fileAccount;
}
