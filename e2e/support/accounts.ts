import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(new URL(`/api/v1${path}`, inject('baseUrl')), init);
}

/** Solves a captcha challenge of the server as the widget would: the base64 payload. */
export async function solvedCaptcha(): Promise<string> {
  const challenge = captchaChallengeSchema.parse(await (await api('/auth/captcha/challenge')).json());
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

/** Registers through the API (not the form), then opens the verification link's code. */
export async function createVerifiedAccount(email = newEmail()): Promise<Account> {
  const registered = await api('/auth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email,
      password: journeyPassword,
      passConf: journeyPassword,
      reCaptchaKey: await solvedCaptcha(),
      registeredAs: 'api',
    }),
  });
  if (registered.status !== 201)
    throw new Error(`register answered ${registered.status}: ${await registered.text()}`);
  const link = await linkFromOutbox(email, '/auth/verify/');
  const code = new URL(link).pathname.split('/').pop() ?? '';
  const verified = await api('/auth/profile/verify', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: 'verbatim-console',
      grant_type: 'urn:verbatim:params:oauth:grant-type:email-verification',
      code,
    }),
  });
  if (!verified.ok) throw new Error(`verification answered ${verified.status}: ${await verified.text()}`);
  tokenResponseSchema.parse(await verified.json());
  return { email, password: journeyPassword };
}

/**
 * One verified account shared by the journeys that only read (the server allows 10 registrations
 * per address and hour); kept in the data directory so every journey file finds the same one.
 */
export async function sharedAccount(): Promise<Account> {
  const file = join(inject('dataDir'), 'e2e-shared-account.json');
  const saved = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as Account,
    () => undefined,
  );
  if (saved) return saved;
  const account = await createVerifiedAccount(newEmail('shared'));
  await writeFile(file, JSON.stringify(account));
  return account;
}
