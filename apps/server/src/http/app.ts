import path from 'node:path';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import { LIVE_MAX_FRAME_BYTES } from '@verbatim/contracts';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { AppError } from '../errors/app-error.js';
import { captchaContentSources } from '../modules/captcha/captcha-content-sources.js';
import { consoleSessionOnly, type ApiAuthenticator } from '../modules/api-keys/api-authentication.js';
import { apiKeyRoutes } from '../modules/api-keys/api-keys.routes.js';
import type { ApiKeysService } from '../modules/api-keys/api-keys.service.js';
import { captchaRoutes } from '../modules/captcha/captcha.routes.js';
import { creditsRoutes } from '../modules/credits/credits.routes.js';
import type { CreditsService } from '../modules/credits/credits.service.js';
import type { UsageMeter } from '../modules/credits/usage-meter.js';
import type { Installation } from '../modules/licences/installation.js';
import { licencesRoutes } from '../modules/licences/licences.routes.js';
import type { LicencesService } from '../modules/licences/licences.service.js';
import type { CrmDeliveriesService } from '../modules/integrations/crm-deliveries.service.js';
import { integrationsRoutes } from '../modules/integrations/integrations.routes.js';
import type { IntegrationsService } from '../modules/integrations/integrations.service.js';
import { paymentWebhookRoutes } from '../modules/payments/payment-webhook.routes.js';
import { paymentsRoutes } from '../modules/payments/payments.routes.js';
import type { PaymentsService } from '../modules/payments/payments.service.js';
import { sandboxCheckoutRoutes } from '../modules/payments/sandbox-checkout.routes.js';
import type { PaymentProviders } from '../platform/payments/payment-providers.js';
import { externalSignInRoutes } from '../modules/external-signin/external-signin.routes.js';
import type { ExternalSignInService } from '../modules/external-signin/external-signin.service.js';
import type { Identity } from '../modules/identity/identity.module.js';
import { identityProviderRoutes } from '../modules/identity/identity.routes.js';
import { signInRateLimit } from '../modules/identity/sign-in-rate-limit.js';
import { interactionRoutes } from '../modules/identity/interactions.routes.js';
import { profilePhotoRoutes } from '../modules/profile/profile-photo.routes.js';
import type { ProfilePhotos } from '../modules/profile/profile-photos.js';
import { profileRoutes } from '../modules/profile/profile.routes.js';
import type { ProfileService } from '../modules/profile/profile.service.js';
import type { CaptchaService } from '../modules/captcha/captcha.service.js';
import { recoveryRoutes } from '../modules/recovery/recovery.routes.js';
import type { RecoveryService } from '../modules/recovery/recovery.service.js';
import { registrationRoutes } from '../modules/registration/registration.routes.js';
import type { RegistrationService } from '../modules/registration/registration.service.js';
import { settingsRoutes } from '../modules/settings/settings.routes.js';
import type { SettingsService } from '../modules/settings/settings.service.js';
import { systemRoutes } from '../modules/system/system.routes.js';
import { fileTranscriptRoutes } from '../modules/files/file-transcript.routes.js';
import { filesRoutes } from '../modules/files/files.routes.js';
import type { FilesService } from '../modules/files/files.service.js';
import { transcriptJobsRoutes } from '../modules/files/transcript-jobs.routes.js';
import type { UploadsService } from '../modules/files/uploads.service.js';
import type { WebhooksService } from '../modules/files/webhooks.service.js';
import { openAiTranscriptionRoutes } from '../modules/transcripts/openai-transcriptions.routes.js';
import type { TranscriptionService } from '../modules/transcripts/transcription.service.js';
import { transcriptsRoutes } from '../modules/transcripts/transcripts.routes.js';
import { liveRoutes } from '../modules/transcripts/live/live.routes.js';
import type { LiveTranscriptionService } from '../modules/transcripts/live/live-transcription.service.js';
import { vatRoutes } from '../modules/vat/vat.routes.js';
import type { VatService } from '../modules/vat/vat.service.js';
import type { SystemService } from '../modules/system/system.service.js';
import { registerConsole } from './console-static.js';
import { registerControlCharacterRule } from './control-characters.js';
import { answerClientError, answerError, registerErrorHandler } from './error-handler.js';
import { registerMethodNotAllowed } from './method-not-allowed.js';
import { registerOpenApi } from './openapi.js';
import { PublicAddress, registerPublicAddressChecks } from './public-address.js';
import { requestIdOf } from './request-id.js';
import { recordRoutes } from './route-list.js';

export interface AppServices {
  system: SystemService;
  externalSignIn: ExternalSignInService;
  identity: Identity;
  profile: ProfileService;
  profilePhotos: ProfilePhotos;
  captcha: CaptchaService;
  registration: RegistrationService;
  recovery: RecoveryService;
  vat: VatService;
  credits: CreditsService;
  /** Meters finished work: credits in the cloud product, the licence in the on-premise edition. */
  usageMeter: UsageMeter;
  /** The licence server (every edition issues and counts licences it signed). */
  licences: LicencesService;
  /** The on-premise edition's own licence; null in the cloud product. */
  installation: Installation | null;
  apiKeys: ApiKeysService;
  apiAuthentication: ApiAuthenticator;
  settings: SettingsService;
  payments: PaymentsService;
  paymentProviders: PaymentProviders;
  integrations: IntegrationsService;
  crmDeliveries: CrmDeliveriesService;
  transcription: TranscriptionService;
  /** Live transcription sockets. */
  live: LiveTranscriptionService;
  /** Submitted files: the table, downloads, resumable uploads and their signed webhooks. */
  files: FilesService;
  uploads: UploadsService;
  webhooks: WebhooksService;
}

export async function buildApp(
  config: Config,
  logger: Logger,
  services: AppServices,
): Promise<FastifyInstance> {
  const app = Fastify({
    // Without the widening Fastify infers pino's Logger as its logger type, and the instance no
    // longer fits plugins typed for the default logger.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- see above
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: requestIdOf,
    trustProxy: config.http.trustProxy,
    bodyLimit: config.http.bodyLimitBytes,
    // Close idle keep-alive sockets at shutdown; in-flight requests still finish.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // A path parameter is checked by its route's schema (400 VALIDATION_FAILED, with the rule in the
    // OpenAPI document); the router refuses only parameters longer than any schema allows, even
    // percent-encoded (12 characters per 4-byte character), with 414 URI_TOO_LONG.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    // Errors raised before routing (malformed percent-encoding, too long a parameter) answer in the
    // product's error shape too.
    frameworkErrors: (error, request, reply) => {
      void answerError(error, request, reply.header('x-request-id', request.id));
    },
    clientErrorHandler: answerClientError,
  });
  recordRoutes(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API speaks JSON; other media types get a clear 415 rather than a half-parsed body.
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // While shutting down, answers to requests still in flight end their keep-alive connection;
  // otherwise an idle client socket would hold the server open until its keep-alive timeout.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  registerErrorHandler(app);
  registerControlCharacterRule(app);
  registerMethodNotAllowed(app);
  const publicAddress = new PublicAddress(config.http.publicUrl, app.log);
  registerPublicAddressChecks(app, publicAddress);

  const captchaSources = captchaContentSources(config.accounts.captcha);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...captchaSources.scriptSrc],
        frameSrc: ["'self'", ...captchaSources.frameSrc],
        // Mantine sets style attributes at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Allows the console to be opened over plain http on a private network without HSTS pinning it.
    strictTransportSecurity: config.http.publicUrl.startsWith('https://'),
  });
  if (config.http.corsOrigins.length > 0) {
    await app.register(cors, { origin: config.http.corsOrigins, credentials: true });
  }
  await app.register(rateLimit, {
    global: true,
    max: config.http.rateLimit.max,
    timeWindow: config.http.rateLimit.windowMs,
    // The console's built assets are immutable files that a browser caches for a year; a first
    // visit loads a screen's chunks as it opens, dozens of files, which must not use up the
    // address's requests (an office behind one address, or one browser opening several screens).
    allowList: (request) => request.url.startsWith('/assets/'),
    errorResponseBuilder: (_request, context) =>
      new AppError('RATE_LIMITED', `Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} s.`),
  });

  await registerOpenApi(app, { title: config.console.productName, version: config.version });
  await app.register(systemRoutes(services.system), { prefix: '/api/v1' });
  // One budget per client address for every way of checking a password.
  const signInLimit = signInRateLimit(app, config.identity.signInRequestsPerMinutePerIp);
  await app.register(identityProviderRoutes(services.identity.provider, config.http.publicUrl, signInLimit));
  await app.register(externalSignInRoutes(services.externalSignIn), { prefix: '/api/v1' });
  await app.register(interactionRoutes(services.identity.interactions, signInLimit), { prefix: '/api/v1' });
  // The account, its credentials, settings and purchases are managed from a console session only;
  // an API key sent there is refused with FORBIDDEN. The public API also takes API keys.
  const consoleSession = consoleSessionOnly(services.identity.authenticate);
  await app.register(profilePhotoRoutes(services.profilePhotos, services.profile, consoleSession), {
    prefix: '/api/v1',
  });
  await app.register(profileRoutes(services.profile, consoleSession), { prefix: '/api/v1' });
  await app.register(captchaRoutes(services.captcha), { prefix: '/api/v1' });
  await app.register(registrationRoutes(services.registration, config.accounts.registrationsPerHourPerIp), {
    prefix: '/api/v1',
  });
  await app.register(recoveryRoutes(services.recovery), { prefix: '/api/v1' });
  // The on-premise edition takes no payment and keeps no credit (its licence pays): the routes of
  // billing, VAT, credit usage and payments are not served there, nor listed in its OpenAPI document.
  const billing = services.installation === null;
  if (billing) await app.register(vatRoutes(services.vat, consoleSession), { prefix: '/api/v1' });
  const authenticateApi = services.apiAuthentication.hook;
  await app.register(apiKeyRoutes(services.apiKeys, consoleSession), { prefix: '/api/v1' });
  if (billing) await app.register(creditsRoutes(services.credits, authenticateApi), { prefix: '/api/v1' });
  await app.register(
    licencesRoutes(services.licences, services.installation?.licence ?? null, {
      authenticateApi,
      consoleSession,
    }),
    { prefix: '/api/v1' },
  );
  const uploads = {
    directory: path.join(config.dataDir, 'tmp', 'uploads'),
    maxBytes: config.speech.maxUploadBytes,
  };
  await app.register(transcriptsRoutes(services.transcription, authenticateApi, uploads), {
    prefix: '/api/v1',
  });
  // The live socket: a frame over 1 MiB closes it with 1009; at shutdown every session's text is
  // made final before its socket closes with 1012.
  await app.register(websocket, {
    options: { maxPayload: LIVE_MAX_FRAME_BYTES },
    preClose: () => services.live.shutdown(),
  });
  await app.register(liveRoutes(services.live, services.apiAuthentication), { prefix: '/api/v1' });
  await app.register(openAiTranscriptionRoutes(services.transcription, authenticateApi, uploads), {
    prefix: '/api/v1',
  });
  await app.register(filesRoutes(services, { authenticateApi, consoleSession }), { prefix: '/api/v1' });
  await app.register(fileTranscriptRoutes(services.files, authenticateApi), { prefix: '/api/v1' });
  await app.register(
    transcriptJobsRoutes(services, authenticateApi, {
      directory: uploads.directory,
      maxBytes: uploads.maxBytes,
      allowPrivateAddresses: config.files.webhooks.allowPrivateAddresses,
      outboundDisabled: config.files.webhooks.outboundDisabled,
      timeoutMs: 10 * 60_000,
    }),
    { prefix: '/api/v1' },
  );
  await app.register(settingsRoutes(services.settings, { authenticateApi, consoleSession }), {
    prefix: '/api/v1',
  });
  if (billing) await app.register(paymentsRoutes(services.payments, consoleSession), { prefix: '/api/v1' });
  await app.register(
    integrationsRoutes(
      { integrations: services.integrations, deliveries: services.crmDeliveries },
      { authenticateApi, consoleSession },
    ),
    { prefix: '/api/v1' },
  );
  if (billing) {
    await app.register(
      paymentWebhookRoutes(services.paymentProviders.provider, (event) =>
        services.payments.applyEvent(event),
      ),
      { prefix: '/api/v1' },
    );
  }
  const sandbox = billing ? services.paymentProviders.sandbox : null;
  if (sandbox) {
    await app.register(
      sandboxCheckoutRoutes({
        sandbox,
        merchant: config.console.productName,
        sessionState: (sessionId) => services.payments.sandboxSessionState(sessionId),
      }),
    );
  }
  await registerConsole(app, config.console.directory, publicAddress);
  return app;
}
