import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/config.js';
import { createRecordingUpload, putChunk } from '../../test-support/files.js';
import { S3StandIn } from '../../test-support/s3/s3-stand-in.js';
import { bearer, createAccount, signIn } from '../../test-support/sign-in.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { openFileStorage } from './open-file-storage.js';

const mib = 1024 * 1024;

describe('FILES_STORAGE=s3: the product keeps its files in the bucket', () => {
  let s3: S3StandIn;
  let runtime: TestRuntime;

  beforeAll(async () => {
    s3 = await S3StandIn.start();
    await s3.bucket('verbatim-files');
    runtime = await startTestRuntime({ env: { ...s3.env('verbatim-files'), S3_PREFIX: 'node-1' } });
  }, 300_000);

  afterAll(async () => {
    await runtime.close();
    await s3.stop();
  });

  it('completes a resumable upload sent in two chunks, and the bucket holds exactly its bytes', async () => {
    const account = await createAccount(runtime);
    const headers = bearer(await signIn(runtime, account.email));
    // The second chunk resumes past 5 MiB: the store copies the first part of the object itself.
    const data = createHash('sha256').update('seed').digest();
    const recording = Buffer.alloc(6 * mib + 12_345);
    for (let start = 0; start < recording.length; start += data.length) data.copy(recording, start);
    recording.writeUInt32BE(0xdeadbeef, 6 * mib);

    const { fileId } = await createRecordingUpload(runtime.app, headers, recording, {
      fileName: 'meeting.mp3',
      type: 'audio/mpeg',
      languageCode: 'en',
    });

    const split = 5 * mib + 512 * 1024;
    const first = await putChunk(runtime.app, headers, fileId, 0, recording.subarray(0, split));
    expect(first.json()).toEqual({ fileId, size: split, isCompleted: false });
    const second = await putChunk(runtime.app, headers, fileId, split, recording.subarray(split));
    expect(second.json()).toEqual({ fileId, size: recording.length, isCompleted: true });

    const key = `node-1/recordings/${account.id}/${fileId}.media`;
    expect(await s3.keys('verbatim-files')).toContain(key);
    expect((await s3.object('verbatim-files', key)).equals(recording)).toBe(true);
    expect(await s3.multipartUploads('verbatim-files')).toEqual([]);
  });

  it('refuses to start on a bucket that does not exist, naming the variable', async () => {
    const config = loadConfig({ ...s3.env('no-such-bucket'), DATA_DIR: runtime.dataDir });
    const failure = await openFileStorage(config.storage).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).problems).toEqual([
      `S3_BUCKET: the bucket "no-such-bucket" does not exist at ${s3.endpoint}`,
    ]);
  });
});

describe('FILES_STORAGE configuration', () => {
  it('is the local folder by default', () => {
    expect(loadConfig({ DATA_DIR: '/srv/verbatim' }).storage).toEqual({
      kind: 'local',
      directory: '/srv/verbatim/files',
    });
  });

  it('reads the bucket, endpoint, credentials and prefix of an S3-compatible store', () => {
    const config = loadConfig({
      DATA_DIR: '/srv/verbatim',
      FILES_STORAGE: 's3',
      S3_ENDPOINT: 'http://minio:9000/',
      S3_BUCKET: 'verbatim',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_PREFIX: 'eu/files',
    });
    expect(config.storage).toEqual({
      kind: 's3',
      directory: '/srv/verbatim/files',
      s3: {
        bucket: 'verbatim',
        region: 'us-east-1',
        endpoint: 'http://minio:9000',
        forcePathStyle: true,
        prefix: 'eu/files/',
        credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      },
    });
    // AWS itself: virtual-host addressing, the SDK's own credentials chain.
    const aws = loadConfig({ FILES_STORAGE: 's3', S3_BUCKET: 'verbatim', S3_REGION: 'eu-west-3' }).storage;
    expect(aws).toMatchObject({
      kind: 's3',
      s3: { region: 'eu-west-3', forcePathStyle: false, prefix: '', credentials: undefined },
    });
    expect(aws.kind === 's3' && aws.s3.endpoint).toBeUndefined();
  });

  it('names every mistake', () => {
    const refused = (env: Record<string, string>, problems: string[]) =>
      expect(() => loadConfig(env)).toThrow(new ConfigError(problems));
    refused({ FILES_STORAGE: 's3' }, ['S3_BUCKET: required when FILES_STORAGE is s3']);
    refused({ FILES_STORAGE: 'ftp' }, ['FILES_STORAGE: must be local or s3']);
    refused({ FILES_STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'key' }, [
      'S3_BUCKET: must be a bucket name (3 to 63 of a-z, 0-9, dots, hyphens)',
      'S3_SECRET_ACCESS_KEY: required together with S3_ACCESS_KEY_ID',
    ]);
    refused({ FILES_STORAGE: 's3', S3_BUCKET: 'verbatim', S3_ENDPOINT: 'minio:9000', S3_PREFIX: '../up' }, [
      'S3_ENDPOINT: must be an http(s) URL',
      'S3_PREFIX: must be folder names such as verbatim/',
    ]);
    refused({ FILES_STORAGE: 's3', S3_BUCKET: 'verbatim', S3_PREFIX: 'a..b/c' }, [
      'S3_PREFIX: must be folder names such as verbatim/',
    ]);
  });
});
