import * as querystring from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors/app-error.js';

/** A route hook that refuses a client address's sign-in attempts beyond its budget, with 429 RATE_LIMITED. */
export type SignInRateLimit = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * One budget of password checks per client address and minute (SIGNIN_REQUESTS_PER_MINUTE_PER_IP),
 * shared by every address that checks one: the console's token address and the provider's own
 * token endpoint (password grants: an application's server exchanging codes or renewing tokens
 * for its users checks no password) and the authorization-code flow's sign-in steps. A budget per
 * address would let a password guesser go through each in turn. Needs @fastify/rate-limit registered.
 */
export function signInRateLimit(app: FastifyInstance, perMinute: number): SignInRateLimit {
  const limiter = app.createRateLimit({ max: perMinute, timeWindow: 60_000 });
  return async (request, reply) => {
    const outcome = await limiter(request);
    if (outcome.isAllowed || !outcome.isExceeded) return;
    void reply.header('retry-after', String(outcome.ttlInSeconds));
    throw new AppError(
      'RATE_LIMITED',
      `Too many sign-in attempts from this address. Try again in ${outcome.ttlInSeconds} s.`,
    );
  };
}

/** The same budget for an OAuth token request, counted only when it is a password grant (a form body read as text). */
export function passwordGrantsOnly(limit: SignInRateLimit): SignInRateLimit {
  return async (request, reply) => {
    if (typeof request.body !== 'string') return;
    if (querystring.parse(request.body).grant_type !== 'password') return;
    await limit(request, reply);
  };
}
