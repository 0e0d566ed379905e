import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import type { SecretStore } from '../../platform/crypto/secret-store.js';
import { TokenSealer } from '../../platform/crypto/token-sealer.js';
import type { Db } from '../../platform/db/database.js';
import type { JobQueue } from '../../platform/queue/job-queue.js';
import { CrmDeliveriesService, type DeliveryPolicy } from './crm-deliveries.service.js';
import { CrmProviders } from './crm-providers.js';
import { IntegrationTokens } from './integration-tokens.js';
import { IntegrationsRepository } from './integrations.repository.js';
import { IntegrationsService } from './integrations.service.js';
import type { TranscriptSource } from './transcript-source.js';

export interface CrmIntegrations {
  integrations: IntegrationsService;
  deliveries: CrmDeliveriesService;
}

/** Wires the integrations module: providers from configuration, the token key, connections and deliveries. */
export async function createCrmIntegrations(deps: {
  config: Config;
  db: Db;
  secrets: SecretStore;
  queue: JobQueue;
  logger: Logger;
  transcripts: TranscriptSource;
  deliveryPolicy?: DeliveryPolicy;
}): Promise<CrmIntegrations> {
  const repository = new IntegrationsRepository(deps.db);
  const providers = CrmProviders.fromConfig(deps.config.integrations);
  const sealer = await TokenSealer.open(deps.config.integrations.encryptionKey, deps.secrets);
  const tokens = new IntegrationTokens(repository, sealer, providers, deps.logger);
  const deliveries = new CrmDeliveriesService({
    repository,
    providers,
    tokens,
    transcripts: deps.transcripts,
    queue: deps.queue,
    logger: deps.logger,
    ...(deps.deliveryPolicy ? { policy: deps.deliveryPolicy } : {}),
  });
  const integrations = new IntegrationsService({
    repository,
    providers,
    tokens,
    publicUrl: deps.config.http.publicUrl,
    logger: deps.logger,
    onReconnected: (integrationId) => deliveries.resumeAfterReconnect(integrationId),
  });
  return { integrations, deliveries };
}
