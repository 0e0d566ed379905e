import {
  apiErrorSchema,
  installationLicenceSchema,
  licenceStandingSchema,
  licencesSchema,
  licensingPublicKeySchema,
  usageBatchSchema,
  usageReportResultSchema,
  usageReportSchema,
} from '@verbatim/contracts';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInAccount } from '../../http/authenticate.js';
import { AppError } from '../../errors/app-error.js';
import type { InstallationLicence } from './installation-licence.js';
import type { LicencesService } from './licences.service.js';

const errors = { '4xx': apiErrorSchema };
const licenceKeySecurity = [{ licenceKey: [] }];

function licenceKeyOf(request: FastifyRequest): string {
  const key = /^License\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!key) {
    throw new AppError('UNAUTHENTICATED', 'Send the licence key as "Authorization: License <key>".');
  }
  return key;
}

/**
 * Spec §7 `/limiter/on-premise/licenses` for the licence's owner, and the licence server's API for
 * on-premise installations (`/licensing/…`, authenticated by the licence key itself).
 */
export function licencesRoutes(
  service: LicencesService,
  installation: InstallationLicence | null,
  hooks: { authenticateApi: onRequestAsyncHookHandler; consoleSession: onRequestAsyncHookHandler },
): FastifyPluginAsyncZod {
  return (app) => {
    app.get(
      '/limiter/on-premise/licenses',
      {
        onRequest: hooks.consoleSession,
        schema: {
          tags: ['licences'],
          summary: "The account's on-premise licences, newest first (uses and maxUses in seconds of audio)",
          security: [{ consoleSession: [] }],
          response: { 200: licencesSchema, ...errors },
        },
      },
      (request) => service.list(signedInAccount(request).id),
    );

    app.post(
      '/limiter/on-premise/licenses/usage-reports',
      {
        onRequest: hooks.consoleSession,
        schema: {
          tags: ['licences'],
          summary: 'Count the usage report file of an air-gapped installation (each batch once)',
          description:
            'The file `verbatim licenses report --out usage.json` writes on the installation. A batch already counted (the same report uploaded twice, or sent online) is skipped.',
          security: [{ consoleSession: [] }],
          body: usageReportSchema,
          response: { 200: usageReportResultSchema, ...errors },
        },
      },
      (request) => service.uploadReport(signedInAccount(request).id, request.body),
    );

    app.get(
      '/licensing/public-key',
      {
        schema: {
          tags: ['licences'],
          summary: 'The public key that verifies licence keys offline (the value of LICENSE_PUBLIC_KEY)',
          response: { 200: licensingPublicKeySchema, ...errors },
        },
      },
      async () => ({ algorithm: 'Ed25519' as const, publicKey: await service.publicKey() }),
    );

    app.post(
      '/licensing/usage',
      {
        schema: {
          tags: ['licences'],
          summary: "An installation's batch of usage: added to the licence's uses once per batchId",
          description:
            'Authenticated by the licence key (`Authorization: License <key>`). Answers the licence’s uses, maxUses, expiry and status after the batch; `counted` is false for a batch already counted.',
          security: licenceKeySecurity,
          body: usageBatchSchema,
          response: { 200: licenceStandingSchema, ...errors },
        },
      },
      (request) => service.report(licenceKeyOf(request), request.body),
    );

    app.get(
      '/licensing/standing',
      {
        schema: {
          tags: ['licences'],
          summary:
            "The licence's uses, maxUses, expiry and status, for an installation with nothing to report",
          security: licenceKeySecurity,
          response: { 200: licenceStandingSchema, ...errors },
        },
      },
      (request) => service.report(licenceKeyOf(request), null),
    );

    app.get(
      '/licensing/installation',
      {
        onRequest: hooks.authenticateApi,
        schema: {
          tags: ['licences'],
          summary:
            "On-premise edition: this installation's licence, its usage and why work is refused, if it is",
          description: 'NOT_FOUND on the cloud product, which has no licence of its own.',
          response: { 200: installationLicenceSchema, ...errors },
        },
      },
      async () => {
        if (!installation) throw new AppError('NOT_FOUND', 'This server is not an on-premise installation.');
        const { problemError: _problemError, ...view } = await installation.view();
        return view;
      },
    );
    return Promise.resolve();
  };
}
