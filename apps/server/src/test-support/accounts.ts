import { captchaChallengeSchema } from '@verbatim/contracts';
import { solveChallenge } from 'altcha-lib/v1';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { startTestRuntime, type TestRuntime } from './test-runtime.js';
import { waitFor } from './wait.js';

/** Makes ALTCHA challenges quick to solve, so tests spend their time on what they test. */
export function easyAltcha(config: Config): void {
  if (config.accounts.captcha.provider === 'altcha') config.accounts.captcha.maxNumber = 2000;
}

/** Fetches a challenge from the app and solves it as the ALTCHA widget would. */
export async function solveAltcha(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/v1/auth/captcha/challenge' });
  if (response.statusCode !== 200) throw new Error(`challenge: HTTP ${response.statusCode} ${response.body}`);
  const challenge = captchaChallengeSchema.parse(response.json());
  const solution = await solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  ).promise;
  if (!solution) throw new Error('the ALTCHA challenge could not be solved');
  const payload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** The raw message with quoted-printable soft line breaks and escapes undone. */
export function decodedMail(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Every message the sink received for this address, decoded. */
export function mailsTo(sink: SmtpSink, address: string): string[] {
  return sink.received.filter((mail) => mail.to.includes(address)).map((mail) => decodedMail(mail.raw));
}

/** Waits for the `count`-th message to the address and returns the secret of its link under `path`. */
export async function linkSecret(sink: SmtpSink, address: string, path: string, count = 1): Promise<string> {
  await waitFor(() => mailsTo(sink, address).length >= count, `message ${count} to ${address}`);
  const mail = mailsTo(sink, address)[count - 1] ?? '';
  const escaped = path.replace(/[/.]/g, '\\$&');
  const match = new RegExp(`${escaped}/([A-Za-z0-9_-]+)`).exec(mail);
  if (!match?.[1]) throw new Error(`no ${path} link in the message to ${address}`);
  return match[1];
}

export const strongPassword = 'Sup3r$ecret';

export interface RuntimeWithMailbox {
  runtime: TestRuntime;
  /** Every message the runtime's workers deliver. */
  sink: SmtpSink;
  close: () => Promise<void>;
}

/** The real app with in-process workers delivering to a local SMTP sink, and easy ALTCHA challenges. */
export async function startRuntimeWithMailbox(env: Record<string, string> = {}): Promise<RuntimeWithMailbox> {
  const sink = await startSmtpSink();
  const runtime = await startTestRuntime({
    workers: true,
    env: { SMTP_URL: sink.url, ...env },
    adjust: easyAltcha,
  });
  return {
    runtime,
    sink,
    close: async () => {
      await runtime.close();
      await sink.close();
    },
  };
}
