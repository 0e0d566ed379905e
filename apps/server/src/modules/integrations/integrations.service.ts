import { createHash } from 'node:crypto';
import {
  integrationsConsolePath,
  type ConnectIntegrationRequest,
  type ConnectIntegrationResponse,
  type ContactsPage,
  type CrmProvider as CrmProviderInfo,
  type CrmProviderId,
  type Integration,
} from '@verbatim/contracts';
import type { Logger } from 'pino';
import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';
import { randomSecret } from '../../platform/crypto/tokens.js';
import type { CrmProviders } from './crm-providers.js';
import type { IntegrationTokens } from './integration-tokens.js';
import type { IntegrationRow, IntegrationsRepository } from './integrations.repository.js';
import {
  CrmProviderError,
  type CrmConnection,
  type CrmCredentials,
  type CrmProvider,
} from './providers/crm-provider.js';

/** A CRM that could not be reached (a network failure, a 5xx) is usually back within a minute. */
const crmRetryAfterSeconds = 30;

/** How long the provider's authorization page may take before its state expires. */
const oauthStateTtlMs = 15 * 60_000;

export interface ContactsRequest {
  provider?: CrmProviderId | undefined;
  integrationId?: string | undefined;
  q?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

/** Connections to CRMs, the OAuth flow, and the contact browser. */
export class IntegrationsService {
  constructor(
    private readonly deps: {
      repository: IntegrationsRepository;
      providers: CrmProviders;
      tokens: IntegrationTokens;
      publicUrl: string;
      logger: Logger;
      /** Called after a connection got new tokens: deliveries waiting for it resume. */
      onReconnected: (integrationId: string) => Promise<void>;
    },
  ) {}

  providers(): CrmProviderInfo[] {
    return this.deps.providers.all().map((provider) => ({
      id: provider.id,
      name: provider.name,
      connectMethods: provider.oauth ? ['oauth', 'token'] : ['token'],
      capabilities: [...provider.capabilities],
      maxBodyChars: provider.maxBodyChars,
    }));
  }

  async list(accountId: string): Promise<Integration[]> {
    return (await this.deps.repository.list(accountId)).map(integrationOf);
  }

  async connect(accountId: string, request: ConnectIntegrationRequest): Promise<ConnectIntegrationResponse> {
    const provider = this.deps.providers.get(request.provider);
    if (request.token !== undefined) {
      let connection: CrmConnection;
      try {
        connection = await provider.connectWithToken(request.token);
      } catch (error) {
        if (
          error instanceof CrmProviderError &&
          (error.failure === 'unauthorized' || error.failure === 'rejected')
        ) {
          throw new AppError(
            'CRM_TOKEN_INVALID',
            `${provider.name} refused this token. Check that you copied all of it and that it may read and write contacts.`,
          );
        }
        throw appErrorOf(error, provider);
      }
      const integration = await this.#store(accountId, provider, 'token', connection);
      return { kind: 'connected', integration: integrationOf(integration) };
    }
    const oauth = provider.oauth;
    if (!oauth) {
      throw new AppError(
        'CRM_NOT_CONFIGURED',
        `This server has no ${provider.name} app configured: connect with a personal token instead.`,
      );
    }
    const state = randomSecret();
    const redirectUri = this.redirectUri(provider.id);
    await this.deps.repository.insertOauthState({
      stateHash: hashState(state),
      accountId,
      provider: provider.id,
      redirectUri,
      expiresAt: new Date(Date.now() + oauthStateTtlMs),
    });
    await this.deps.repository.deleteExpiredOauthStates();
    return { kind: 'authorize', authorizeUrl: oauth.authorizeUrl(state, redirectUri) };
  }

  /** The exact redirect URI registered with the provider's app. */
  redirectUri(provider: CrmProviderId): string {
    return `${this.deps.publicUrl}/api/v1/integrations/oauth/${provider}/callback`;
  }

  /**
   * The provider sent the browser back: checks the single-use state, exchanges the code with the
   * same redirect URI, stores the tokens. Answers where the console shows the outcome.
   */
  async completeOAuth(
    providerId: CrmProviderId,
    query: { code?: string | undefined; state?: string | undefined; error?: string | undefined },
  ): Promise<string> {
    const back = (outcome: Record<string, string>) =>
      `${this.deps.publicUrl}${integrationsConsolePath}?${new URLSearchParams(outcome).toString()}`;
    const provider = this.deps.providers.get(providerId);
    const pending = query.state
      ? await this.deps.repository.consumeOauthState(hashState(query.state), providerId)
      : undefined;
    if (!pending) return back({ provider: providerId, error: 'CRM_OAUTH_STATE_INVALID' });
    if (query.error || !query.code) return back({ provider: providerId, error: 'CRM_TOKEN_INVALID' });
    const oauth = provider.oauth;
    if (!oauth) return back({ provider: providerId, error: 'CRM_NOT_CONFIGURED' });
    try {
      const connection = await oauth.exchangeCode(query.code, pending.redirectUri);
      const integration = await this.#store(pending.accountId, provider, 'oauth', connection);
      return back({ provider: providerId, connected: integration.id });
    } catch (error) {
      this.deps.logger.warn(
        { provider: providerId, reason: error instanceof Error ? error.message : String(error) },
        'CRM authorization could not be completed',
      );
      const code =
        error instanceof CrmProviderError &&
        error.failure !== 'unavailable' &&
        error.failure !== 'rate_limited'
          ? 'CRM_TOKEN_INVALID'
          : 'CRM_PROVIDER_ERROR';
      return back({ provider: providerId, error: code });
    }
  }

  /** A new connection, or new tokens for the same CRM account (a reconnection). */
  async #store(
    accountId: string,
    provider: CrmProvider,
    method: 'oauth' | 'token',
    connection: CrmConnection,
  ): Promise<IntegrationRow> {
    const { repository, tokens } = this.deps;
    const existing = await repository.findByExternalAccount(
      accountId,
      provider.id,
      connection.externalAccount,
    );
    const fields = {
      method,
      account_name: connection.accountName,
      web_domain: connection.webDomain,
      api_url: connection.apiUrl,
    };
    if (existing) {
      const row = await repository.replaceTokens(existing.id, {
        ...fields,
        ...tokens.seal(existing.id, connection.tokens),
      });
      await this.deps.onReconnected(row.id);
      return row;
    }
    const id = newId('int');
    return repository.insert({
      id,
      account_id: accountId,
      provider: provider.id,
      external_account: connection.externalAccount,
      ...fields,
      last_error_code: null,
      ...tokens.seal(id, connection.tokens),
      updated_at: new Date(),
    });
  }

  /** Revokes at the provider where it can, then forgets the connection; its deliveries keep their history. */
  async remove(accountId: string, id: string): Promise<void> {
    const row = await this.deps.repository.find(accountId, id);
    if (!row) throw notFound();
    const provider = this.deps.providers.get(row.provider);
    try {
      await provider.revoke(this.deps.tokens.credentialsOf(row), this.deps.tokens.refreshTokenOf(row));
    } catch (error) {
      // Already revoked, or the provider is down: the token is forgotten all the same.
      this.deps.logger.warn(
        {
          integrationId: id,
          provider: row.provider,
          reason: error instanceof Error ? error.message : String(error),
        },
        'CRM token could not be revoked at the provider; forgetting it',
      );
    }
    await this.deps.repository.delete(accountId, id);
  }

  /** The connection a request names, or the newest one (of the provider); CRM_NOT_CONNECTED when none. */
  async resolve(
    accountId: string,
    selector: { provider?: CrmProviderId | undefined; integrationId?: string | undefined },
  ) {
    if (selector.integrationId) {
      const row = await this.deps.repository.find(accountId, selector.integrationId);
      if (!row || (selector.provider && row.provider !== selector.provider)) throw notFound();
      return row;
    }
    const row = (await this.deps.repository.list(accountId)).find(
      (candidate) => !selector.provider || candidate.provider === selector.provider,
    );
    if (!row) {
      throw new AppError('CRM_NOT_CONNECTED', 'Connect a CRM first, on the Integrations page.');
    }
    return row;
  }

  async contacts(accountId: string, request: ContactsRequest): Promise<ContactsPage> {
    const row = await this.resolve(accountId, request);
    const provider = this.deps.providers.get(row.provider);
    const query = request.q ? request.q : null;
    const cursor = request.cursor ? decodeCursor(request.cursor, row.id, query) : null;
    const page = await this.#call(row, provider, (credentials) =>
      provider.listContacts(credentials, { cursor, query, limit: request.limit }),
    );
    let next: string | null = null;
    if (page.nextCursor) {
      const params = new URLSearchParams({ integrationId: row.id, limit: String(request.limit) });
      if (query) params.set('q', query);
      params.set('cursor', encodeCursor({ i: row.id, q: query, c: page.nextCursor }));
      next = `${this.deps.publicUrl}/api/v1/contacts?${params.toString()}`;
    }
    return { contacts: page.contacts, next_page_url: next };
  }

  async contactUrl(
    accountId: string,
    request: { provider: CrmProviderId; contactId: string; integrationId?: string | undefined },
  ): Promise<string> {
    const row = await this.resolve(accountId, request);
    return this.deps.providers
      .get(row.provider)
      .contactUrl({ externalAccount: row.external_account, webDomain: row.web_domain }, request.contactId);
  }

  async #call<T>(
    row: IntegrationRow,
    provider: CrmProvider,
    call: (credentials: CrmCredentials) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.deps.tokens.use(row, call);
    } catch (error) {
      throw appErrorOf(error, provider);
    }
  }
}

/** What the API answers when a provider call fails: never a 500 for the provider's doing. */
export function appErrorOf(error: unknown, provider: { name: string }): unknown {
  if (!(error instanceof CrmProviderError)) return error;
  switch (error.failure) {
    case 'unauthorized':
      return new AppError(
        'CRM_RECONNECT_REQUIRED',
        `${provider.name} no longer accepts this connection's access. Reconnect it on the Integrations page.`,
      );
    case 'rate_limited':
      return new AppError(
        'CRM_RATE_LIMITED',
        `${provider.name} asks us to slow down. Try again shortly.`,
        undefined,
        {
          retryAfterSeconds: error.retryAfterSeconds ?? 10,
        },
      );
    case 'unavailable':
      return new AppError(
        'CRM_UNREACHABLE',
        `${provider.name} could not be reached. Try again in a moment.`,
        undefined,
        { cause: error, retryAfterSeconds: error.retryAfterSeconds ?? crmRetryAfterSeconds },
      );
    case 'rejected':
      return new AppError(
        'CRM_PROVIDER_ERROR',
        `${provider.name} refused the request: ${error.message}`,
        undefined,
        {
          cause: error,
        },
      );
  }
}

export function integrationOf(row: IntegrationRow): Integration {
  return {
    id: row.id,
    provider: row.provider,
    accountName: row.account_name,
    method: row.method,
    status: row.status,
    createdAt: row.created_at.toISOString(),
  };
}

export function notFound(): AppError {
  return new AppError('NOT_FOUND', 'No such integration.');
}

function hashState(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

interface CursorContent {
  /** The connection the cursor belongs to. */
  i: string;
  /** The search it continues. */
  q: string | null;
  /** The provider's own cursor. */
  c: string;
}

function encodeCursor(content: CursorContent): string {
  return Buffer.from(JSON.stringify(content), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string, integrationId: string, query: string | null): string {
  let content: Partial<CursorContent> | undefined;
  try {
    content = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorContent>;
  } catch {
    content = undefined;
  }
  if (
    !content ||
    typeof content.c !== 'string' ||
    content.i !== integrationId ||
    (content.q ?? null) !== query
  ) {
    throw new AppError(
      'BAD_REQUEST',
      'This cursor does not continue this list: follow next_page_url as it is.',
    );
  }
  return content.c;
}
