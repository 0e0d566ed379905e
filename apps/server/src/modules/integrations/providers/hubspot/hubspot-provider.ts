import { AssociationTypes, Client } from '@hubspot/api-client';
import type { AssociationSpecAssociationCategoryEnum } from '@hubspot/api-client/lib/codegen/crm/objects/notes/models/AssociationSpec.js';
import type { CrmContact } from '@verbatim/contracts';
import {
  CrmProviderError,
  existsAtProvider,
  failureOfStatus,
  retryAfterSecondsOf,
  type ContactsPageRequest,
  type CreatedRecord,
  type CrmConnection,
  type CrmCredentials,
  type CrmOAuth,
  type CrmProvider,
  type CrmRecordLocation,
  type CrmTokenSet,
  type NoteRequest,
  type ProviderContactsPage,
  type TaskRequest,
} from '../crm-provider.js';

export interface HubSpotSettings {
  /** api.hubapi.com, or a stand-in. */
  apiUrl: string;
  /** app.hubspot.com: the authorization page and record pages. */
  appUrl: string;
  oauth: { clientId: string; clientSecret: string } | null;
}

/** The scopes this integration asks for: read contacts to browse them, write to add notes and tasks. */
export const hubspotScopes = ['crm.objects.contacts.read', 'crm.objects.contacts.write'] as const;

const contactProperties = ['firstname', 'lastname', 'email', 'phone', 'company'];
const hubspotDefined = 'HUBSPOT_DEFINED' as AssociationSpecAssociationCategoryEnum;

/** HubSpot CRM v3 through `@hubspot/api-client`: contacts, notes (association 202), tasks (204), OAuth v1. */
export class HubSpotProvider implements CrmProvider {
  readonly id = 'hubspot' as const;
  readonly name = 'HubSpot';
  readonly contactType = 'contact' as const;
  readonly capabilities = ['contacts', 'contact_search', 'notes', 'tasks'] as const;
  /** `hs_note_body` holds at most 65,536 characters. */
  readonly maxBodyChars = 65_536;
  readonly oauth: CrmOAuth | null;

  constructor(private readonly settings: HubSpotSettings) {
    const app = settings.oauth;
    this.oauth = app ? new HubSpotOAuth(settings, app) : null;
  }

  #client(accessToken?: string): Client {
    // No retries inside the SDK: deliveries retry as queue jobs, honouring Retry-After.
    return new Client({
      basePath: this.settings.apiUrl,
      numberOfApiCallRetries: 0,
      ...(accessToken ? { accessToken } : {}),
    });
  }

  async connectWithToken(token: string): Promise<CrmConnection> {
    const client = this.#client(token);
    // A private app's token: it must read contacts, and the portal it belongs to names the connection.
    await call(() => client.crm.contacts.basicApi.getPage(1, undefined, ['email']));
    const response = await call(() => client.apiRequest({ method: 'GET', path: '/account-info/v3/details' }));
    const details = (await response.json()) as { portalId?: unknown; uiDomain?: unknown };
    if (typeof details.portalId !== 'number' && typeof details.portalId !== 'string') {
      throw new CrmProviderError('unavailable', 'HubSpot did not say which portal the token belongs to');
    }
    const portalId = String(details.portalId);
    return {
      externalAccount: portalId,
      accountName: `HubSpot ${portalId}`,
      webDomain: null,
      apiUrl: null,
      tokens: { accessToken: token, refreshToken: null, expiresAt: null },
    };
  }

  async listContacts(
    credentials: CrmCredentials,
    request: ContactsPageRequest,
  ): Promise<ProviderContactsPage> {
    const client = this.#client(credentials.accessToken);
    const after = request.cursor ?? undefined;
    const page = request.query
      ? await call(() =>
          client.crm.contacts.searchApi.doSearch({
            query: request.query ?? '',
            limit: request.limit,
            ...(after ? { after } : {}),
            properties: contactProperties,
            sorts: ['hs_object_id'],
            filterGroups: [],
          }),
        )
      : await call(() => client.crm.contacts.basicApi.getPage(request.limit, after, contactProperties));
    return {
      contacts: page.results.map((contact) => contactOf(contact.id, contact.properties)),
      nextCursor: page.paging?.next?.after ?? null,
    };
  }

  hasContact(credentials: CrmCredentials, contactId: string): Promise<boolean> {
    const client = this.#client(credentials.accessToken);
    return existsAtProvider(() => call(() => client.crm.contacts.basicApi.getById(contactId, ['email'])));
  }

  contactUrl(location: CrmRecordLocation, contactId: string): string {
    return `${this.settings.appUrl}/contacts/${encodeURIComponent(location.externalAccount)}/record/0-1/${encodeURIComponent(contactId)}`;
  }

  recordUrl(location: CrmRecordLocation, contactId: string): string {
    // Notes and tasks have no page of their own: they show on the contact's timeline.
    return this.contactUrl(location, contactId);
  }

  async createNote(credentials: CrmCredentials, note: NoteRequest): Promise<CreatedRecord> {
    const client = this.#client(credentials.accessToken);
    const created = await call(() =>
      client.crm.objects.notes.basicApi.create({
        properties: { hs_note_body: note.body, hs_timestamp: note.timestamp.toISOString() },
        associations: [
          {
            to: { id: note.contactId },
            types: [
              { associationCategory: hubspotDefined, associationTypeId: AssociationTypes.noteToContact },
            ],
          },
        ],
      }),
    );
    return { id: created.id };
  }

  async createTask(credentials: CrmCredentials, task: TaskRequest): Promise<CreatedRecord> {
    const client = this.#client(credentials.accessToken);
    const created = await call(() =>
      client.crm.objects.tasks.basicApi.create({
        properties: {
          hs_task_subject: task.subject,
          hs_task_body: task.body,
          hs_task_status: 'NOT_STARTED',
          hs_timestamp: task.dueAt.toISOString(),
        },
        associations: [
          {
            to: { id: task.contactId },
            types: [
              { associationCategory: hubspotDefined, associationTypeId: AssociationTypes.taskToContact },
            ],
          },
        ],
      }),
    );
    return { id: created.id };
  }

  async revoke(_credentials: CrmCredentials, refreshToken: string | null): Promise<void> {
    // A private app's token can only be rotated in HubSpot; an OAuth connection's refresh token is deleted.
    if (!refreshToken) return;
    const client = this.#client();
    await call(() => client.oauth.refreshTokensApi.archive(refreshToken));
  }
}

class HubSpotOAuth implements CrmOAuth {
  constructor(
    private readonly settings: HubSpotSettings,
    private readonly app: { clientId: string; clientSecret: string },
  ) {}

  authorizeUrl(state: string, redirectUri: string): string {
    const url = new URL(`${this.settings.appUrl}/oauth/authorize`);
    url.searchParams.set('client_id', this.app.clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('scope', hubspotScopes.join(' '));
    url.searchParams.set('state', state);
    return url.toString();
  }

  async exchangeCode(code: string, redirectUri: string): Promise<CrmConnection> {
    const client = new Client({ basePath: this.settings.apiUrl });
    const tokens = tokenSetOf(
      await call(() =>
        client.oauth.tokensApi.create(
          'authorization_code',
          code,
          redirectUri,
          this.app.clientId,
          this.app.clientSecret,
        ),
      ),
    );
    const info = await call(() => client.oauth.accessTokensApi.get(tokens.accessToken));
    const portalId = String(info.hubId);
    return {
      externalAccount: portalId,
      accountName: info.hubDomain ?? `HubSpot ${portalId}`,
      webDomain: null,
      apiUrl: null,
      tokens,
    };
  }

  async refresh(refreshToken: string): Promise<CrmTokenSet> {
    const client = new Client({ basePath: this.settings.apiUrl });
    const answer = await call(() =>
      client.oauth.tokensApi.create(
        'refresh_token',
        undefined,
        undefined,
        this.app.clientId,
        this.app.clientSecret,
        refreshToken,
      ),
    );
    return tokenSetOf(answer);
  }
}

function tokenSetOf(answer: { accessToken: string; refreshToken: string; expiresIn: number }): CrmTokenSet {
  return {
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    expiresAt: new Date(Date.now() + answer.expiresIn * 1000),
  };
}

function contactOf(id: string, properties: Record<string, string | null>): CrmContact {
  const name = [properties.firstname, properties.lastname].filter(Boolean).join(' ').trim();
  return {
    id,
    type: 'contact',
    name: name || properties.email || `#${id}`,
    email: properties.email || null,
    phone: properties.phone || null,
    company: properties.company || null,
  };
}

/** The SDK's ApiException (one class per generated module, so recognised by shape). */
interface HubSpotApiException {
  code: number;
  body: unknown;
  headers: Record<string, string> | undefined;
}

function isApiException(error: unknown): error is HubSpotApiException {
  return (
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'number'
  );
}

/** Runs an SDK call and turns its failures into CrmProviderErrors; the message never carries a token. */
async function call<T>(request: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await request();
  } catch (error) {
    throw hubspotError(error);
  }
  // `apiRequest` answers the raw fetch Response, whatever its status.
  if (result instanceof Response && !result.ok) {
    const body: unknown = await result.json().catch(() => null);
    throw hubspotError({
      code: result.status,
      body,
      headers: Object.fromEntries(result.headers.entries()),
    } satisfies HubSpotApiException);
  }
  return result;
}

function hubspotError(error: unknown): CrmProviderError {
  if (!isApiException(error)) {
    return new CrmProviderError('unavailable', 'HubSpot could not be reached', { cause: error });
  }
  const headers = Object.fromEntries(
    Object.entries(error.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const message = messageOf(error.body) ?? `HubSpot answered HTTP ${error.code}`;
  const retryAfterSeconds = retryAfterSecondsOf(headers['retry-after']);
  return new CrmProviderError(failureOfStatus(error.code), `HubSpot: ${message}`, {
    status: error.code,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  });
}

/** HubSpot's error body: `{status: "error", message, correlationId, category}`. */
function messageOf(body: unknown): string | undefined {
  if (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { message?: unknown }).message === 'string'
  ) {
    return (body as { message: string }).message;
  }
  if (typeof body === 'string' && body.trim()) {
    try {
      return messageOf(JSON.parse(body));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
