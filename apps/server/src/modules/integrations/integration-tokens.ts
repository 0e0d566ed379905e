import type { Logger } from 'pino';
import type { TokenSealer } from '../../platform/crypto/token-sealer.js';
import type { CrmProviders } from './crm-providers.js';
import type { IntegrationRow, IntegrationsRepository } from './integrations.repository.js';
import { CrmProviderError, type CrmCredentials, type CrmTokenSet } from './providers/crm-provider.js';

/** Access tokens are refreshed this long before they expire. */
const refreshMarginMs = 5 * 60_000;

/**
 * The tokens of connections: sealed before they are stored, opened only to call the provider,
 * refreshed before expiry (once per connection even when parallel requests need them), and a
 * refusal by the provider marks the connection `needs_reconnect`.
 */
export class IntegrationTokens {
  readonly #refreshing = new Map<string, Promise<IntegrationRow>>();

  constructor(
    private readonly repository: IntegrationsRepository,
    private readonly sealer: TokenSealer,
    private readonly providers: CrmProviders,
    private readonly logger: Logger,
  ) {}

  /** The sealed columns of a token set, bound to the connection's id. */
  seal(
    integrationId: string,
    tokens: CrmTokenSet,
  ): Pick<IntegrationRow, 'access_token_sealed' | 'refresh_token_sealed' | 'access_expires_at'> {
    return {
      access_token_sealed: this.sealer.seal(tokens.accessToken, `${integrationId}:access`),
      refresh_token_sealed: tokens.refreshToken
        ? this.sealer.seal(tokens.refreshToken, `${integrationId}:refresh`)
        : null,
      access_expires_at: tokens.expiresAt,
    };
  }

  credentialsOf(row: IntegrationRow): CrmCredentials {
    return {
      accessToken: this.sealer.open(row.access_token_sealed, `${row.id}:access`),
      apiUrl: row.api_url,
      method: row.method,
    };
  }

  refreshTokenOf(row: IntegrationRow): string | null {
    return row.refresh_token_sealed ? this.sealer.open(row.refresh_token_sealed, `${row.id}:refresh`) : null;
  }

  /**
   * Runs a provider call with the connection's credentials, refreshed first when they are about to
   * expire. When the provider answers 401 to an OAuth connection, the token is refreshed once and the
   * call retried; a refused refresh, or a 401 to a personal token, marks the connection
   * `needs_reconnect` and rethrows the 'unauthorized' CrmProviderError.
   */
  async use<T>(row: IntegrationRow, call: (credentials: CrmCredentials) => Promise<T>): Promise<T> {
    if (row.status === 'needs_reconnect') {
      throw new CrmProviderError('unauthorized', 'The connection needs reconnecting');
    }
    let current = await this.#fresh(row, false);
    try {
      return await call(this.credentialsOf(current));
    } catch (error) {
      if (!(error instanceof CrmProviderError) || error.failure !== 'unauthorized') throw error;
      if (current.method !== 'oauth' || !current.refresh_token_sealed) {
        await this.#needsReconnect(current, error);
        throw error;
      }
    }
    current = await this.#fresh(current, true);
    try {
      return await call(this.credentialsOf(current));
    } catch (error) {
      if (error instanceof CrmProviderError && error.failure === 'unauthorized') {
        await this.#needsReconnect(current, error);
      }
      throw error;
    }
  }

  async #needsReconnect(row: IntegrationRow, error: CrmProviderError): Promise<void> {
    this.logger.warn(
      { integrationId: row.id, provider: row.provider, reason: error.message },
      'CRM connection refused by the provider: needs reconnecting',
    );
    await this.repository.markNeedsReconnect(row.id, 'CRM_RECONNECT_REQUIRED');
  }

  /** The row with an access token good for a while; one refresh in flight per connection in this process. */
  async #fresh(row: IntegrationRow, force: boolean): Promise<IntegrationRow> {
    const expiring =
      row.access_expires_at !== null && row.access_expires_at.getTime() - refreshMarginMs < Date.now();
    if (!force && !expiring) return row;
    if (!row.refresh_token_sealed) return row;
    const inFlight = this.#refreshing.get(row.id);
    if (inFlight) return inFlight;
    const refresh = this.#refresh(row).finally(() => this.#refreshing.delete(row.id));
    this.#refreshing.set(row.id, refresh);
    return refresh;
  }

  async #refresh(row: IntegrationRow): Promise<IntegrationRow> {
    // Another process may have refreshed already: use its tokens if they are newer than ours.
    const latest = (await this.repository.findById(row.id)) ?? row;
    if (latest.token_version !== row.token_version) return latest;
    const oauth = this.providers.get(row.provider).oauth;
    const refreshToken = this.refreshTokenOf(latest);
    if (!oauth || !refreshToken) {
      const error = new CrmProviderError(
        'unauthorized',
        'The OAuth app is no longer configured on this server',
      );
      await this.#needsReconnect(latest, error);
      throw error;
    }
    let tokens: CrmTokenSet;
    try {
      tokens = await oauth.refresh(refreshToken);
    } catch (error) {
      if (
        error instanceof CrmProviderError &&
        (error.failure === 'unauthorized' || error.failure === 'rejected')
      ) {
        const refused = new CrmProviderError(
          'unauthorized',
          `The provider refused the refresh: ${error.message}`,
        );
        await this.#needsReconnect(latest, refused);
        throw refused;
      }
      throw error;
    }
    const stored = await this.repository.storeRefreshed(
      row.id,
      latest.token_version,
      this.seal(row.id, {
        ...tokens,
        // Providers that do not rotate refresh tokens answer the same one (or none).
        refreshToken: tokens.refreshToken ?? refreshToken,
      }),
    );
    if (!stored) throw new CrmProviderError('unauthorized', 'The connection was removed');
    return stored;
  }
}
