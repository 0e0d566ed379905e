import type { CrmProviderId } from '@verbatim/contracts';
import type { Config } from '../../config/config.js';
import type { CrmProvider } from './providers/crm-provider.js';
import { HubSpotProvider } from './providers/hubspot/hubspot-provider.js';
import { PipedriveProvider } from './providers/pipedrive/pipedrive-provider.js';

/** The CRMs this server connects to, each built from configuration only (never from a request). */
export class CrmProviders {
  readonly #byId: Map<CrmProviderId, CrmProvider>;

  constructor(providers: CrmProvider[]) {
    this.#byId = new Map(providers.map((provider) => [provider.id, provider]));
  }

  static fromConfig(config: Config['integrations']): CrmProviders {
    return new CrmProviders([new HubSpotProvider(config.hubspot), new PipedriveProvider(config.pipedrive)]);
  }

  all(): CrmProvider[] {
    return [...this.#byId.values()];
  }

  get(id: CrmProviderId): CrmProvider {
    const provider = this.#byId.get(id);
    if (!provider) throw new Error(`no CRM provider ${id}`);
    return provider;
  }
}
