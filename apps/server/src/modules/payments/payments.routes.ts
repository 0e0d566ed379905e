import {
  apiErrorSchema,
  paymentInitRequestSchema,
  paymentSessionSchema,
  paymentsPageQuerySchema,
  paymentsPageSchema,
} from '@verbatim/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInAccount } from '../../http/authenticate.js';
import type { PaymentsService } from './payments.service.js';

const errors = { '4xx': apiErrorSchema, '5xx': apiErrorSchema };
const security = [{ consoleSession: [] }];
const paymentParamsSchema = z.object({ paymentId: z.string().min(1).max(64) });

/** Spec §7 /limiter payments: buying credit and its history, from a console session. */
export function paymentsRoutes(
  service: PaymentsService,
  consoleSession: onRequestAsyncHookHandler,
): FastifyPluginAsyncZod {
  return (app) => {
    app.addHook('onRequest', consoleSession);

    app.post(
      '/limiter/payment-sessions',
      {
        // Each call opens a session at the provider: a burst is a script gone wrong.
        config: { rateLimit: { max: 60, timeWindow: 10 * 60_000 } },
        schema: {
          tags: ['payments'],
          summary: "Open the provider's checkout for a purchase of credit; send the browser to `url`",
          description:
            'The VAT rate and total are what the customer confirmed: the server recomputes both from the credits, ' +
            'the country and the VAT number, and answers PAYMENT_AMOUNT_CHANGED when they differ. The credit is ' +
            "added when the provider's signed webhook says the payment succeeded, never on the browser's return.",
          security,
          body: paymentInitRequestSchema,
          response: { 201: paymentSessionSchema, ...errors },
        },
      },
      async (request, reply) => {
        const session = await service.createSession(signedInAccount(request), request.body);
        return reply.status(201).header('cache-control', 'no-store').send(session);
      },
    );

    app.get(
      '/limiter/payments',
      {
        schema: {
          tags: ['payments'],
          summary: 'The billing history, newest first, a page at a time (start is an offset)',
          security,
          querystring: paymentsPageQuerySchema,
          response: { 200: paymentsPageSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { start, limit } = request.query;
        const page = await service.page(signedInAccount(request).id, start, limit);
        return reply.header('cache-control', 'no-store').send(page);
      },
    );

    app.get(
      '/limiter/payments/:paymentId/invoice',
      {
        schema: {
          tags: ['payments'],
          summary: 'The invoice of a succeeded payment, as a PDF (application/pdf), for its owner',
          security,
          params: paymentParamsSchema,
          produces: ['application/pdf'],
          response: { 200: z.any().describe('the invoice PDF'), ...errors },
        },
      },
      async (request, reply) => {
        // Someone else's payment is answered exactly like a missing one.
        const { number, pdf } = await service.invoicePdf(
          signedInAccount(request).id,
          request.params.paymentId,
        );
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${number}.pdf"`)
          .header('cache-control', 'private, no-cache')
          .send(pdf);
      },
    );
    return Promise.resolve();
  };
}
