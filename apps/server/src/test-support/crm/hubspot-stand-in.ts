import { randomUUID } from 'node:crypto';
import {
  StandInServer,
  bearerOf,
  standInToken,
  type StandInAnswer,
  type StandInRequest,
  type StandInRoute,
} from './stand-in-server.js';

/**
 * A stateful stand-in of the parts of HubSpot's API this product uses, from HubSpot's public
 * reference: CRM v3 contacts (list paged by `paging.next.after`, search), notes and tasks with their
 * contact associations (202, 204), `/account-info/v3/details`, OAuth v1 (authorize page, token,
 * refresh, access-token info, refresh-token deletion), 401 for a bad token, 429 with Retry-After
 * and HubSpot's error bodies. Also the app's authorize page: it consents at once and redirects.
 */

export interface HubSpotContact {
  id: string;
  properties: Record<string, string | null>;
}

export interface HubSpotEngagement {
  id: string;
  kind: 'note' | 'task';
  properties: Record<string, string>;
  /** Contact ids, with the association type used. */
  associations: { contactId: string; typeId: number; category: string }[];
}

interface AccessToken {
  kind: 'private_app' | 'oauth';
  expiresAt: number | null;
  refreshToken: string | null;
}

const maxNoteBody = 65_536;

export class HubSpotStandIn extends StandInServer {
  readonly portalId = 4_410_001;
  readonly hubDomain = 'verbatim-demo.hubspot.com';
  readonly clientId = 'hs-client-id';
  readonly clientSecret = 'hs-client-secret';
  readonly contacts: HubSpotContact[] = [];
  readonly engagements: HubSpotEngagement[] = [];
  /** Seconds an OAuth access token lives. */
  accessTokenTtlSeconds = 1800;
  readonly #tokens = new Map<string, AccessToken>();
  readonly #refreshTokens = new Set<string>();
  readonly #codes = new Map<string, { redirectUri: string }>();
  #nextId = 1001;

  constructor() {
    super();
    const routes: [method: string, path: RegExp, route: StandInRoute][] = [
      [
        'GET',
        /^\/crm\/v3\/objects\/contacts$/,
        (request) => this.#authorized(request, () => this.#listContacts(request)),
      ],
      [
        'GET',
        /^\/crm\/v3\/objects\/contacts\/([^/]+)$/,
        (request, match) => this.#authorized(request, () => this.#contact(match[1] ?? '', request)),
      ],
      [
        'POST',
        /^\/crm\/v3\/objects\/contacts\/search$/,
        (request) => this.#authorized(request, () => this.#search(request)),
      ],
      [
        'POST',
        /^\/crm\/v3\/objects\/notes$/,
        (request) => this.#authorized(request, () => this.#create(request, 'note')),
      ],
      [
        'POST',
        /^\/crm\/v3\/objects\/tasks$/,
        (request) => this.#authorized(request, () => this.#create(request, 'task')),
      ],
      ['GET', /^\/account-info\/v3\/details$/, (request) => this.#authorized(request, () => this.#details())],
      ['GET', /^\/oauth\/authorize$/, (request) => this.#authorize(request)],
      ['POST', /^\/oauth\/v1\/token$/, (request) => this.#token(request)],
      ['GET', /^\/oauth\/v1\/access-tokens\/([^/]+)$/, (_request, match) => this.#tokenInfo(match[1] ?? '')],
      [
        'DELETE',
        /^\/oauth\/v1\/refresh-tokens\/([^/]+)$/,
        (_request, match) => this.#deleteRefresh(match[1] ?? ''),
      ],
    ];
    for (const [method, path, route] of routes) this.route(method, path, route);
  }

  /** A private app's access token, as an account admin copies it from HubSpot. */
  issuePrivateAppToken(): string {
    const token = standInToken('pat-na1');
    this.#tokens.set(token, { kind: 'private_app', expiresAt: null, refreshToken: null });
    return token;
  }

  /** Revokes a token as rotating it in HubSpot (or uninstalling the app) would; its refresh token too. */
  revoke(token: string): void {
    const record = this.#tokens.get(token);
    this.#tokens.delete(token);
    if (record?.refreshToken) this.#refreshTokens.delete(record.refreshToken);
  }

  /** Revokes every token and refresh token issued so far. */
  revokeAll(): void {
    this.#tokens.clear();
    this.#refreshTokens.clear();
  }

  /** Makes every OAuth access token expire now (refresh tokens stay valid). */
  expireAccessTokens(): void {
    for (const record of this.#tokens.values())
      if (record.kind === 'oauth') record.expiresAt = Date.now() - 1;
  }

  isLive(token: string): boolean {
    return this.#tokens.has(token);
  }

  hasRefreshToken(token: string): boolean {
    return this.#refreshTokens.has(token);
  }

  /** The next `times` requests to `method path` get `status` (429 carries Retry-After). */
  fail(method: string, path: RegExp, status: number, times = 1, retryAfterSeconds = 1): void {
    const answer: StandInAnswer =
      status === 429
        ? {
            status,
            headers: { 'retry-after': String(retryAfterSeconds) },
            body: {
              status: 'error',
              message: 'You have reached your secondly limit.',
              errorType: 'RATE_LIMIT',
              correlationId: randomUUID(),
              policyName: 'SECONDLY',
            },
          }
        : {
            status,
            body: {
              status: 'error',
              message: 'internal error',
              correlationId: randomUUID(),
              category: 'INTERNAL_ERROR',
            },
          };
    this.answerNext(method, path, answer, times);
  }

  addContacts(
    count: number,
    make: (index: number) => Record<string, string | null> = defaultContact,
  ): HubSpotContact[] {
    const added: HubSpotContact[] = [];
    for (let index = 0; index < count; index++) {
      const contact = { id: String(this.#nextId++), properties: make(this.contacts.length + 1) };
      this.contacts.push(contact);
      added.push(contact);
    }
    return added;
  }

  #authorized(request: StandInRequest, answer: () => StandInAnswer): StandInAnswer {
    const token = bearerOf(request);
    const record = token ? this.#tokens.get(token) : undefined;
    if (!record) return unauthorized('Authentication credentials not found.', 'INVALID_AUTHENTICATION');
    if (record.expiresAt !== null && record.expiresAt < Date.now()) {
      return unauthorized('The OAuth token used to make this call expired.', 'EXPIRED_AUTHENTICATION');
    }
    return answer();
  }

  #page(
    matching: HubSpotContact[],
    limit: number,
    after: string | null,
    properties: string[],
  ): StandInAnswer {
    const start = after === null ? 0 : matching.findIndex((contact) => Number(contact.id) >= Number(after));
    const from = start < 0 ? matching.length : start;
    const page = matching.slice(from, from + limit);
    const next = matching[from + limit];
    return {
      status: 200,
      body: {
        results: page.map((contact) => objectOf(contact.id, pick(contact.properties, properties))),
        ...(next
          ? {
              paging: {
                next: {
                  after: next.id,
                  link: `${this.url}/crm/v3/objects/contacts?after=${next.id}`,
                },
              },
            }
          : {}),
      },
    };
  }

  #listContacts(request: StandInRequest): StandInAnswer {
    const limit = Math.min(Number(request.query.get('limit') ?? 10), 100);
    // `properties=a,b` and `properties=a&properties=b` (the SDK's form) both list properties.
    const named = request.query.getAll('properties').flatMap((value) => value.split(','));
    const properties = named.length > 0 ? named : ['firstname', 'lastname', 'email'];
    return this.#page(this.contacts, limit, request.query.get('after'), properties);
  }

  /** `GET /crm/v3/objects/contacts/{contactId}`: one contact, or 404 OBJECT_NOT_FOUND. */
  #contact(contactId: string, request: StandInRequest): StandInAnswer {
    const contact = this.contacts.find((candidate) => candidate.id === decodeURIComponent(contactId));
    if (!contact) {
      return { status: 404, body: errorBody(`No contact with id ${contactId} exists`, 'OBJECT_NOT_FOUND') };
    }
    const named = request.query.getAll('properties').flatMap((value) => value.split(','));
    return { status: 200, body: objectOf(contact.id, pick(contact.properties, named)) };
  }

  #search(request: StandInRequest): StandInAnswer {
    const body = request.body as { query?: string; limit?: number; after?: string; properties?: string[] };
    const query = (body.query ?? '').toLowerCase();
    const matching = this.contacts.filter((contact) =>
      ['firstname', 'lastname', 'email', 'phone', 'company'].some((name) =>
        (contact.properties[name] ?? '').toLowerCase().includes(query),
      ),
    );
    const answer = this.#page(
      matching,
      Math.min(body.limit ?? 10, 200),
      body.after ?? null,
      body.properties ?? [],
    );
    return { ...answer, body: { total: matching.length, ...(answer.body as object) } };
  }

  #create(request: StandInRequest, kind: 'note' | 'task'): StandInAnswer {
    const body = request.body as {
      properties?: Record<string, string>;
      associations?: {
        to?: { id?: string };
        types?: { associationCategory?: string; associationTypeId?: number }[];
      }[];
    };
    const properties = body.properties ?? {};
    if (!properties.hs_timestamp)
      return validationError('Property values were not valid: hs_timestamp is required');
    const text = kind === 'note' ? properties.hs_note_body : properties.hs_task_body;
    if ((text ?? '').length > maxNoteBody) {
      return validationError(
        `Property values were not valid: the body is longer than ${maxNoteBody} characters`,
      );
    }
    if (kind === 'task' && !properties.hs_task_subject) {
      return validationError('Property values were not valid: hs_task_subject is required');
    }
    const associations: HubSpotEngagement['associations'] = [];
    for (const association of body.associations ?? []) {
      const contactId = association.to?.id ?? '';
      if (!this.contacts.some((contact) => contact.id === contactId)) {
        return { status: 404, body: errorBody(`No contact with id ${contactId} exists`, 'OBJECT_NOT_FOUND') };
      }
      for (const type of association.types ?? []) {
        const expected = kind === 'note' ? 202 : 204;
        if (type.associationTypeId !== expected || type.associationCategory !== 'HUBSPOT_DEFINED') {
          return validationError(
            `association type ${String(type.associationTypeId)} does not link a ${kind} to a contact`,
          );
        }
        associations.push({ contactId, typeId: type.associationTypeId, category: type.associationCategory });
      }
    }
    const id = String(this.#nextId++);
    this.engagements.push({ id, kind, properties, associations });
    return { status: 201, body: objectOf(id, properties) };
  }

  #details(): StandInAnswer {
    return {
      status: 200,
      body: {
        portalId: this.portalId,
        accountType: 'STANDARD',
        timeZone: 'Europe/Paris',
        companyCurrency: 'EUR',
        additionalCurrencies: [],
        utcOffset: '+01:00',
        utcOffsetMilliseconds: 3_600_000,
        uiDomain: 'app.hubspot.com',
        dataHostingLocation: 'eu1',
      },
    };
  }

  /** The user consents at once: back to the redirect URI with a code and the state, as HubSpot does. */
  #authorize(request: StandInRequest): StandInAnswer {
    const redirectUri = request.query.get('redirect_uri');
    if (request.query.get('client_id') !== this.clientId || !redirectUri) {
      return { status: 400, body: errorBody('Unknown client or missing redirect_uri', 'VALIDATION_ERROR') };
    }
    const code = standInToken('hs-code');
    this.#codes.set(code, { redirectUri });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    const state = request.query.get('state');
    if (state) target.searchParams.set('state', state);
    return { status: 302, headers: { location: target.toString() } };
  }

  #token(request: StandInRequest): StandInAnswer {
    const form = request.form;
    if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) {
      return { status: 400, body: { status: 'BAD_CLIENT_ID', message: 'missing or invalid client_id' } };
    }
    if (form.get('grant_type') === 'authorization_code') {
      const code = form.get('code') ?? '';
      const issued = this.#codes.get(code);
      this.#codes.delete(code);
      if (!issued)
        return { status: 400, body: { status: 'BAD_AUTH_CODE', message: 'missing or unknown auth code' } };
      if (issued.redirectUri !== form.get('redirect_uri')) {
        return { status: 400, body: { status: 'BAD_REDIRECT_URI', message: 'redirect_uri does not match' } };
      }
      return this.#issue(standInToken('hs-refresh'));
    }
    if (form.get('grant_type') === 'refresh_token') {
      const refreshToken = form.get('refresh_token') ?? '';
      if (!this.#refreshTokens.has(refreshToken)) {
        return {
          status: 400,
          body: { status: 'BAD_REFRESH_TOKEN', message: 'missing or unknown refresh token' },
        };
      }
      return this.#issue(refreshToken);
    }
    return { status: 400, body: { status: 'BAD_GRANT_TYPE', message: 'unsupported grant_type' } };
  }

  #issue(refreshToken: string): StandInAnswer {
    const accessToken = standInToken('hs-access');
    this.#refreshTokens.add(refreshToken);
    this.#tokens.set(accessToken, {
      kind: 'oauth',
      expiresAt: Date.now() + this.accessTokenTtlSeconds * 1000,
      refreshToken,
    });
    return {
      status: 200,
      body: {
        token_type: 'bearer',
        refresh_token: refreshToken,
        access_token: accessToken,
        expires_in: this.accessTokenTtlSeconds,
      },
    };
  }

  #tokenInfo(token: string): StandInAnswer {
    const record = this.#tokens.get(token);
    if (!record || record.kind !== 'oauth') {
      return { status: 404, body: errorBody('access token not found', 'OBJECT_NOT_FOUND') };
    }
    return {
      status: 200,
      body: {
        token,
        user: 'owner@example.com',
        hub_domain: this.hubDomain,
        scopes: ['oauth', 'crm.objects.contacts.read', 'crm.objects.contacts.write'],
        hub_id: this.portalId,
        app_id: 77,
        expires_in: Math.max(0, Math.round(((record.expiresAt ?? Date.now()) - Date.now()) / 1000)),
        user_id: 123,
        token_type: 'access',
      },
    };
  }

  #deleteRefresh(token: string): StandInAnswer {
    if (!this.#refreshTokens.delete(token)) {
      return { status: 404, body: errorBody('refresh token not found', 'OBJECT_NOT_FOUND') };
    }
    for (const [accessToken, record] of this.#tokens)
      if (record.refreshToken === token) this.#tokens.delete(accessToken);
    return { status: 204 };
  }
}

function defaultContact(index: number): Record<string, string | null> {
  return {
    firstname: `Ada${index}`,
    lastname: `Lovelace${index}`,
    email: `ada${index}@example.com`,
    phone: `+33 1 00 00 ${String(index).padStart(4, '0')}`,
    company: `Engines ${index}`,
  };
}

function pick(properties: Record<string, string | null>, names: string[]): Record<string, string | null> {
  return Object.fromEntries(names.map((name) => [name, properties[name] ?? null]));
}

function objectOf(id: string, properties: Record<string, string | null>) {
  const now = new Date().toISOString();
  return {
    id,
    properties: { ...properties, hs_object_id: id, createdate: now, lastmodifieddate: now },
    createdAt: now,
    updatedAt: now,
    archived: false,
  };
}

function errorBody(message: string, category: string) {
  return { status: 'error', message, correlationId: randomUUID(), category };
}

function unauthorized(message: string, category: string): StandInAnswer {
  return { status: 401, body: errorBody(message, category) };
}

function validationError(message: string): StandInAnswer {
  return { status: 400, body: errorBody(message, 'VALIDATION_ERROR') };
}
