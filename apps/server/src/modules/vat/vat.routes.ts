import {
  apiErrorSchema,
  countriesSchema,
  vatRateParamsSchema,
  vatRateQuerySchema,
  vatRateSchema,
} from '@verbatim/contracts';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { VatService } from './vat.service.js';

const errors = { '4xx': apiErrorSchema };

export function vatRoutes(
  service: VatService,
  authenticate: onRequestAsyncHookHandler,
): FastifyPluginAsyncZod {
  return (app) => {
    app.addHook('onRequest', authenticate);

    app.get(
      '/limiter/countries',
      {
        schema: {
          tags: ['billing'],
          summary: 'Every country a customer can be in (ISO 3166-1 code and English name), sorted by name',
          response: { 200: countriesSchema, ...errors },
        },
      },
      () => [...service.countries()],
    );

    app.get(
      '/limiter/vat-rate/:country',
      {
        // Each check may ask VIES, which limits how often it may be asked.
        config: { rateLimit: { max: 60, timeWindow: 60_000 } },
        schema: {
          tags: ['billing'],
          summary: 'The VAT rate to apply to a customer of that country, with or without a VAT number',
          description:
            'standardRate is the rate to apply in percent (VAT = amount × standardRate / 100): 0 under the EU ' +
            'reverse charge (a valid VAT number of another member state than the seller’s) and outside the EU.',
          params: vatRateParamsSchema,
          querystring: vatRateQuerySchema,
          response: { 200: vatRateSchema, ...errors },
        },
      },
      (request) => service.quote(request.params.country, request.query.vatNumber),
    );
    return Promise.resolve();
  };
}
