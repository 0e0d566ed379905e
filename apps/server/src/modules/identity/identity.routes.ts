import type { IncomingMessage } from 'node:http';
import * as querystring from 'node:querystring';
import { apiErrorSchema, tokenResponseSchema } from '@verbatim/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import { controlCharacterRefusal } from '../../http/control-characters.js';
import { markApiAlias, translateApiAliasErrors } from './api-alias-errors.js';
import { passwordGrantsOnly, type SignInRateLimit } from './sign-in-rate-limit.js';

type RawRequest = IncomingMessage & { originalUrl?: string; body?: string };

/**
 * Mounts the OpenID Connect provider (a Koa application) under /oidc, and the spec's
 * /api/v1/auth/profile/verify as another address of its token endpoint. The provider reads the
 * request body itself, so Fastify must leave the stream untouched on these routes. Password grants on
 * either token address spend the client address's sign-in budget (`signInLimit`).
 */
export function identityProviderRoutes(provider: Provider, publicUrl: string, signInLimit: SignInRateLimit) {
  const limitPasswordGrants = passwordGrantsOnly(signInLimit);
  translateApiAliasErrors(provider);
  const handle = provider.callback();
  const canonical = new URL(publicUrl);
  const forward =
    (toProviderPath: (url: string) => string, { apiAlias = false } = {}) =>
    (request: FastifyRequest, reply: FastifyReply) => {
      // Headers set by our hooks (security headers, request id) would be lost once the reply is hijacked.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.hijack();
      const raw = request.raw as RawRequest;
      if (apiAlias) markApiAlias(raw);
      // The provider trusts these three headers (its proxy mode) and nothing else from the client:
      // its endpoints always carry the public URL, and the client address is the one Fastify
      // established (which honours TRUST_PROXY).
      raw.headers['x-forwarded-host'] = canonical.host;
      raw.headers['x-forwarded-proto'] = canonical.protocol.replace(':', '');
      raw.headers['x-forwarded-for'] = request.ip;
      const url = raw.url ?? '/';
      const providerPath = toProviderPath(url);
      // oidc-provider derives its mount path from the difference between these two.
      raw.originalUrl = `/oidc${providerPath}`;
      raw.url = providerPath;
      if (typeof request.body === 'string') raw.body = request.body;
      void handle(raw, reply.raw);
    };

  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    // Forms are read here, as the provider would (up to its 56 KiB), so that their fields follow
    // the control-character rule of every input (a NUL in client_id or username reached the
    // database); the provider then takes the body as read (its fallback for a parsed body).
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 56 * 1024 },
      (_request, body, done) => done(null, body),
    );
    app.addHook('preValidation', (request, _reply, done) => {
      const form = typeof request.body === 'string' ? querystring.parse(request.body) : undefined;
      done(controlCharacterRefusal([form, 'body']));
    });

    const toMounted = forward((url) => url.slice('/oidc'.length) || '/');
    app.all('/oidc', { schema: { hide: true } }, toMounted);
    app.all('/oidc/*', { schema: { hide: true } }, toMounted);
    app.post('/oidc/token', { schema: { hide: true }, preHandler: limitPasswordGrants }, toMounted);

    // The spec's address of the device flow's verification page (fields user_code, xsrf, confirm).
    const toDevicePage = forward((url) => `/device${url.includes('?') ? url.slice(url.indexOf('?')) : ''}`, {
      apiAlias: true,
    });
    const devicePage = (summary: string) => ({
      schema: {
        tags: ['auth'],
        summary,
        description:
          'HTML pages of the OAuth 2.0 device authorization grant (RFC 8628), for people: a device shows a ' +
          'code, the user enters it here (form fields user_code and xsrf), signs in, then confirms (confirm).',
        produces: ['text/html'],
        response: { 200: z.string().describe('an HTML page'), '4xx': apiErrorSchema },
      },
    });
    app.get('/api/v1/oauth/device', devicePage('The page where a device code is entered'), toDevicePage);
    app.post(
      '/api/v1/oauth/device',
      {
        ...devicePage('Submit a device code, or confirm the device'),
        config: { openApiRequestBody: deviceFormBody },
        // The form is the one the page above served, in the same browser session: without that
        // session's cookie there is nothing to submit it to (and the provider would fail saving one).
        onRequest: (request, _reply, done) => {
          if (/(?:^|;\s*)_session=/.test(request.headers.cookie ?? '')) return done();
          done(new AppError('BAD_REQUEST', 'Open the device page first: this form belongs to its session.'));
        },
      },
      toDevicePage,
    );

    app.post(
      '/api/v1/auth/profile/verify',
      {
        config: { openApiRequestBody: tokenRequestBody },
        preHandler: limitPasswordGrants,
        schema: {
          tags: ['auth'],
          summary: 'Sign in: the token endpoint of the identity provider',
          description:
            'An application/x-www-form-urlencoded OAuth 2.0 token request with client_id=verbatim-console and ' +
            'grant_type=password (username, password, and reCaptchaKey once the captcha is required) or ' +
            'grant_type=refresh_token (refresh_token). Wrong credentials answer 401 INVALID_CREDENTIALS; repeated ' +
            'failures 429 CAPTCHA_REQUIRED; accounts that may not sign in 403 (EMAIL_NOT_VERIFIED, ' +
            'ACCOUNT_PENDING_APPROVAL, ACCOUNT_INACTIVE).',
          response: { 200: tokenResponseSchema, '4xx': apiErrorSchema },
        },
      },
      forward((url) => `/token${url.includes('?') ? url.slice(url.indexOf('?')) : ''}`, { apiAlias: true }),
    );
    return Promise.resolve();
  };
}

const formField = (description: string) => ({ type: 'string', minLength: 1, maxLength: 8192, description });

/** The token request of the console (the fields each grant type reads). */
const tokenRequestBody = {
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        required: ['client_id', 'grant_type'],
        properties: {
          client_id: { type: 'string', enum: ['verbatim-console'] },
          grant_type: {
            type: 'string',
            enum: ['password', 'refresh_token', 'urn:verbatim:params:oauth:grant-type:email-verification'],
          },
          username: formField('grant_type=password: the e-mail address'),
          password: formField('grant_type=password'),
          reCaptchaKey: formField('grant_type=password, once the captcha is required'),
          refresh_token: formField('grant_type=refresh_token'),
          code: formField('the e-mail verification grant: the code of the verification link'),
        },
      },
    },
  },
};

/** The device page's form: a user code to look up, then its confirmation (or abort). */
const deviceFormBody = {
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        required: ['xsrf'],
        properties: {
          xsrf: formField('the token of the page that showed the form'),
          user_code: formField('the code the device shows'),
          confirm: formField('set to confirm the device'),
          abort: formField('set to refuse the device'),
        },
      },
    },
  },
};
