import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3StorageSettings } from '../../platform/storage/s3-file-storage.js';

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const installScript = path.join(repository, 'scripts/s3-stand-in.sh');

/**
 * moto's server speaking the S3 protocol on a loopback port, for the S3 storage tests. Installed
 * from PyPI into .venv-s3/ by scripts/s3-stand-in.sh on first use (and when its pins change).
 */
export class S3StandIn {
  static readonly region = 'us-east-1';
  static readonly credentials = { accessKeyId: 'verbatim-test', secretAccessKey: 'verbatim-test-secret' };
  readonly client: S3Client;

  private constructor(
    readonly endpoint: string,
    private readonly child: ChildProcess,
  ) {
    this.client = new S3Client({
      endpoint,
      region: S3StandIn.region,
      forcePathStyle: true,
      credentials: S3StandIn.credentials,
    });
  }

  /** `checkCredentials`: moto checks every request's signature against its own (empty) IAM users. */
  static async start(options: { checkCredentials?: boolean } = {}): Promise<S3StandIn> {
    let motoServer: string;
    try {
      const { stdout } = await promisify(execFile)('bash', [installScript], { timeout: 300_000 });
      motoServer = stdout.trim().split('\n').at(-1) ?? '';
    } catch (error) {
      throw new Error(
        `The S3 tests need moto (the S3 stand-in) from PyPI, installed by scripts/s3-stand-in.sh, which failed ` +
          `(it needs python3 with venv, Debian: python3-venv): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const port = await freePort();
    const child = spawn(motoServer, ['-H', '127.0.0.1', '-p', String(port)], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...(options.checkCredentials ? { INITIAL_NO_AUTH_ACTION_COUNT: '0' } : {}) },
    });
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (output.length < 10_000) output += chunk.toString();
    });
    const endpoint = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`moto_server exited (${child.exitCode}): ${output}`);
      try {
        await fetch(`${endpoint}/moto-api/`);
        break;
      } catch {
        if (Date.now() > deadline) {
          child.kill();
          throw new Error(`moto_server did not answer on ${endpoint}: ${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return new S3StandIn(endpoint, child);
  }

  /** A new, empty bucket and the storage settings that use it. */
  async bucket(name: string, prefix = ''): Promise<S3StorageSettings> {
    await this.client.send(new CreateBucketCommand({ Bucket: name }));
    return {
      bucket: name,
      region: S3StandIn.region,
      endpoint: this.endpoint,
      forcePathStyle: true,
      prefix,
      credentials: S3StandIn.credentials,
    };
  }

  /** The environment that points the product at a bucket of this stand-in. */
  env(bucket: string): Record<string, string> {
    return {
      FILES_STORAGE: 's3',
      S3_ENDPOINT: this.endpoint,
      S3_REGION: S3StandIn.region,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: S3StandIn.credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3StandIn.credentials.secretAccessKey,
    };
  }

  async keys(bucket: string): Promise<string[]> {
    const listing = await this.client.send(new ListObjectsV2Command({ Bucket: bucket }));
    return (listing.Contents ?? []).map((object) => object.Key ?? '').sort();
  }

  /** Multipart uploads started and neither completed nor aborted. */
  async multipartUploads(bucket: string): Promise<string[]> {
    const listing = await this.client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
    return (listing.Uploads ?? []).map((upload) => upload.Key ?? '');
  }

  async object(bucket: string, key: string): Promise<Buffer> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const bytes = await answer.Body?.transformToByteArray();
    if (!bytes) throw new Error(`no body for ${key}`);
    return Buffer.from(bytes);
  }

  async stop(): Promise<void> {
    this.client.destroy();
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** moto cannot listen on port 0: a port the system just gave out and took back. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
