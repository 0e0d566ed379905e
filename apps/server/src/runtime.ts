import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { AppError } from './errors/app-error.js';
import { buildApp, type AppServices } from './http/app.js';
import { jobDefinitions, startWorkers } from './jobs/registry.js';
import { AccountsRepository } from './modules/accounts/accounts.repository.js';
import { AuditLog } from './modules/accounts/audit-log.js';
import { ApiAuthenticator } from './modules/api-keys/api-authentication.js';
import { ApiKeysService } from './modules/api-keys/api-keys.service.js';
import { FailedAttempts } from './modules/api-keys/failed-attempts.js';
import { CaptchaService } from './modules/captcha/captcha.service.js';
import { CreditsService } from './modules/credits/credits.service.js';
import { createCrmIntegrations } from './modules/integrations/integrations.module.js';
import { SubmittedFileTranscripts } from './modules/integrations/submitted-file-transcripts.js';
import type { TranscriptSource } from './modules/integrations/transcript-source.js';
import type { UsageMeter } from './modules/credits/usage-meter.js';
import { LiveTranscriptionService } from './modules/transcripts/live/live-transcription.service.js';
import { createInstallation } from './modules/licences/installation.js';
import { licensingKeys, type SigningKeys } from './modules/licences/licence-keys.js';
import { LicencesService } from './modules/licences/licences.service.js';
import { InvoiceIssuer } from './modules/payments/invoice-issuer.js';
import { PaymentsService } from './modules/payments/payments.service.js';
import { AccountSessionsRepository } from './modules/identity/account-sessions.repository.js';
import { createIdentity } from './modules/identity/identity.module.js';
import { AccountMailer } from './modules/mail/account-mailer.js';
import { MailRepository } from './modules/mail/mail.repository.js';
import { MailService } from './modules/mail/mail.service.js';
import { createExternalProviders } from './modules/external-signin/external-providers.js';
import { ExternalSignInService } from './modules/external-signin/external-signin.service.js';
import { EmailChangeService } from './modules/profile/email-change.service.js';
import { ProfilePhotos } from './modules/profile/profile-photos.js';
import { ProfileService } from './modules/profile/profile.service.js';
import { RecoveryService } from './modules/recovery/recovery.service.js';
import { RegistrationService } from './modules/registration/registration.service.js';
import { SettingsService } from './modules/settings/settings.service.js';
import { ensureDefaultModel } from './modules/speech-models/default-model.js';
import { ensureDiarizationModels } from './modules/speech-models/diarization-models.js';
import { startSpeechEngine } from './modules/transcripts/speech-engine.js';
import { TranscriptionService } from './modules/transcripts/transcription.service.js';
import { SpeakerLabelling } from './modules/transcripts/speaker-labelling.js';
import { UploadDiarization } from './modules/files/upload-diarization.js';
import { RecordingAudioUrls } from './modules/files/recording-audio-url.js';
import { FileTranscriptionService } from './modules/files/file-transcription.service.js';
import { FilesMaintenance } from './modules/files/files.maintenance.js';
import { FilesService } from './modules/files/files.service.js';
import { UploadsService } from './modules/files/uploads.service.js';
import { WebhooksService } from './modules/files/webhooks.service.js';
import { SystemService } from './modules/system/system.service.js';
import { CachingVatNumberRegistry } from './modules/vat/vat-number-registry.js';
import { VatService } from './modules/vat/vat.service.js';
import { ViesRestRegistry } from './modules/vat/vies-registry.js';
import { Argon2PasswordHasher } from './platform/crypto/password-hasher.js';
import { SecretStore } from './platform/crypto/secret-store.js';
import { TokenSealer } from './platform/crypto/token-sealer.js';
import { createPaymentProviders } from './platform/payments/payment-providers.js';
import { openDatabase, type Database } from './platform/db/database.js';
import { openFileStorage } from './platform/storage/open-file-storage.js';
import { migrateToLatest } from './platform/db/migrator.js';
import type { MailTransport } from './platform/mail/mail-transport.js';
import { createMailTransport } from './platform/mail/nodemailer-transport.js';
import type { JobQueue } from './platform/queue/job-queue.js';
import { PgBossQueue } from './platform/queue/pg-boss-queue.js';

/** What the HTTP app uses, plus what only the workers use. */
export interface Services extends AppServices {
  mail: MailService;
  fileTranscription: FileTranscriptionService;
}

export interface Runtime {
  config: Config;
  logger: Logger;
  database: Database;
  queue: JobQueue;
  services: Services;
  /** Present when the runtime serves HTTP. */
  app?: FastifyInstance;
  /** Stops accepting requests, lets in-flight requests and jobs finish, then closes the queue and database. */
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  /** Build the HTTP app (serve); without it the runtime only runs jobs (worker). */
  http: boolean;
  /** Consume jobs in this process. */
  workers: boolean;
  /** Replaces the configured mail transport (tests deliver to a local SMTP sink this way too). */
  mailTransport?: MailTransport;
  /**
   * A database the caller opened (an operator command reaching the embedded database through the
   * process that holds it); the runtime closes it. By default the runtime opens its own, holding an
   * embedded folder exclusively.
   */
  database?: Database;
  /** Where CRM deliveries read transcripts (tests give their own). */
  crmTranscripts?: TranscriptSource;
}

/** The composition root: the one place where adapters, services, workers and HTTP are wired. */
export async function startRuntime(
  config: Config,
  logger: Logger,
  options: RuntimeOptions,
): Promise<Runtime> {
  const database = options.database ?? (await openDatabase(config.database, logger));
  const closers: (() => Promise<void>)[] = [() => database.close()];
  const stop = async () => {
    for (const close of closers.splice(0).reverse()) {
      await close().catch((error: unknown) => logger.error({ err: error }, 'error while shutting down'));
    }
  };
  try {
    const { applied } = await migrateToLatest(database.db as Kysely<unknown>);
    if (applied.length > 0) logger.info({ applied }, 'database migrated');

    const transport = options.mailTransport ?? createMailTransport(config.mail, logger);
    closers.push(() => Promise.resolve(transport.close()));
    const queue = await PgBossQueue.start({
      pool: database.pool,
      logger,
      definitions: jobDefinitions,
      concurrency: config.workers.concurrency,
    });
    closers.push(() => queue.stop(config.http.shutdownTimeoutMs));

    const mail = new MailService(new MailRepository(database.db), queue, transport, config.mail.from, logger);
    const secrets = new SecretStore(database.db);
    const { storage, close: closeStorage } = await openFileStorage(config.storage);
    closers.push(closeStorage);
    const profilePhotos = new ProfilePhotos(storage, config.profilePhotoMaxBytes);
    const hasher = new Argon2PasswordHasher();
    const captcha = new CaptchaService(config.accounts.captcha, database.db, secrets, logger);
    const accountDependencies = {
      db: database.db,
      captcha,
      hasher,
      mailer: new AccountMailer(mail, config, logger),
      config: config.accounts,
    };
    const registration = new RegistrationService(accountDependencies);
    const emailChange = new EmailChangeService(
      database.db,
      accountDependencies.mailer,
      config.accounts.emailVerificationTtlHours,
    );
    const externalSignIn = new ExternalSignInService(
      createExternalProviders(config.identity.externalProviders),
      database.db,
      {
        publicUrl: config.http.publicUrl,
        requiresApproval: config.accounts.registrationRequiresApproval,
        startingCreditCents: config.accounts.startingCreditCents,
      },
      logger,
    );
    const identity = await createIdentity({
      config,
      logger,
      db: database.db,
      secrets,
      hasher,
      captcha,
      signInExternally: (request, context) => externalSignIn.signIn(request, context),
      // One link page for both: a verification code of a new account, or the confirmation of a new address.
      verifyEmail: async (code, context) => {
        try {
          return await registration.verifyEmail(code, context);
        } catch (error) {
          if (error instanceof AppError && error.code === 'BAD_TOKEN')
            return emailChange.confirm(code, context);
          throw error;
        }
      },
    });
    const credits = new CreditsService(database.db, config.prices.microsPerHour);
    // The on-premise edition (LICENSE_KEY set) counts usage against its licence instead of credits.
    const installation = config.licensing.installation
      ? createInstallation(database.db, config.licensing.installation, logger)
      : null;
    const usageMeter: UsageMeter = installation?.meter ?? credits;
    if (installation?.reporter && (options.http || options.workers)) {
      const reporter = installation.reporter;
      reporter.start(config.licensing.installation?.reportIntervalSeconds ?? 60);
      closers.push(() => reporter.stop());
    }
    let signingKeys: Promise<SigningKeys> | null = null;
    const licences = new LicencesService(database.db, () => {
      signingKeys ??= licensingKeys(secrets, config.licensing.privateKey).catch((error: unknown) => {
        signingKeys = null;
        throw error;
      });
      return signingKeys;
    });
    const apiKeys = new ApiKeysService(
      database.db,
      credits,
      new AuditLog(database.db),
      config.apiKeys.maxPerAccount,
    );
    const vat = new VatService({
      sellerCountry: config.seller.country,
      registry: config.vat.vies
        ? new CachingVatNumberRegistry(new ViesRestRegistry(config.vat.vies), {
            ttlMs: 60 * 60_000,
            maxEntries: 10_000,
          })
        : null,
      logger,
    });
    const paymentProviders = await createPaymentProviders(config.payments, {
      publicUrl: config.http.publicUrl,
      secrets,
      logger,
    });
    const crm = await createCrmIntegrations({
      config,
      db: database.db,
      secrets,
      queue,
      logger,
      transcripts:
        options.crmTranscripts ?? new SubmittedFileTranscripts(database.db, storage, config.http.publicUrl),
    });
    const speech = await startSpeechEngine(config.speech, logger);
    closers.push(() => speech.close());
    const speakerLabelling = new SpeakerLabelling(config.speech.modelsDir);
    closers.push(() => speakerLabelling.close());
    if (options.http) {
      // In the background: the server answers at once; transcription becomes ready when the
      // default model has arrived (or says how to add one when it cannot be downloaded).
      const downloads = new AbortController();
      closers.push(() => Promise.resolve(downloads.abort()));
      const warmUp = () =>
        speech
          .warmUp()
          .catch((error: unknown) => logger.error({ err: error }, 'the speech model could not be loaded'));
      void warmUp();
      void ensureDefaultModel(config.speech, logger, { signal: downloads.signal })
        .then(async (outcome) => {
          if (outcome !== 'downloaded') return;
          await speech.refreshModels();
          await warmUp();
        })
        // Then the diarization networks (after the Whisper model, which matters more); the
        // diarizer loads them at the first diarized request.
        .then(() => ensureDiarizationModels(config.speech, logger, { signal: downloads.signal }));
    }
    const webhooks = new WebhooksService({
      db: database.db,
      queue,
      publicUrl: config.http.publicUrl,
      // The integrations' token key (configured, or generated once and kept with the server secrets).
      sealer: await TokenSealer.open(config.integrations.encryptionKey, secrets),
      ...config.files.webhooks,
      logger,
    });
    await webhooks.sealPlainSecrets();
    const files = new FilesService({
      db: database.db,
      storage,
      publicUrl: config.http.publicUrl,
      logger,
      audioUrls: new RecordingAudioUrls(secrets),
    });
    const fileTranscription = new FileTranscriptionService({
      db: database.db,
      storage,
      queue,
      engine: speech,
      speakerLabelling,
      meter: usageMeter,
      webhooks,
      staleSeconds: config.files.processingStaleSeconds,
      logger,
      crmDeliveries: crm.deliveries,
    });
    const services: Services = {
      files,
      uploads: new UploadsService({
        db: database.db,
        storage,
        queue,
        storageQuotaBytes: config.files.storageQuotaBytes,
        logger,
        crmTargets: crm.deliveries,
        diarization: new UploadDiarization(database.db, speakerLabelling),
        // The embedded database is held by this one process: holds of earlier runs are stale.
        soleProcess: database.pool.kind === 'pglite' && database.throughOwner === null,
      }),
      webhooks,
      fileTranscription,
      system: new SystemService(
        config,
        database,
        speech,
        { kind: config.storage.kind, store: storage },
        installation?.licence ?? null,
      ),
      transcription: new TranscriptionService(speech, usageMeter, speakerLabelling),
      live: new LiveTranscriptionService(speech, usageMeter, config.speech.live),
      externalSignIn,
      identity,
      profile: new ProfileService(
        new AccountsRepository(database.db),
        hasher,
        new AuditLog(database.db),
        profilePhotos,
        new AccountSessionsRepository(database.db),
        emailChange,
      ),
      profilePhotos,
      mail,
      captcha,
      registration,
      recovery: new RecoveryService({ ...accountDependencies, queue }),
      vat,
      credits,
      usageMeter,
      licences,
      installation,
      apiKeys,
      apiAuthentication: new ApiAuthenticator(
        identity.accessTokens,
        new AccountsRepository(database.db),
        apiKeys,
        new FailedAttempts({
          maxFailures: config.apiKeys.failuresPerIp,
          windowMs: config.apiKeys.failureWindowSeconds * 1000,
        }),
      ),
      settings: new SettingsService(database.db, credits, speech),
      payments: new PaymentsService({
        db: database.db,
        provider: paymentProviders.provider,
        vat,
        credits,
        invoices: new InvoiceIssuer(config.seller, storage),
        queue,
        publicUrl: config.http.publicUrl,
        productName: config.console.productName,
        logger,
      }),
      paymentProviders,
      integrations: crm.integrations,
      crmDeliveries: crm.deliveries,
    };
    if (options.workers) {
      await startWorkers(queue, services);
      const maintenance = new FilesMaintenance(
        fileTranscription,
        files,
        config.files.processingStaleSeconds,
        logger,
      );
      maintenance.start();
      closers.push(() => maintenance.stop());
      logger.info({ mail: transport.description }, 'workers started');
    }
    const runtime: Runtime = { config, logger, database, queue, services, stop };
    if (options.http) {
      const app = await buildApp(config, logger, services);
      closers.push(() => app.close());
      runtime.app = app;
    }
    return runtime;
  } catch (error) {
    await stop();
    throw error;
  }
}
