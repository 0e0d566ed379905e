import { apiErrorSchema } from '@verbatim/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors/app-error.js';
import {
  paymentWebhookPath,
  type PaymentEvent,
  type PaymentProvider,
} from '../../platform/payments/payment-provider.js';

/**
 * Acts on one verified event: records the payment's new status and, for `succeeded`, credits it
 * exactly once. Throwing answers 500, so the provider delivers the event again later.
 */
export type PaymentEventHandler = (event: PaymentEvent) => Promise<void>;

/** Webhook bodies are small (a Stripe event is a few kilobytes). */
const webhookBodyLimit = 512 * 1024;

export const webhookAcknowledgementSchema = z
  .object({ received: z.literal(true) })
  .meta({ id: 'WebhookAcknowledgement' });

/**
 * POST /limiter/payments/webhook/{provider} for the configured provider only (register with the
 * /api/v1 prefix). The signature covers the exact bytes sent, so this plugin keeps the body as a
 * Buffer whatever its content type, instead of parsing JSON; the parser is scoped to the plugin.
 * Not rate limited: a provider delivers in bursts, and an unsigned request costs one HMAC.
 */
export function paymentWebhookRoutes(
  provider: PaymentProvider,
  onEvent: PaymentEventHandler,
): FastifyPluginAsyncZod {
  return (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: webhookBodyLimit },
      (_request, body, done) => done(null, body),
    );

    app.post(
      paymentWebhookPath(provider.id).replace(/^\/api\/v1/, ''),
      {
        config: { rateLimit: false },
        schema: {
          tags: ['payments'],
          summary: `Events of the payment provider (${provider.id})`,
          description:
            "Called by the payment provider, never by people: the request must carry the provider's signature " +
            '(Stripe-Signature for Stripe) over its exact body. Checkout session events change the status of ' +
            'the payment; a paid one adds its credit, exactly once however often the event arrives.',
          response: { 200: webhookAcknowledgementSchema, '4xx': apiErrorSchema, '5xx': apiErrorSchema },
        },
      },
      async (request) => {
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) {
          throw new AppError('BAD_REQUEST', 'A webhook request has a body.');
        }
        const event = await provider.verifyWebhook(body, request.headers);
        if (event) {
          request.log.info(
            {
              provider: event.provider,
              eventId: event.eventId,
              type: event.type,
              sessionId: event.sessionId,
            },
            'payment event received',
          );
          await onEvent(event);
        }
        return { received: true as const };
      },
    );
    return Promise.resolve();
  };
}
