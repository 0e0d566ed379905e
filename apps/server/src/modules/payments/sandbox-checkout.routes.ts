import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  sandboxCheckoutPath,
  type SandboxPaymentProvider,
  type SandboxSession,
} from '../../platform/payments/sandbox-provider.js';
import {
  checkoutFormPage,
  checkoutNoticePage,
  pageLanguage,
  type CheckoutFormView,
  type Language,
} from './sandbox-checkout-page.js';

/** What the product knows of a session: `paid` and `closed` ones show a notice instead of the form. */
export type SandboxSessionState = 'open' | 'paid' | 'closed';

export interface SandboxCheckoutOptions {
  sandbox: SandboxPaymentProvider;
  /** The name the customer pays (the product name). */
  merchant: string;
  /**
   * Looks the session up on the product's side (its payment), so that a session already paid is not
   * charged twice, e.g. from the browser's back button. Without it every unexpired session is open;
   * crediting stays exactly-once either way, since it is idempotent per payment.
   */
  sessionState?: (sessionId: string) => Promise<SandboxSessionState>;
}

const tokenField = z.string().max(8192).default('');
const languageField = z.string().max(8).optional();

const checkoutQuerySchema = z.object({ session: tokenField, lang: languageField });
const checkoutFormSchema = z.object({
  session: tokenField,
  lang: languageField,
  number: z.string().max(64).default(''),
  expiry: z.string().max(16).default(''),
  cvc: z.string().max(16).default(''),
  name: z.string().max(200).default(''),
});

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Answers with one of the checkout's pages. Its own content security policy: no scripts at all,
 * and form submissions may land on the session's return addresses (browsers apply form-action to
 * the redirect that follows the POST). Never cached: the form can carry what the customer typed.
 */
function sendPage(reply: FastifyReply, status: number, html: string, session?: SandboxSession) {
  const returnOrigins = session
    ? [...new Set([originOf(session.successUrl), originOf(session.cancelUrl)])].filter(Boolean)
    : [];
  return reply
    .status(status)
    .header(
      'content-security-policy',
      [
        "default-src 'none'",
        "style-src 'unsafe-inline'",
        `form-action 'self' ${returnOrigins.join(' ')}`.trim(),
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ].join('; '),
    )
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

/**
 * The sandbox's hosted checkout page: GET shows the card form of a session (its sealed token in
 * `?session=`), POST pays it with a test card. The session token is the only credential, as a
 * provider's checkout URL is: unguessable, bound to one payment, and it grants nothing but paying
 * that payment. No cookie is involved, so a forged cross-site POST could do nothing its sender
 * could not do by holding the token; there is therefore no anti-CSRF nonce. Framing is refused
 * (frame-ancestors), which rules out clickjacking the Pay button.
 *
 * Register at the root (no prefix); not under /api, so it stays out of the OpenAPI document.
 */
export function sandboxCheckoutRoutes(options: SandboxCheckoutOptions): FastifyPluginAsyncZod {
  const { sandbox, merchant } = options;

  /** The open session of a token, or the page that says why there is none. */
  async function openOrNotice(
    reply: FastifyReply,
    token: string,
    language: string | undefined,
    acceptLanguage: string | undefined,
  ): Promise<{ session: SandboxSession; lang: Language } | { answered: FastifyReply }> {
    const opened = sandbox.openSession(token);
    if (opened.status === 'invalid') {
      const lang = pageLanguage(language, undefined, acceptLanguage);
      return { answered: sendPage(reply, 404, checkoutNoticePage(lang, 'invalid', merchant, '/')) };
    }
    const { session } = opened;
    const lang = pageLanguage(language, session, acceptLanguage);
    // Expired, paid and closed sessions get a notice instead of the form; paid ones lead back to success.
    const notice = (kind: 'expired' | 'paid' | 'closed', status: number, url: string) => ({
      answered: sendPage(reply, status, checkoutNoticePage(lang, kind, merchant, url), session),
    });
    if (opened.status === 'expired') return notice('expired', 410, session.cancelUrl);
    const state = (await options.sessionState?.(session.sessionId)) ?? 'open';
    if (state === 'paid') return notice('paid', 200, session.successUrl);
    if (state === 'closed') return notice('closed', 410, session.cancelUrl);
    return { session, lang };
  }

  return (app) => {
    // A plain HTML form posts application/x-www-form-urlencoded; only these routes read it.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16_384 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.get(
      sandboxCheckoutPath,
      { schema: { hide: true, querystring: checkoutQuerySchema } },
      async (request, reply) => {
        const { session: token, lang } = request.query;
        const opened = await openOrNotice(reply, token, lang, request.headers['accept-language']);
        if ('answered' in opened) return opened.answered;
        const view: CheckoutFormView = { lang: opened.lang, merchant, token, session: opened.session };
        return sendPage(reply, 200, checkoutFormPage(view), opened.session);
      },
    );

    app.post(
      sandboxCheckoutPath,
      { schema: { hide: true, body: checkoutFormSchema } },
      async (request, reply) => {
        const { session: token, lang, number, expiry, cvc, name } = request.body;
        const opened = await openOrNotice(reply, token, lang, request.headers['accept-language']);
        if ('answered' in opened) return opened.answered;
        const { session } = opened;
        const view: CheckoutFormView = {
          lang: opened.lang,
          merchant,
          token,
          session,
          values: { number, expiry, name },
        };
        const result = await sandbox.pay(session, { number, expiry, cvc, name });
        switch (result.outcome) {
          case 'paid':
            // 303: the browser follows with a GET, as after any form.
            return reply.header('cache-control', 'no-store').redirect(result.redirectTo, 303);
          case 'invalid_card':
            return sendPage(reply, 422, checkoutFormPage({ ...view, problems: result.problems }), session);
          case 'declined':
            // The customer tries another card: keep the name and expiry, not the declined number.
            return sendPage(
              reply,
              402,
              checkoutFormPage({ ...view, values: { number: '', expiry, name }, decline: result.reason }),
              session,
            );
          case 'undelivered':
            return sendPage(reply, 502, checkoutFormPage({ ...view, undelivered: true }), session);
        }
      },
    );
    return Promise.resolve();
  };
}
