import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The real models every test may serve (../shared/models, outside the repository). */
export const sharedModelsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../shared/models',
);

export interface ModelRepositoryStandIn {
  /** For SPEECH_MODELS_URL: files are at `<url>/ggml-<name>.bin`. */
  url: string;
  /** Range headers of the requests received, in order (undefined: a full request). */
  ranges: Array<string | undefined>;
  close(): Promise<void>;
}

/**
 * A local stand-in for the whisper.cpp model repository on Hugging Face: serves the named files of
 * ../shared/models with Range support (206, 416), 404 for the rest.
 */
export async function startModelRepositoryStandIn(fileNames: string[]): Promise<ModelRepositoryStandIn> {
  const ranges: Array<string | undefined> = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const fileName = (request.url ?? '').replace(/^\/+/, '');
    if (!fileNames.includes(fileName)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Entry not found');
      return;
    }
    ranges.push(request.headers.range);
    const filePath = path.join(sharedModelsDir, fileName);
    void stat(filePath).then(({ size }) => {
      const start = Number(/^bytes=(\d+)-$/.exec(request.headers.range ?? '')?.[1] ?? 0);
      if (start >= size) {
        response.writeHead(416, { 'content-range': `bytes */${size}` }).end();
        return;
      }
      const headers = { 'content-length': String(size - start), 'accept-ranges': 'bytes' };
      if (start > 0)
        response.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${size - 1}/${size}` });
      else response.writeHead(200, headers);
      createReadStream(filePath, { start }).pipe(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ranges,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
