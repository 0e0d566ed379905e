import {
  apiErrorSchema,
  connectIntegrationRequestSchema,
  connectIntegrationResponseSchema,
  contactsPageSchema,
  contactsQuerySchema,
  contactUrlQuerySchema,
  contactUrlSchema,
  crmDeliveriesQuerySchema,
  crmDeliveryListSchema,
  crmDeliverySchema,
  crmProviderIdSchema,
  crmProviderListSchema,
  integrationListSchema,
  sendTextToCrmRequestSchema,
  resourceIdParamsSchema,
  sendToCrmRequestSchema,
} from '@verbatim/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInAccount } from '../../http/authenticate.js';
import { publicApiSecurity } from '../api-keys/api-authentication.js';
import type { CrmDeliveriesService } from './crm-deliveries.service.js';
import type { IntegrationsService } from './integrations.service.js';

const errors = { '4xx': apiErrorSchema, '5xx': apiErrorSchema };
const consoleSecurity = [{ consoleSession: [] }];
const tags = ['integrations'];

/**
 * Spec §7 /providers, /integrations, /contacts, and the CRM deliveries of transcripts. Connections
 * are managed from a console session; contacts and deliveries also answer API keys.
 */
export function integrationsRoutes(
  services: { integrations: IntegrationsService; deliveries: CrmDeliveriesService },
  hooks: { authenticateApi: onRequestAsyncHookHandler; consoleSession: onRequestAsyncHookHandler },
): FastifyPluginAsyncZod {
  const { integrations, deliveries } = services;
  return (app) => {
    app.get(
      '/providers',
      {
        onRequest: hooks.authenticateApi,
        schema: {
          tags,
          summary: 'The CRMs this server connects to, how they can be connected here, and what they can do',
          security: publicApiSecurity,
          response: { 200: crmProviderListSchema, ...errors },
        },
      },
      () => ({ providers: integrations.providers() }),
    );

    app.get(
      '/integrations',
      {
        onRequest: hooks.consoleSession,
        schema: {
          tags,
          summary: "The account's CRM connections, with their status",
          security: consoleSecurity,
          response: { 200: integrationListSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .header('cache-control', 'no-store')
          .send({ integrations: await integrations.list(signedInAccount(request).id) }),
    );

    app.post(
      '/integrations',
      {
        onRequest: hooks.consoleSession,
        config: { rateLimit: { max: 30, timeWindow: 10 * 60_000 } },
        schema: {
          tags,
          summary: 'Connect a CRM: with a personal token (checked against the provider), or by OAuth',
          description:
            "With `token`, the answer is the stored connection (201). Without it, the answer is the provider's " +
            'authorization page (200): send the browser there; the provider returns it to the callback, which ' +
            'stores the tokens and returns to the console. Connecting the same CRM account again replaces its ' +
            'tokens (a reconnection) and resumes the deliveries that waited for it. Tokens are never returned.',
          security: consoleSecurity,
          body: connectIntegrationRequestSchema,
          response: {
            200: connectIntegrationResponseSchema,
            201: connectIntegrationResponseSchema,
            ...errors,
            502: apiErrorSchema.describe(
              'CRM_UNREACHABLE: the CRM could not be reached to check the token (or failed); ' +
                'try again after the Retry-After header (seconds).',
            ),
          },
        },
      },
      async (request, reply) => {
        const answer = await integrations.connect(signedInAccount(request).id, request.body);
        return reply
          .status(answer.kind === 'connected' ? 201 : 200)
          .header('cache-control', 'no-store')
          .send(answer);
      },
    );

    app.delete(
      '/integrations/:id',
      {
        onRequest: hooks.consoleSession,
        schema: {
          tags,
          summary: 'Disconnect: revoke the token at the provider where it can be revoked, then forget it',
          security: consoleSecurity,
          params: resourceIdParamsSchema,
          response: { 204: z.null().describe('disconnected'), ...errors },
        },
      },
      async (request, reply) => {
        await integrations.remove(signedInAccount(request).id, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/integrations/oauth/:provider/callback',
      {
        schema: {
          tags,
          summary:
            "The provider's OAuth redirect: checks the single-use state, stores the tokens, returns to the console",
          params: z.object({ provider: crmProviderIdSchema }),
          querystring: z.object({
            code: z.string().max(2048).optional(),
            state: z.string().max(256).optional(),
            error: z.string().max(256).optional(),
          }),
          response: { 302: z.null().describe('back to the console'), ...errors },
        },
      },
      async (request, reply) => {
        const target = await integrations.completeOAuth(request.params.provider, request.query);
        return reply.header('cache-control', 'no-store').redirect(target, 302);
      },
    );

    app.get(
      '/contacts',
      {
        onRequest: hooks.authenticateApi,
        schema: {
          tags,
          summary: 'A page of CRM contacts, searched with `q`; follow `next_page_url` for the next page',
          security: publicApiSecurity,
          querystring: contactsQuerySchema,
          response: { 200: contactsPageSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .header('cache-control', 'no-store')
          .send(await integrations.contacts(signedInAccount(request).id, request.query)),
    );

    app.get(
      '/contacts/contact-url',
      {
        onRequest: hooks.authenticateApi,
        schema: {
          tags,
          summary: "The contact's record page in the provider's web app",
          security: publicApiSecurity,
          querystring: contactUrlQuerySchema,
          response: { 200: contactUrlSchema, ...errors },
        },
      },
      async (request) => ({ url: await integrations.contactUrl(signedInAccount(request).id, request.query) }),
    );

    app.post(
      '/transcripts/:id/crm',
      {
        onRequest: hooks.authenticateApi,
        schema: {
          tags,
          summary: "Send a done transcript to a contact's record as a note or a task (queued: 202)",
          description:
            'The same transcript, contact and kind sent twice make one record (the first delivery is answered); ' +
            'an `Idempotency-Key` header makes any request repeatable. The note or task carries the file name, ' +
            "date, language, duration and the transcript text, cut to the provider's limit.",
          security: publicApiSecurity,
          params: resourceIdParamsSchema,
          headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
          body: sendToCrmRequestSchema,
          response: { 202: crmDeliverySchema, ...errors },
        },
      },
      async (request, reply) => {
        const delivery = await deliveries.send(
          signedInAccount(request).id,
          request.params.id,
          request.body,
          request.headers['idempotency-key'] ?? null,
        );
        return reply.status(202).send(delivery);
      },
    );

    app.post(
      '/crm-deliveries',
      {
        onRequest: hooks.authenticateApi,
        schema: {
          tags,
          summary: "Send a text (a live session's) to a contact's record as a note or a task (queued: 202)",
          description:
            'For text that is not a stored transcript, such as a live transcription session. The text is kept ' +
            'with the delivery, whose `transcriptId` is derived from the text: the same text, contact and kind ' +
            'sent twice make one record, and `GET /crm-deliveries?transcriptId=` follows it. Retried like ' +
            'transcript deliveries; an `Idempotency-Key` header makes any request repeatable.',
          security: publicApiSecurity,
          headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
          body: sendTextToCrmRequestSchema,
          response: { 202: crmDeliverySchema, ...errors },
        },
      },
      async (request, reply) => {
        const delivery = await deliveries.sendText(
          signedInAccount(request).id,
          request.body,
          request.headers['idempotency-key'] ?? null,
        );
        return reply.status(202).send(delivery);
      },
    );

    app.get(
      '/crm-deliveries',
      {
        onRequest: hooks.authenticateApi,
        schema: {
          tags,
          summary: "A transcript's CRM deliveries: status, attempts, last error and the record's URL",
          security: publicApiSecurity,
          querystring: crmDeliveriesQuerySchema,
          response: { 200: crmDeliveryListSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.header('cache-control', 'no-store').send({
          deliveries: await deliveries.list(signedInAccount(request).id, request.query.transcriptId),
        }),
    );
    return Promise.resolve();
  };
}
