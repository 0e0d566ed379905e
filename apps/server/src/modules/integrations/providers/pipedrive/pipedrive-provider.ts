import type { CrmContact } from '@verbatim/contracts';
import { Configuration as ConfigurationV1, NotesApi, UsersApi } from 'pipedrive/v1';
import {
  ActivitiesApi,
  Configuration as ConfigurationV2,
  OAuth2Configuration,
  PersonsApi,
  type TokenResponse,
} from 'pipedrive/v2';
import {
  CrmProviderError,
  failureOfStatus,
  retryAfterSecondsOf,
  type ContactsPageRequest,
  type CreatedRecord,
  type CrmAccount,
  type CrmConnection,
  existsAtProvider,
  type CrmCredentials,
  type CrmOAuth,
  type CrmProvider,
  type CrmRecordLocation,
  type CrmTokenSet,
  type NoteRequest,
  type ProviderContactsPage,
  type TaskRequest,
} from '../crm-provider.js';

export interface PipedriveSettings {
  /** api.pipedrive.com (personal tokens; OAuth connections use their token's `api_domain`), or a stand-in. */
  apiUrl: string;
  /** oauth.pipedrive.com, or a stand-in. */
  oauthUrl: string;
  oauth: { clientId: string; clientSecret: string } | null;
}

/**
 * The SDK's clients turn every error answer into its bare body, losing the status and the
 * Retry-After header that decide between reconnecting, waiting and giving up. This keeps the SDK's
 * request building and replaces only that interceptor of the client's own axios instance: success
 * still yields the body, an error stays the axios error (with its response).
 */
function keepingErrors<Client extends object>(client: Client): Client {
  const { axios } = client as unknown as {
    axios: {
      interceptors: {
        response: { clear(): void; use(onFulfilled: (response: { data?: unknown }) => unknown): number };
      };
    };
  };
  axios.interceptors.response.clear();
  axios.interceptors.response.use((response) => response.data ?? response);
  return client;
}

/** Pipedrive through the `pipedrive` SDK: v2 persons and activities, v1 notes and users, OAuth. */
export class PipedriveProvider implements CrmProvider {
  readonly id = 'pipedrive' as const;
  readonly name = 'Pipedrive';
  readonly contactType = 'person' as const;
  readonly capabilities = ['contacts', 'contact_search', 'notes', 'tasks'] as const;
  /** Pipedrive publishes no limit for a note's content; 100,000 characters keeps a note readable. */
  readonly maxBodyChars = 100_000;
  readonly oauth: CrmOAuth | null;

  constructor(private readonly settings: PipedriveSettings) {
    const app = settings.oauth;
    this.oauth = app
      ? new PipedriveOAuth(settings, app, (credentials) => this.#currentCompany(credentials))
      : null;
  }

  #v1(credentials: CrmCredentials): ConfigurationV1 {
    return new ConfigurationV1({
      ...authOf(credentials),
      basePath: `${credentials.apiUrl ?? this.settings.apiUrl}/v1`,
    });
  }

  #v2(credentials: CrmCredentials): ConfigurationV2 {
    return new ConfigurationV2({
      ...authOf(credentials),
      basePath: `${credentials.apiUrl ?? this.settings.apiUrl}/api/v2`,
    });
  }

  async connectWithToken(token: string): Promise<CrmConnection> {
    const credentials: CrmCredentials = { accessToken: token, apiUrl: null, method: 'token' };
    const account = await this.#currentCompany(credentials);
    return { ...account, apiUrl: null, tokens: { accessToken: token, refreshToken: null, expiresAt: null } };
  }

  async #currentCompany(credentials: CrmCredentials): Promise<Omit<CrmAccount, 'apiUrl'>> {
    const answer = await call(() => keepingErrors(new UsersApi(this.#v1(credentials))).getCurrentUser());
    const user = answer.data;
    if (user?.company_id === undefined) {
      throw new CrmProviderError('unavailable', 'Pipedrive did not say which company the token belongs to');
    }
    return {
      externalAccount: String(user.company_id),
      accountName: user.company_name ?? user.company_domain ?? `Pipedrive ${user.company_id}`,
      webDomain: user.company_domain ?? null,
    };
  }

  async listContacts(
    credentials: CrmCredentials,
    request: ContactsPageRequest,
  ): Promise<ProviderContactsPage> {
    const persons = keepingErrors(new PersonsApi(this.#v2(credentials)));
    const cursor = request.cursor ?? undefined;
    if (request.query) {
      // Pipedrive searches terms of 2 characters or more (1 with exact_match).
      const term = request.query;
      const answer = await call(() =>
        persons.searchPersons({
          term,
          limit: request.limit,
          ...(term.length < 2 ? { exact_match: true } : {}),
          ...(cursor ? { cursor } : {}),
        }),
      );
      return {
        contacts: (answer.data?.items ?? []).flatMap(({ item }) =>
          item?.id === undefined
            ? []
            : [
                contactOf(item.id, {
                  name: item.name,
                  email: item.emails?.[0],
                  phone: item.phones?.[0],
                  company: item.organization?.name,
                }),
              ],
        ),
        nextCursor: answer.additional_data?.next_cursor ?? null,
      };
    }
    const answer = await call(() =>
      persons.getPersons({ limit: request.limit, sort_by: 'id', ...(cursor ? { cursor } : {}) }),
    );
    return {
      contacts: (answer.data ?? []).flatMap((person) =>
        person.id === undefined
          ? []
          : [
              contactOf(person.id, {
                name: person.name,
                email: (person.emails?.find((email) => email.primary) ?? person.emails?.[0])?.value,
                phone: (person.phones?.find((phone) => phone.primary) ?? person.phones?.[0])?.value,
                company: undefined,
              }),
            ],
      ),
      nextCursor: answer.additional_data?.next_cursor ?? null,
    };
  }

  hasContact(credentials: CrmCredentials, contactId: string): Promise<boolean> {
    const persons = keepingErrors(new PersonsApi(this.#v2(credentials)));
    return existsAtProvider(() => call(() => persons.getPerson({ id: personIdOf(contactId) })));
  }

  contactUrl(location: CrmRecordLocation, contactId: string): string {
    const company = location.webDomain ?? 'app';
    return `https://${company}.pipedrive.com/person/${encodeURIComponent(contactId)}`;
  }

  recordUrl(location: CrmRecordLocation, contactId: string): string {
    // Notes and activities show in the person's history.
    return this.contactUrl(location, contactId);
  }

  async createNote(credentials: CrmCredentials, note: NoteRequest): Promise<CreatedRecord> {
    const personId = personIdOf(note.contactId);
    const answer = await call(() =>
      keepingErrors(new NotesApi(this.#v1(credentials))).addNote({
        AddNoteRequest: { content: note.body, person_id: personId },
      }),
    );
    return { id: recordIdOf(answer.data?.id) };
  }

  async createTask(credentials: CrmCredentials, task: TaskRequest): Promise<CreatedRecord> {
    const personId = personIdOf(task.contactId);
    const answer = await call(() =>
      keepingErrors(new ActivitiesApi(this.#v2(credentials))).addActivity({
        AddActivityRequest: {
          subject: task.subject,
          type: 'task',
          due_date: task.dueAt.toISOString().slice(0, 10),
          due_time: task.dueAt.toISOString().slice(11, 16),
          note: task.body,
          participants: [{ person_id: personId, primary: true }],
        },
      }),
    );
    return { id: recordIdOf(answer.data?.id) };
  }

  async revoke(credentials: CrmCredentials, refreshToken: string | null): Promise<void> {
    // A personal API token can only be regenerated in Pipedrive; OAuth grants are revoked.
    if (!this.oauth || credentials.method !== 'oauth' || !refreshToken) return;
    const oauth = (this.oauth as PipedriveOAuth).client();
    oauth.updateToken({ ...emptyToken, refresh_token: refreshToken });
    await call(() => oauth.revokeToken('refresh_token'));
  }
}

const emptyToken: TokenResponse = {
  access_token: '',
  refresh_token: '',
  token_type: '',
  expires_in: 0,
  scope: '',
  api_domain: '',
};

class PipedriveOAuth implements CrmOAuth {
  constructor(
    private readonly settings: PipedriveSettings,
    private readonly app: { clientId: string; clientSecret: string },
    private readonly currentCompany: (credentials: CrmCredentials) => Promise<Omit<CrmAccount, 'apiUrl'>>,
  ) {}

  /** A fresh SDK OAuth client per use: it keeps the tokens it sees in itself. */
  client(redirectUri = this.settings.oauthUrl): OAuth2Configuration {
    // The redirect URI matters only to the authorization and the code exchange; the SDK requires one.
    return keepingErrors(
      new OAuth2Configuration({
        clientId: this.app.clientId,
        clientSecret: this.app.clientSecret,
        redirectUri,
        host: this.settings.oauthUrl,
      }),
    );
  }

  authorizeUrl(state: string, redirectUri: string): string {
    const url = new URL(this.client(redirectUri).authorizationUrl);
    url.searchParams.set('state', state);
    return url.toString();
  }

  async exchangeCode(code: string, redirectUri: string): Promise<CrmConnection> {
    const oauth = this.client(redirectUri);
    const answer = await call(() => oauth.authorize(code));
    const tokens = tokenSetOf(answer);
    const apiUrl = apiDomainOf(answer);
    const account = await this.currentCompany({ accessToken: tokens.accessToken, apiUrl, method: 'oauth' });
    return {
      ...account,
      apiUrl,
      tokens,
    };
  }

  async refresh(refreshToken: string): Promise<CrmTokenSet> {
    const oauth = this.client();
    oauth.updateToken({ ...emptyToken, refresh_token: refreshToken });
    return tokenSetOf(await call(() => oauth.tokenRefresh()));
  }
}

function tokenSetOf(answer: TokenResponse): CrmTokenSet {
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token || null,
    expiresAt: new Date(Date.now() + answer.expires_in * 1000),
  };
}

/** Each company answers at its own `api_domain`; it must be an http(s) origin. */
function apiDomainOf(answer: TokenResponse): string {
  try {
    const url = new URL(answer.api_domain);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
  } catch {
    // fall through
  }
  throw new CrmProviderError('unavailable', 'Pipedrive answered without a usable api_domain');
}

function authOf(credentials: CrmCredentials): { apiKey: string } | { accessToken: string } {
  return credentials.method === 'token'
    ? { apiKey: credentials.accessToken }
    : { accessToken: credentials.accessToken };
}

function personIdOf(contactId: string): number {
  if (!/^\d{1,15}$/.test(contactId)) {
    throw new CrmProviderError('rejected', `Pipedrive person ids are numbers, not "${contactId}"`);
  }
  return Number(contactId);
}

function recordIdOf(id: number | undefined): string {
  if (id === undefined) throw new CrmProviderError('unavailable', 'Pipedrive did not return the new record');
  return String(id);
}

function contactOf(
  id: number,
  fields: {
    name?: string | undefined;
    email?: string | undefined;
    phone?: string | undefined;
    company?: string | undefined;
  },
): CrmContact {
  return {
    id: String(id),
    type: 'person',
    name: fields.name || fields.email || `#${id}`,
    email: fields.email || null,
    phone: fields.phone || null,
    company: fields.company || null,
  };
}

/** The error an axios request rejects with, recognised by shape (axios is the SDK's own dependency). */
interface AxiosLikeError {
  response?: { status: number; data?: unknown; headers?: Record<string, unknown> };
}

async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw pipedriveError(error);
  }
}

function pipedriveError(error: unknown): CrmProviderError {
  if (error instanceof CrmProviderError) return error;
  const response = (error as AxiosLikeError | null)?.response;
  if (!response || typeof response.status !== 'number') {
    return new CrmProviderError('unavailable', 'Pipedrive could not be reached', { cause: error });
  }
  const retryAfter = response.headers?.['retry-after'];
  const retryAfterSeconds = retryAfterSecondsOf(typeof retryAfter === 'string' ? retryAfter : undefined);
  return new CrmProviderError(
    failureOfStatus(response.status),
    `Pipedrive: ${messageOf(response.data) ?? `HTTP ${response.status}`}`,
    { status: response.status, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) },
  );
}

/** Pipedrive's error body: `{success: false, error, error_info?, errorCode?}`; OAuth: `{error, error_description}`. */
function messageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { error, error_description: description } = body as { error?: unknown; error_description?: unknown };
  if (typeof description === 'string') return description;
  return typeof error === 'string' ? error : undefined;
}
