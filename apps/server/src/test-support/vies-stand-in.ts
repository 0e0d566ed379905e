import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the stand-in behaves, after the ways the real VIES REST API answers:
 * - `up`: 200 with `valid` true for registered numbers, false for the others;
 * - `ms_unavailable`: 200 with `actionSucceed: false` and the error MS_UNAVAILABLE;
 * - `user_error`: 200 with `valid: false` and `userError` MS_MAX_CONCURRENT_REQ;
 * - `server_error`: 500 with `errorWrappers` SERVICE_UNAVAILABLE;
 * - `gateway_error`: 503 with an HTML page, as a proxy in front of it would answer;
 * - `invalid_input`: 400 with INVALID_INPUT, as for a number it cannot read;
 * - `hang`: never answers.
 */
export type ViesStandInMode =
  'up' | 'ms_unavailable' | 'user_error' | 'server_error' | 'gateway_error' | 'invalid_input' | 'hang';

export interface ViesStandIn {
  /** The check-vat-number address, for VIES_URL. */
  url: string;
  mode: ViesStandInMode;
  /** Registered numbers, prefix included (EL for Greece): `DE136308783`. */
  registered: Set<string>;
  /** The bodies of the requests received. */
  requests: unknown[];
  close(): Promise<void>;
}

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A local server speaking the shape of POST /taxation_customs/vies/rest-api/check-vat-number. */
export async function startViesStandIn(registered: string[] = []): Promise<ViesStandIn> {
  const hanging = new Set<ServerResponse>();
  const standIn = {
    url: '',
    mode: 'up' as ViesStandInMode,
    registered: new Set(registered),
    requests: [] as unknown[],
    close: () => Promise.resolve(),
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/check-vat-number')) {
        json(response, 404, { actionSucceed: false, errorWrappers: [{ error: 'NOT_FOUND' }] });
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        countryCode?: string;
        vatNumber?: string;
      };
      standIn.requests.push(body);
      const countryCode = body.countryCode ?? '';
      const vatNumber = body.vatNumber ?? '';
      switch (standIn.mode) {
        case 'up': {
          const valid = standIn.registered.has(`${countryCode}${vatNumber}`);
          json(response, 200, {
            countryCode,
            vatNumber,
            requestDate: new Date().toISOString(),
            valid,
            requestIdentifier: '',
            name: valid ? 'STAND-IN TRADER' : '---',
            address: valid ? 'STAND-IN ADDRESS' : '---',
          });
          return;
        }
        case 'ms_unavailable':
          json(response, 200, {
            actionSucceed: false,
            errorWrappers: [{ error: 'MS_UNAVAILABLE', message: 'The member state service is unavailable' }],
          });
          return;
        case 'user_error':
          json(response, 200, { countryCode, vatNumber, valid: false, userError: 'MS_MAX_CONCURRENT_REQ' });
          return;
        case 'server_error':
          json(response, 500, { actionSucceed: false, errorWrappers: [{ error: 'SERVICE_UNAVAILABLE' }] });
          return;
        case 'gateway_error':
          response.writeHead(503, { 'content-type': 'text/html' }).end('<html>Service Unavailable</html>');
          return;
        case 'invalid_input':
          json(response, 400, { actionSucceed: false, errorWrappers: [{ error: 'INVALID_INPUT' }] });
          return;
        case 'hang':
          hanging.add(response);
          return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/taxation_customs/vies/rest-api/check-vat-number`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}
