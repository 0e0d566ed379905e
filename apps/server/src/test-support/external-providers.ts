import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

export interface StandInProvider {
  url: string;
  close(): Promise<void>;
}

/**
 * Stands in for Google: a real OpenID Connect provider (panva's oidc-provider) with its development
 * login pages, where any login name signs in as `<login>@gmail.test`.
 */
export async function startGoogleStandIn(options: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}) {
  const server = createServer();
  const url = await listen(server);
  const provider = new Provider(url, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({
        sub: `google-${id}`,
        email: `${id}@gmail.test`,
        email_verified: true,
        name: `Test ${id}`,
      }),
    }),
    features: { devInteractions: { enabled: true } },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => void handle(req, res));
  return { url, close: () => close(server) } satisfies StandInProvider;
}

/** Follows the stand-in's login and consent pages as a browser would; returns the code for the redirect URI. */
export async function authorizeAtGoogleStandIn(authorizationUrl: string, login: string): Promise<URL> {
  const cookies = new Map<string, string>();
  const request = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) cookies.set(name, value.join('='));
    }
    return response;
  };
  const origin = new URL(authorizationUrl).origin;
  let response = await request(authorizationUrl);
  for (let step = 0; step < 10; step++) {
    const location = response.headers.get('location');
    if (!location) throw new Error(`stand-in stopped at ${response.status}: ${await response.text()}`);
    const target = new URL(location, origin);
    if (target.origin !== origin) return target;
    if (/^\/interaction\/[\w-]+$/.test(target.pathname)) {
      const page = await (await request(target.toString())).text();
      // The development pages post both steps to the same address, naming the step.
      const body: Record<string, string> = page.includes('name="login"')
        ? { prompt: 'login', login, password: 'anything' }
        : { prompt: 'consent' };
      response = await request(target.toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      });
    } else {
      response = await request(target.toString());
    }
  }
  throw new Error('too many redirects at the stand-in');
}

/** Stands in for GitHub's OAuth and REST API: each code in `users` signs in as that user. */
export async function startGithubStandIn(
  users: Record<string, { id: number; login: string; name: string; email: string; verified: boolean }>,
  client: { clientId: string; clientSecret: string },
) {
  const server = createServer((req, res) => {
    const respond = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const user = Object.values(users).find(
      (candidate) => req.headers.authorization === `Bearer token-${candidate.id}`,
    );
    if (req.method === 'POST' && req.url === '/login/oauth/access_token') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const known = users[form.get('code') ?? ''];
        if (form.get('client_id') !== client.clientId || form.get('client_secret') !== client.clientSecret) {
          return respond(401, { error: 'incorrect_client_credentials' });
        }
        if (!known || !form.get('code_verifier')) return respond(200, { error: 'bad_verification_code' });
        return respond(200, {
          access_token: `token-${known.id}`,
          token_type: 'bearer',
          scope: 'read:user,user:email',
        });
      });
      return;
    }
    if (!user) return respond(401, { message: 'Bad credentials' });
    if (req.url === '/user') return respond(200, { id: user.id, login: user.login, name: user.name });
    if (req.url === '/user/emails')
      return respond(200, [{ email: user.email, primary: true, verified: user.verified }]);
    return respond(404, { message: 'Not Found' });
  });
  const url = await listen(server);
  return { url, close: () => close(server) } satisfies StandInProvider;
}
