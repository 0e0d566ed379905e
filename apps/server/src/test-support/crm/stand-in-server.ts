import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The parsed body: JSON, or the fields of a form. */
  body: unknown;
  form: URLSearchParams;
}

export interface StandInAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type StandInRoute = (request: StandInRequest, match: RegExpExecArray) => StandInAnswer;

/** An answer given instead of the real one, to the next `times` requests matching `method` and `path`. */
export interface InjectedFailure {
  method: string;
  path: RegExp;
  times: number;
  answer: StandInAnswer;
}

/**
 * The HTTP plumbing of the CRM stand-ins: routing, body parsing, a log of every request, and
 * failures injected on demand (429 with Retry-After, 5xx).
 */
export class StandInServer {
  readonly requests: StandInRequest[] = [];
  readonly #failures: InjectedFailure[] = [];
  readonly #server: Server;
  readonly #routes: [method: string, path: RegExp, route: StandInRoute][] = [];
  #url = '';

  constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const url = new URL(request.url ?? '/', 'http://stand-in');
        const raw = Buffer.concat(chunks).toString('utf8');
        const form = new URLSearchParams(
          request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ? raw : '',
        );
        let body: unknown = Object.fromEntries(form);
        if (request.headers['content-type']?.startsWith('application/json') && raw) {
          try {
            body = JSON.parse(raw) as unknown;
          } catch {
            body = undefined;
          }
        }
        const received: StandInRequest = {
          method: request.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: request.headers,
          body,
          form,
        };
        this.requests.push(received);
        const answer = this.#answer(received);
        response.writeHead(answer.status, {
          ...(answer.body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
          ...answer.headers,
        });
        response.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
      });
    });
  }

  get url(): string {
    return this.#url;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.#url;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  /** What the stand-in answers: the first route matching the method and path. */
  protected route(method: string, path: RegExp, route: StandInRoute): void {
    this.#routes.push([method, path, route]);
  }

  /** The next `times` requests to `method path` get this answer instead. */
  protected answerNext(method: string, path: RegExp, answer: StandInAnswer, times = 1): void {
    this.#failures.push({ method, path, answer, times });
  }

  #answer(request: StandInRequest): StandInAnswer {
    const failure = this.#failures.find(
      (candidate) => candidate.method === request.method && candidate.path.test(request.path),
    );
    if (failure) {
      failure.times -= 1;
      if (failure.times <= 0) this.#failures.splice(this.#failures.indexOf(failure), 1);
      return failure.answer;
    }
    for (const [method, path, route] of this.#routes) {
      const match = method === request.method ? path.exec(request.path) : null;
      if (match) return route(request, match);
    }
    return { status: 404, body: { message: `no route ${request.method} ${request.path}` } };
  }
}

/** The bearer token of a request, if any. */
export function bearerOf(request: StandInRequest): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** HTTP Basic client credentials of a request, if any. */
export function basicOf(request: StandInRequest): { id: string; secret: string } | undefined {
  const encoded = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!encoded) return undefined;
  const [id = '', secret = ''] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
  return { id, secret };
}

let counter = 0;
/** A random-looking token with a recognisable prefix. */
export function standInToken(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter.toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
