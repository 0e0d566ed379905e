import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiError, RecordingUploadState } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundDisabledError, outboundRequest } from '../../platform/net/outbound-http.js';
import { multipartBody, sha1 } from '../../test-support/files.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

/**
 * The files routes state in the OpenAPI document what the server enforces (issue 11's fuzzer found
 * rules living only in code): each rule is read from the document and tried on the server.
 */

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Record<string, unknown>;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, unknown>;
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
};

function operation(document: Document, path: string, method: string): Operation {
  const found = document.paths[`/api/v1${path}`]?.[method];
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return found;
}

function parameter(op: Operation, name: string): Parameter {
  const found = op.parameters?.find((entry) => entry.name === name);
  if (!found) throw new Error(`no parameter ${name}`);
  return found;
}

/** The document's pattern, as the fuzzer and the developer read it. */
function documented(pattern: unknown): RegExp {
  expect(typeof pattern).toBe('string');
  return new RegExp(pattern as string);
}

describe('files routes: the document states what the server enforces', () => {
  let runtime: TestRuntime;
  let headers: Record<string, string>;
  let document: Document;

  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { OUTBOUND_HTTP_DISABLED: 'true' } });
    const account = await createAccount(runtime);
    headers = bearer(await signIn(runtime, account.email));
    document = (await runtime.app.inject({ url: '/api/openapi.json' })).json<Document>();
  }, 60_000);

  afterAll(async () => {
    await runtime.close();
  });

  it('GET /transcripts/download: fileIds is required and must hold an id; unknown ids are not found', async () => {
    const fileIds = parameter(operation(document, '/transcripts/download', 'get'), 'fileIds');
    expect(fileIds.required).toBe(true);
    const [single, list] = fileIds.schema.anyOf as Record<string, unknown>[];
    const pattern = documented(single?.pattern);
    expect(list).toMatchObject({ type: 'array', minItems: 1 });
    const download = (query: string) =>
      runtime.app.inject({ url: `/api/v1/transcripts/download?${query}`, headers });
    for (const value of ['', ',', ' , ']) {
      expect(pattern.test(value)).toBe(false);
      const refused = await download(`fileIds=${encodeURIComponent(value)}`);
      expect(refused.statusCode).toBe(400);
    }
    expect((await download('')).statusCode).toBe(400);
    // Valid per the document: answered (not found), never refused as invalid; an id longer than
    // any file's is simply not found.
    for (const value of ['x', ' a,', 'f'.repeat(65), 'a,b']) {
      expect(pattern.test(value)).toBe(true);
      const answer = await download(`fileIds=${encodeURIComponent(value)}`);
      expect(answer.statusCode).toBe(404);
    }
    expect((await download('fileIds=a&fileIds=b')).statusCode).toBe(404);
  });

  it('POST /media/recordings: the type rule is a documented pattern the server applies', async () => {
    const schema = document.components.schemas.CreateRecordingRequestInput;
    const pattern = documented(schema?.properties.type?.pattern);
    const data = Buffer.from('not really audio, only bytes');
    const create = (type: string) =>
      runtime.app.inject({
        method: 'POST',
        url: '/api/v1/media/recordings',
        headers,
        payload: { fileName: `${type}.bin`, size: data.length, type, languageCode: 'en', sha1: sha1(data) },
      });
    for (const type of ['audio/mpeg', 'AUDIO/WAV', 'audio/webm;codecs=opus', ' video/mp4 ']) {
      expect(pattern.test(type)).toBe(true);
      expect((await create(type)).statusCode, type).toBe(200);
    }
    for (const type of ['text/plain', 'audio/mpegx', '', 'audio/wav\u00e9', 'image/png;audio/wav']) {
      expect(pattern.test(type)).toBe(false);
      const refused = await create(type);
      expect(refused.statusCode, type).toBe(400);
      expect(refused.json<ApiError>().details?.[0]?.message).toBe('Invalid file');
    }
  });

  it('POST /transcripts/jobs: webhookUrl is a documented http(s) URL; a fileName that is JSON is refused', async () => {
    const op = operation(document, '/transcripts/jobs', 'post');
    const webhookUrl = parameter(op, 'webhookUrl').schema;
    const [empty, url] = webhookUrl.anyOf as Record<string, unknown>[];
    expect(empty).toMatchObject({ enum: [''] });
    const pattern = documented(url?.pattern);
    const formFileName = op.requestBody?.content['multipart/form-data']?.schema.properties as Record<
      string,
      Record<string, unknown>
    >;
    const fileNamePattern = documented(formFileName.fileName?.pattern);
    const audio = Buffer.from('RIFF....WAVE not a real recording');
    const post = (query: string, extraField?: [string, string]) => {
      const form = multipartBody('file', audio, 'a.wav', 'audio/wav');
      let body = form.body;
      if (extraField) {
        const boundary = form.contentType.split('boundary=')[1] ?? '';
        body = Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${extraField[0]}"\r\n\r\n${extraField[1]}\r\n`,
          ),
          form.body,
        ]);
      }
      return runtime.app.inject({
        method: 'POST',
        url: `/api/v1/transcripts/jobs${query}`,
        headers: { ...headers, 'content-type': form.contentType },
        payload: body,
      });
    };
    for (const value of ['ftp://example.com/hook', 'not a url', 'http://', 'https://exa mple.com']) {
      expect(pattern.test(value)).toBe(false);
      const refused = await post(`?webhookUrl=${encodeURIComponent(value)}`);
      expect(refused.statusCode, value).toBe(400);
      expect(refused.json<ApiError>().details?.[0]?.message).toBe('Invalid url');
    }
    for (const value of ['{"a":1}', '{}', '[1]', ' name']) {
      expect(fileNamePattern.test(value)).toBe(false);
      expect((await post('', ['fileName', value])).statusCode, value).toBe(400);
    }
    expect(pattern.test('https://hooks.example.com/verbatim?x=1')).toBe(true);
    const accepted = await post(
      `?webhookUrl=${encodeURIComponent('https://hooks.example.com/verbatim?x=1')}`,
      ['fileName', 'meeting [final].wav'],
    );
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json<{ fileName: string; callbackUrl: string }>()).toMatchObject({
      fileName: 'meeting [final].wav',
      callbackUrl: 'https://hooks.example.com/verbatim?x=1',
    });
  });

  it('POST /transcripts/jobs?url=https://… contacts nobody when outbound requests are disabled', async () => {
    const refused = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/transcripts/jobs?url=${encodeURIComponent('https://recordings.example.com/a.wav')}`,
      headers,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<ApiError>()).toMatchObject({ code: 'URL_FETCH_FAILED' });
    expect(refused.json<ApiError>().message).toContain('OUTBOUND_HTTP_DISABLED');
  });

  it('PUT /media/{fileId}: the document requires the chunk body and its media types; none answers 415', async () => {
    const op = operation(document, '/media/{fileId}', 'put');
    expect(op.requestBody?.required).toBe(true);
    expect(Object.keys(op.requestBody?.content ?? {}).sort()).toEqual([
      'application/octet-stream',
      'multipart/form-data',
    ]);
    expect(op.requestBody?.content['multipart/form-data']?.schema).toMatchObject({ required: ['theFile'] });
    const data = Buffer.from('chunk bytes');
    const created = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/media/recordings',
      headers,
      payload: {
        fileName: 'c.wav',
        size: data.length,
        type: 'audio/wav',
        languageCode: 'en',
        sha1: sha1(data),
      },
    });
    const { fileId } = created.json<RecordingUploadState>();
    const bare = await runtime.app.inject({
      method: 'PUT',
      url: `/api/v1/media/${fileId}`,
      headers: { ...headers, 'x-start-byte': '0' },
    });
    expect(bare.statusCode).toBe(415);
    expect(bare.json<ApiError>()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('POST /files/third-party/{fileId}/webhook-resend: a file without a webhook URL is a documented 409', async () => {
    const op = operation(document, '/files/third-party/{fileId}/webhook-resend', 'post');
    expect(Object.keys(op.responses)).toContain('409');
    const data = Buffer.from('no webhook for this one');
    const created = await runtime.app.inject({
      method: 'POST',
      url: '/api/v1/media/recordings',
      headers,
      payload: {
        fileName: 'n.wav',
        size: data.length,
        type: 'audio/wav',
        languageCode: 'en',
        sha1: sha1(data),
      },
    });
    const { fileId } = created.json<RecordingUploadState>();
    const resend = await runtime.app.inject({
      method: 'POST',
      url: `/api/v1/files/third-party/${fileId}/webhook-resend`,
      headers,
    });
    expect(resend.statusCode).toBe(409);
    expect(resend.json<ApiError>()).toMatchObject({ code: 'WEBHOOK_URL_MISSING' });
  });
});

describe('outbound requests disabled', () => {
  it('fail at once without contacting the address', async () => {
    let contacted = 0;
    const server = createServer((_request, response) => {
      contacted += 1;
      response.end('hello');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    try {
      await expect(
        outboundRequest({ method: 'GET', url, timeoutMs: 2000, allowPrivateAddresses: true, disabled: true }),
      ).rejects.toBeInstanceOf(OutboundDisabledError);
      expect(contacted).toBe(0);
      // The same request, enabled, does reach it: the check above is not vacuous.
      const answer = await outboundRequest({
        method: 'GET',
        url,
        timeoutMs: 2000,
        allowPrivateAddresses: true,
      });
      answer.body.resume();
      expect(answer.statusCode).toBe(200);
      expect(contacted).toBe(1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
