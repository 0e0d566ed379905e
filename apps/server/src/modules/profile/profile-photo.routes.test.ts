import { profileSchema } from '@verbatim/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithMetadata, sampleJpeg } from '../../test-support/jpeg-fixtures.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';

function photoForm(data: Buffer, type = 'image/jpeg', field = 'theFile'): FormData {
  const form = new FormData();
  form.append(field, new Blob([data], { type }), 'me.jpg');
  return form;
}

describe('profile photo', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { PROFILE_PHOTO_MAX_BYTES: '4096' } });
  });
  afterAll(() => runtime.close());

  async function signedIn() {
    const account = await createAccount(runtime);
    return { account, headers: bearer(await signIn(runtime, account.email)) };
  }
  const upload = (
    id: string,
    headers: Record<string, string>,
    payload: FormData | string,
    contentType?: string,
  ) =>
    runtime.app.inject({
      method: 'PUT',
      url: `/api/v1/media/profile-photos/${id}.jpg`,
      headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
      payload,
    });

  it('stores a JPEG without its metadata and serves it to its owner only', async () => {
    const ada = await signedIn();
    const bob = await signedIn();
    const uploaded = await upload(ada.account.id, ada.headers, photoForm(jpegWithMetadata()));
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const photoUrl = `/api/v1/media/profile-photos/${ada.account.id}.jpg`;
    expect(profileSchema.parse(uploaded.json()).photoUrl).toBe(photoUrl);

    const served = await runtime.app.inject({ method: 'GET', url: photoUrl, headers: ada.headers });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.rawPayload.subarray(0, 2).equals(Buffer.from([0xff, 0xd8]))).toBe(true);
    expect(served.rawPayload.toString('latin1')).not.toContain('GPSLatitude');
    expect(served.rawPayload.length).toBeLessThan(jpegWithMetadata().length);

    // Bob can neither see nor replace Ada's photo.
    expect(
      (await runtime.app.inject({ method: 'GET', url: photoUrl, headers: bob.headers })).statusCode,
    ).toBe(404);
    const replaced = await upload(ada.account.id, bob.headers, photoForm(sampleJpeg));
    expect(replaced.statusCode).toBe(403);
    expect(replaced.json<{ code: string }>().code).toBe('FORBIDDEN');
    expect((await runtime.app.inject({ method: 'GET', url: photoUrl })).statusCode).toBe(401);
  });

  it('refuses what is not a JPEG, by declared type and by content', async () => {
    const { account, headers } = await signedIn();
    const png = await upload(
      account.id,
      headers,
      photoForm(Buffer.from('89504e470d0a1a0a', 'hex'), 'image/png'),
    );
    expect(png.statusCode).toBe(415);
    const disguised = await upload(account.id, headers, photoForm(Buffer.from('not really a jpeg at all')));
    expect(disguised.statusCode).toBe(400);
    expect(disguised.json<{ code: string }>().code).toBe('INVALID_FILE');
    const wrongField = await upload(account.id, headers, photoForm(sampleJpeg, 'image/jpeg', 'photo'));
    expect(wrongField.json<{ code: string }>().code).toBe('INVALID_FILE');
    const notMultipart = await upload(
      account.id,
      headers,
      JSON.stringify({ photo: 'x' }),
      'application/json',
    );
    expect(notMultipart.statusCode).toBe(415);
    const profile = await runtime.app.inject({ method: 'GET', url: '/api/v1/profile', headers });
    expect(profileSchema.parse(profile.json()).photoUrl).toBeNull();
  });

  it('refuses photos over the size limit', async () => {
    const { account, headers } = await signedIn();
    const big = Buffer.concat([sampleJpeg.subarray(0, 2), Buffer.alloc(8192, 0), sampleJpeg.subarray(2)]);
    const response = await upload(account.id, headers, photoForm(big));
    expect(response.statusCode).toBe(413);
    expect(response.json<{ code: string }>().code).toBe('PAYLOAD_TOO_LARGE');
  });
});
