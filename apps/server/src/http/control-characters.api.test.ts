import type { ApiError } from '@verbatim/contracts';
import { sharedModelsDir } from '@verbatim/speech/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createAccount, signIn } from '../test-support/sign-in.js';
import {
  documentRefuses,
  fieldValue,
  injectOptions,
  requiredWith,
  sampleRequests,
  withField,
  type OpenApiDocument,
  type SampleRequest,
  type StringField,
} from '../test-support/openapi-requests.js';
import { startTestRuntime, type TestRuntime } from '../test-support/test-runtime.js';

/**
 * The property behind "no input answers 500": every string parameter of every operation of the
 * OpenAPI document (path, query, header, JSON body property, form field), sent with a NUL or
 * another control character inside an otherwise valid request, is refused with a 4xx, never a 5xx;
 * a value the document calls invalid gets 400 VALIDATION_FAILED naming the field; and the document
 * does call invalid every value holding a character no field can hold (NUL, U+0001…U+001F but tab
 * and line breaks).
 */

/** Characters no field holds; tab and line feed only free text does. */
const neverHeld = ['\u0000', '\u0001', '\u001b', '\u001f'];
const freeTextOnly = ['\n', '\t'];

interface Answer {
  status: number;
  code: string | undefined;
}

const locationNames = { path: 'params', query: 'query', header: 'headers', body: 'body' } as const;

function codeOf(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

function insertInMiddle(value: string, character: string): string {
  const middle = Math.floor(value.length / 2);
  return `${value.slice(0, middle)}${character}${value.slice(middle)}`;
}

function printable(value: string): string {
  return JSON.stringify(value).replace(/\\u00/g, '\\x');
}

/** An ApiError, with OpenAI's error object on the OpenAI-compatible route (its `param` names the field). */
type ErrorAnswer = ApiError & { error?: { param?: string | null } };

function namesField(error: ErrorAnswer, request: SampleRequest, field: StringField): boolean {
  // The transcription routes take their options as query parameters or form fields alike.
  const locations: string[] =
    request.body?.kind === 'multipart' && field.location === 'body'
      ? ['body', 'query']
      : [locationNames[field.location]];
  // A list sent as one value (`?fileIds=a`, one form field) is named with or without its index.
  const named = (error.details ?? []).some(
    (issue) =>
      locations.includes(issue.location) &&
      issue.path.length > 0 &&
      (issue.path.every((segment, index) => field.path[index] === segment) ||
        field.path.every((segment, index) => issue.path[index] === segment)),
  );
  const param = error.error?.param;
  return named || (param !== undefined && (param === field.path.join('.') || param === field.path[0]));
}

describe('control characters in every string parameter', () => {
  let runtime: TestRuntime;
  let document: OpenApiDocument;
  let headers: Record<string, string>;

  beforeAll(async () => {
    // Thousands of requests from one address: the global rate limit would answer 429 to most.
    // The real models: a valid transcription request goes on to decode its (too short) recording.
    runtime = await startTestRuntime({
      env: { RATE_LIMIT_MAX: '1000000', SPEECH_MODELS_DIR: sharedModelsDir },
    });
    const account = await createAccount(runtime);
    headers = bearer(await signIn(runtime, account.email));
    document = (
      await runtime.app.inject({ method: 'GET', url: '/api/openapi.json' })
    ).json<OpenApiDocument>();
  }, 120_000);
  afterAll(() => runtime.close());

  it('are refused with a 4xx naming the field, as the document states', async () => {
    const requests = sampleRequests(document);
    expect(requests.length).toBeGreaterThan(60);
    const failures: string[] = [];
    let sent = 0;
    // Each request from its own address: the limits per address (registration, recovery) stay out of the way.
    const nextAddress = () => `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
    const send = async (request: SampleRequest, field: StringField, character: string, before: Answer) => {
      const value = insertInMiddle(fieldValue(request, field), character);
      const response = await runtime.app.inject(
        injectOptions(withField(request, field, value), headers, nextAddress()),
      );
      sent += 1;
      const where = `${request.method.toUpperCase()} ${request.path} ${field.location} ${field.path.join('.')}=${printable(value)}`;
      const refusedByDocument = documentRefuses(field, value);
      if (neverHeld.includes(character) && !refusedByDocument)
        failures.push(`${where}: the document takes the value`);
      if (response.statusCode >= 500) {
        failures.push(`${where}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        return;
      }
      if (!refusedByDocument) return;
      if (response.statusCode < 400) {
        failures.push(`${where}: ${response.statusCode} for a value the document refuses`);
        return;
      }
      const error = response.json<ErrorAnswer>();
      // Refused as the sample itself was, before the field is read (a licence key needed, the
      // device page's session missing), or for a rule between fields the sample breaks (passConf
      // equal to password, a country and its VAT fields): nothing to name.
      if (response.statusCode === before.status && error.code === before.code) return;
      // A character no field holds is refused by name. A tab or a line break the document refuses
      // for a field of one line (an enum, an id's pattern) may be refused in the route's own words.
      if (!neverHeld.includes(character)) return;
      if (!(error.code === 'VALIDATION_FAILED' && namesField(error, request, field)))
        failures.push(
          `${where}: ${response.statusCode} without naming the field: ${response.body.slice(0, 300)}`,
        );
    };
    for (const request of requests) {
      const answer = await runtime.app.inject(injectOptions(requiredWith(request), headers, nextAddress()));
      const before: Answer = { status: answer.statusCode, code: codeOf(answer.body) };
      for (const field of request.fields) {
        for (const character of [...neverHeld, ...freeTextOnly])
          await send(request, field, character, before);
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  }, 600_000);
});
