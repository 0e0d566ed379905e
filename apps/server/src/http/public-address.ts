import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';

/**
 * The console works at one address only, PUBLIC_URL: the identity provider accepts sign-ins from
 * that origin alone, and e-mails link there. Someone who opens it at another one (the server's IP
 * address, a second host name, 127.0.0.1 for localhost) is sent to PUBLIC_URL instead of failing
 * at sign-in; the API answers at any address (scripts call it by IP).
 */
export type ConsolePageAnswer =
  | { kind: 'serve' }
  | { kind: 'redirect'; location: string }
  /** Redirecting cannot work; the console, given PUBLIC_URL, explains which address to use. */
  | { kind: 'explain' };

/** Set on a redirect: coming back with it means the redirect went round in a circle. */
const redirectMarker = 'verbatim_public_url_redirect';
const redirectMarkerMaxAgeSeconds = 60;
/** Host names logged about at most; each further one is not (the Host header is the client's choice). */
const maxLoggedHosts = 100;

export class PublicAddress {
  readonly url: string;
  readonly #canonical: URL;
  readonly #loggedHosts = new Set<string>();

  constructor(
    publicUrl: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.url = publicUrl.replace(/\/+$/, '');
    this.#canonical = new URL(this.url);
  }

  /** Whether a browser page at `origin` (an Origin header) is the console's own. */
  isPublicOrigin(origin: string): boolean {
    return origin.toLowerCase() === this.#canonical.origin.toLowerCase();
  }

  /** What to do with a request for one of the console's pages (its index.html). */
  answerConsolePage(request: FastifyRequest): ConsolePageAnswer {
    const host = request.host.toLowerCase();
    if (host === this.#canonical.host.toLowerCase()) return { kind: 'serve' };

    if (hasCookie(request, redirectMarker)) {
      // The browser followed our redirect to PUBLIC_URL and arrived with another Host header still:
      // a proxy in front rewrites it. The console works (its origin is PUBLIC_URL's), so serve it.
      this.#logOnce(
        `proxied:${host}`,
        { host, publicUrl: this.url },
        'requests for PUBLIC_URL arrive with another Host header: a proxy in front rewrites it. ' +
          'Have it keep the Host header, or set TRUST_PROXY=true and have it send X-Forwarded-Host and ' +
          'X-Forwarded-Proto; until then the console answers every page load through an extra redirect',
      );
      return { kind: 'serve' };
    }
    if (isLoopbackHost(this.#canonical.hostname) && !isLoopbackAddress(request.ip)) {
      // PUBLIC_URL names this machine itself (the default, localhost) but the browser runs on
      // another one: a redirect would take it to its own machine. The console says what to set.
      this.#logOnce(
        `explain:${host}`,
        { host, publicUrl: this.url, client: request.ip },
        `the console was opened at ${host} by a client at ${request.ip}, but PUBLIC_URL is ${this.url}, ` +
          'which names the machine the browser runs on, so a redirect cannot help: the console shows ' +
          'which address to use. Set PUBLIC_URL to the address users open (for example ' +
          `${request.protocol}://${host}) and restart; sign-in works at PUBLIC_URL only`,
      );
      return { kind: 'explain' };
    }
    this.#logOnce(
      `redirect:${host}`,
      { host, publicUrl: this.url },
      `the console was opened at ${host}, not at PUBLIC_URL (${this.url}): page loads there are redirected ` +
        'to PUBLIC_URL, where sign-in works. If users should open it at that address, set PUBLIC_URL to it',
    );
    return { kind: 'redirect', location: `${this.url}${request.url}` };
  }

  /** Sends the redirect of `answerConsolePage`, marked so that a redirect loop is noticed. */
  redirect(reply: FastifyReply, location: string): FastifyReply {
    return reply
      .header(
        'set-cookie',
        `${redirectMarker}=1; Max-Age=${redirectMarkerMaxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax`,
      )
      .header('cache-control', 'no-store')
      .redirect(location, 302);
  }

  /**
   * The onRequest hook of the API's token endpoint: a browser page at another origin than
   * PUBLIC_URL's cannot sign in there (the identity provider allows the console's origin only), so
   * it gets an API error that says where to sign in instead of the provider's bare 400. Programs
   * send no Origin header and are not concerned.
   */
  refuseForeignBrowserOrigin(request: FastifyRequest): void {
    const origin = request.headers.origin;
    if (origin === undefined || this.isPublicOrigin(origin)) return;
    this.#logOnce(
      `origin:${origin}`,
      { origin, publicUrl: this.url },
      `a sign-in came from a page at ${origin}, not at PUBLIC_URL (${this.url}), and was refused`,
    );
    throw new AppError(
      'BAD_REQUEST',
      `Sign in at ${this.url}: this server's address, set by PUBLIC_URL. This page is at ${origin}, ` +
        'where signing in is not possible.',
    );
  }

  #logOnce(key: string, fields: Record<string, string>, message: string): void {
    if (this.#loggedHosts.has(key) || this.#loggedHosts.size >= maxLoggedHosts) return;
    this.#loggedHosts.add(key);
    this.log.warn(fields, message);
  }
}

/** The token endpoint of the API, for `refuseForeignBrowserOrigin`. */
export function registerPublicAddressChecks(app: FastifyInstance, address: PublicAddress): void {
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      if (request.method === 'POST' && request.routeOptions.url === '/api/v1/auth/profile/verify') {
        address.refuseForeignBrowserOrigin(request);
      }
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}

function hasCookie(request: FastifyRequest, name: string): boolean {
  const header = request.headers.cookie;
  return header !== undefined && header.split(';').some((pair) => pair.trim().startsWith(`${name}=`));
}

/** localhost, *.localhost, 127.0.0.0/8 and ::1: names that reach the machine the browser runs on. */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name)
  );
}

function isLoopbackAddress(ip: string): boolean {
  return isLoopbackHost(ip.replace(/^::ffff:/i, ''));
}
