import type { CrmCapability, CrmContact, CrmContactType, CrmProviderId } from '@verbatim/contracts';

/** What a provider call needs: the access token and, when the connection has its own, the API base. */
export interface CrmCredentials {
  accessToken: string;
  /** Pipedrive OAuth connections answer at their company's `api_domain`; null: the configured API URL. */
  apiUrl: string | null;
  /** How the token was obtained: personal tokens are sent the way the provider expects them. */
  method: 'oauth' | 'token';
}

/** A set of tokens from the provider's token endpoint. */
export interface CrmTokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** null: the token does not expire (personal tokens). */
  expiresAt: Date | null;
}

/** The CRM account a token belongs to. */
export interface CrmAccount {
  /** Stable id of the CRM account: HubSpot portal id, Pipedrive company id. */
  externalAccount: string;
  accountName: string;
  /** Pipedrive's company subdomain (record pages live under it); null for HubSpot. */
  webDomain: string | null;
  apiUrl: string | null;
}

export interface CrmConnection extends CrmAccount {
  tokens: CrmTokenSet;
}

export interface ContactsPageRequest {
  /** The provider's own cursor (HubSpot `after`, Pipedrive `cursor`); null: the first page. */
  cursor: string | null;
  query: string | null;
  limit: number;
}

export interface ProviderContactsPage {
  contacts: CrmContact[];
  nextCursor: string | null;
}

export interface CreatedRecord {
  id: string;
}

export interface NoteRequest {
  contactId: string;
  /** HTML (both providers render it), already within `maxBodyChars`. */
  body: string;
  timestamp: Date;
}

export interface TaskRequest extends NoteRequest {
  subject: string;
  dueAt: Date;
}

/** Where a record lives, for its web link. */
export interface CrmRecordLocation {
  externalAccount: string;
  webDomain: string | null;
}

/** The OAuth 2.0 authorization code flow of a provider whose app the operator configured. */
export interface CrmOAuth {
  authorizeUrl(state: string, redirectUri: string): string;
  exchangeCode(code: string, redirectUri: string): Promise<CrmConnection>;
  refresh(refreshToken: string): Promise<CrmTokenSet>;
}

/**
 * One CRM. Each provider is one folder implementing this over its official SDK; nothing outside the
 * folder knows a provider's paths, bodies or error shapes. Failures are `CrmProviderError`s.
 */
export interface CrmProvider {
  readonly id: CrmProviderId;
  readonly name: string;
  readonly contactType: CrmContactType;
  readonly capabilities: readonly CrmCapability[];
  /** The longest note or task body the provider accepts. */
  readonly maxBodyChars: number;
  /** null: no OAuth app configured on this server; only personal tokens. */
  readonly oauth: CrmOAuth | null;
  /** Checks a pasted personal token against the provider; CrmProviderError 'unauthorized' when refused. */
  connectWithToken(token: string): Promise<CrmConnection>;
  listContacts(credentials: CrmCredentials, request: ContactsPageRequest): Promise<ProviderContactsPage>;
  contactUrl(location: CrmRecordLocation, contactId: string): string;
  /** Whether the CRM account has this contact (false: no such contact, or not a valid id there). */
  hasContact(credentials: CrmCredentials, contactId: string): Promise<boolean>;
  createNote(credentials: CrmCredentials, note: NoteRequest): Promise<CreatedRecord>;
  createTask(credentials: CrmCredentials, task: TaskRequest): Promise<CreatedRecord>;
  /** The record page of a created note or task (on the contact's record: both providers show them there). */
  recordUrl(location: CrmRecordLocation, contactId: string, record: CreatedRecord): string;
  /** Revokes at the provider where it has a revocation call; personal tokens are only forgotten. */
  revoke(credentials: CrmCredentials, refreshToken: string | null): Promise<void>;
}

export type CrmFailure =
  /** The provider refused the token: the connection needs reconnecting. */
  | 'unauthorized'
  /** Slow down; retry after `retryAfterSeconds`. */
  | 'rate_limited'
  /** 5xx or unreachable: retry later. */
  | 'unavailable'
  /** Any other refusal (a contact that does not exist, a bad field): retrying will not help. */
  | 'rejected';

export class CrmProviderError extends Error {
  constructor(
    readonly failure: CrmFailure,
    message: string,
    readonly options: { status?: number; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'CrmProviderError';
  }

  get retryAfterSeconds(): number | undefined {
    return this.options.retryAfterSeconds;
  }
}

/** Reads a Retry-After header (seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSecondsOf(value: string | undefined | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Maps an HTTP status from a provider to what the caller should do. */
export function failureOfStatus(status: number): CrmFailure {
  if (status === 401) return 'unauthorized';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'unavailable';
  return 'rejected';
}

/** Escapes text for the HTML bodies both providers render. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Runs a lookup of one record: false when the provider refuses it (404, or an id it cannot hold). */
export async function existsAtProvider(lookup: () => Promise<unknown>): Promise<boolean> {
  try {
    await lookup();
    return true;
  } catch (error) {
    if (error instanceof CrmProviderError && error.failure === 'rejected') return false;
    throw error;
  }
}
