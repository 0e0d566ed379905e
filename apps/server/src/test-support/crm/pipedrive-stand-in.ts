import {
  StandInServer,
  basicOf,
  bearerOf,
  standInToken,
  type StandInAnswer,
  type StandInRequest,
  type StandInRoute,
} from './stand-in-server.js';

/**
 * A stateful stand-in of the parts of Pipedrive's API this product uses, from Pipedrive's public
 * reference: `GET /v1/users/me`, v2 persons (cursor pagination through
 * `additional_data.next_cursor`, search), `POST /v1/notes`, `POST /api/v2/activities`, and OAuth at
 * its own origin (authorize page that consents at once, `/oauth/token` with Basic client
 * credentials, refresh, `/oauth/revoke`); personal API tokens in `x-api-token` (or `api_token`),
 * 401 for a bad token, 429 with Retry-After, and Pipedrive's `{success: false, error}` bodies. One
 * server plays both origins: OAuth token answers give its own URL as `api_domain`.
 */

export interface PipedrivePerson {
  id: number;
  name: string;
  emails: { value: string; primary: boolean; label: string }[];
  phones: { value: string; primary: boolean; label: string }[];
  org: { id: number; name: string } | null;
}

export interface PipedriveNote {
  id: number;
  content: string;
  person_id: number;
}

export interface PipedriveActivity {
  id: number;
  subject: string;
  type: string;
  due_date: string;
  due_time: string | null;
  note: string | null;
  participants: { person_id: number; primary: boolean }[];
}

interface Grant {
  kind: 'api_token' | 'oauth';
  expiresAt: number | null;
  refreshToken: string | null;
}

export class PipedriveStandIn extends StandInServer {
  readonly companyId = 7_700_123;
  readonly companyName = 'Verbatim Demo Ltd';
  readonly companyDomain = 'verbatim-demo';
  readonly clientId = 'pd-client-id';
  readonly clientSecret = 'pd-client-secret';
  readonly persons: PipedrivePerson[] = [];
  readonly notes: PipedriveNote[] = [];
  readonly activities: PipedriveActivity[] = [];
  accessTokenTtlSeconds = 3599;
  readonly #grants = new Map<string, Grant>();
  readonly #refreshTokens = new Set<string>();
  readonly #codes = new Map<string, { redirectUri: string }>();
  #nextId = 1;

  constructor() {
    super();
    const routes: [method: string, path: RegExp, route: StandInRoute][] = [
      ['GET', /^\/v1\/users\/me$/, (request) => this.#authorized(request, () => this.#me())],
      ['GET', /^\/api\/v2\/persons$/, (request) => this.#authorized(request, () => this.#persons(request))],
      [
        'GET',
        /^\/api\/v2\/persons\/search$/,
        (request) => this.#authorized(request, () => this.#search(request)),
      ],
      [
        'GET',
        /^\/api\/v2\/persons\/(\d+)$/,
        (request, match) => this.#authorized(request, () => this.#person(Number(match[1]))),
      ],
      ['POST', /^\/v1\/notes$/, (request) => this.#authorized(request, () => this.#addNote(request))],
      [
        'POST',
        /^\/api\/v2\/activities$/,
        (request) => this.#authorized(request, () => this.#addActivity(request)),
      ],
      ['GET', /^\/oauth\/authorize$/, (request) => this.#authorize(request)],
      ['POST', /^\/oauth\/token$/, (request) => this.#token(request)],
      ['POST', /^\/oauth\/revoke$/, (request) => this.#revoke(request)],
    ];
    for (const [method, path, route] of routes) this.route(method, path, route);
  }

  /** A personal API token, as a user copies it from Personal preferences → API. */
  issueApiToken(): string {
    const token = standInToken('pd').replace(/-/g, '');
    this.#grants.set(token, { kind: 'api_token', expiresAt: null, refreshToken: null });
    return token;
  }

  revoke(token: string): void {
    this.#grants.delete(token);
  }

  revokeAll(): void {
    this.#grants.clear();
    this.#refreshTokens.clear();
  }

  expireAccessTokens(): void {
    for (const grant of this.#grants.values()) if (grant.kind === 'oauth') grant.expiresAt = Date.now() - 1;
  }

  hasRefreshToken(token: string): boolean {
    return this.#refreshTokens.has(token);
  }

  fail(method: string, path: RegExp, status: number, times = 1, retryAfterSeconds = 1): void {
    const answer: StandInAnswer =
      status === 429
        ? {
            status,
            headers: {
              'retry-after': String(retryAfterSeconds),
              'x-ratelimit-reset': String(retryAfterSeconds),
            },
            body: errorBody('Request over limit', 429),
          }
        : { status, body: errorBody('Internal server error', status) };
    this.answerNext(method, path, answer, times);
  }

  addPersons(count: number): PipedrivePerson[] {
    const added: PipedrivePerson[] = [];
    for (let index = 0; index < count; index++) {
      const n = this.persons.length + 1;
      const person: PipedrivePerson = {
        id: this.#nextId++,
        name: `Grace Hopper ${n}`,
        emails: [{ value: `grace${n}@example.com`, primary: true, label: 'work' }],
        phones: [{ value: `+1 555 01${String(n).padStart(4, '0')}`, primary: true, label: 'work' }],
        org: { id: 9000 + n, name: `Compilers ${n}` },
      };
      this.persons.push(person);
      added.push(person);
    }
    return added;
  }

  #authorized(request: StandInRequest, answer: () => StandInAnswer): StandInAnswer {
    const token =
      bearerOf(request) ??
      (request.headers['x-api-token'] as string | undefined) ??
      request.query.get('api_token');
    const grant = token ? this.#grants.get(token) : undefined;
    if (!grant || (grant.expiresAt !== null && grant.expiresAt < Date.now())) {
      return { status: 401, body: errorBody('unauthorized access', 401) };
    }
    return answer();
  }

  #me(): StandInAnswer {
    return {
      status: 200,
      body: {
        success: true,
        data: {
          id: 42,
          name: 'Owner',
          email: 'owner@example.com',
          company_id: this.companyId,
          company_name: this.companyName,
          company_domain: this.companyDomain,
          company_country: 'FR',
          language: { language_code: 'en', country_code: 'US' },
          locale: 'en_US',
          timezone_name: 'Europe/Paris',
          active_flag: true,
        },
      },
    };
  }

  /** Cursors are opaque: base64 of the id the next page starts at. */
  #page<T>(
    items: T[],
    idOf: (item: T) => number,
    request: StandInRequest,
  ): { page: T[]; nextCursor: string | null } | StandInAnswer {
    const limit = Number(request.query.get('limit') ?? 100);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      return {
        status: 400,
        body: errorBody('Validation failed: limit: Number must be less than or equal to 500', 400),
      };
    }
    const cursor = request.query.get('cursor');
    let from = 0;
    if (cursor) {
      const startId = Number(Buffer.from(cursor, 'base64').toString('utf8').replace(/^id:/, ''));
      if (!Number.isInteger(startId)) return { status: 400, body: errorBody('Invalid cursor', 400) };
      from = items.findIndex((item) => idOf(item) >= startId);
      if (from < 0) from = items.length;
    }
    const page = items.slice(from, from + limit);
    const next = items[from + limit];
    return { page, nextCursor: next ? Buffer.from(`id:${idOf(next)}`).toString('base64') : null };
  }

  /** `GET /api/v2/persons/{id}`: one person, or 404. */
  #person(id: number): StandInAnswer {
    const person = this.persons.find((candidate) => candidate.id === id);
    if (!person) return { status: 404, body: errorBody('Person not found', 404) };
    return {
      status: 200,
      body: {
        success: true,
        data: { id: person.id, name: person.name, emails: person.emails, phones: person.phones },
      },
    };
  }

  #persons(request: StandInRequest): StandInAnswer {
    const result = this.#page(this.persons, (person) => person.id, request);
    if ('status' in result) return result;
    return {
      status: 200,
      body: {
        success: true,
        data: result.page.map((person) => ({
          id: person.id,
          name: person.name,
          first_name: person.name.split(' ')[0],
          last_name: person.name.split(' ').slice(1).join(' '),
          owner_id: 42,
          org_id: person.org?.id ?? null,
          add_time: '2026-01-05T10:00:00Z',
          update_time: '2026-01-05T10:00:00Z',
          emails: person.emails,
          phones: person.phones,
          is_deleted: false,
          visible_to: 3,
        })),
        additional_data: { next_cursor: result.nextCursor },
      },
    };
  }

  #search(request: StandInRequest): StandInAnswer {
    const term = (request.query.get('term') ?? '').toLowerCase();
    const exact = request.query.get('exact_match') === 'true';
    if (term.length < (exact ? 1 : 2)) {
      return {
        status: 400,
        body: errorBody('Validation failed: term: Must be at least 2 characters long', 400),
      };
    }
    const matching = this.persons.filter((person) =>
      [
        person.name,
        ...person.emails.map((email) => email.value),
        ...person.phones.map((phone) => phone.value),
      ].some((value) => (exact ? value.toLowerCase() === term : value.toLowerCase().includes(term))),
    );
    const result = this.#page(matching, (person) => person.id, request);
    if ('status' in result) return result;
    return {
      status: 200,
      body: {
        success: true,
        data: {
          items: result.page.map((person) => ({
            result_score: 1,
            item: {
              id: person.id,
              type: 'person',
              name: person.name,
              phones: person.phones.map((phone) => phone.value),
              emails: person.emails.map((email) => email.value),
              visible_to: 3,
              owner: { id: 42 },
              organization: person.org,
              custom_fields: [],
              notes: [],
            },
          })),
        },
        additional_data: { next_cursor: result.nextCursor },
      },
    };
  }

  #addNote(request: StandInRequest): StandInAnswer {
    const body = request.body as { content?: string; person_id?: number };
    if (!body.content) return { status: 400, body: errorBody('Note content is required', 400) };
    if (!this.persons.some((person) => person.id === body.person_id)) {
      return { status: 404, body: errorBody('Person not found', 404) };
    }
    const note: PipedriveNote = { id: this.#nextId++, content: body.content, person_id: body.person_id ?? 0 };
    this.notes.push(note);
    return {
      status: 201,
      body: {
        success: true,
        data: { ...note, add_time: '2026-01-05 10:00:00', active_flag: true, user_id: 42 },
      },
    };
  }

  #addActivity(request: StandInRequest): StandInAnswer {
    const body = request.body as Partial<PipedriveActivity>;
    if (!body.subject || !body.due_date || !/^\d{4}-\d{2}-\d{2}$/.test(body.due_date)) {
      return {
        status: 400,
        body: errorBody('Validation failed: subject and due_date (YYYY-MM-DD) are required', 400),
      };
    }
    const participants = body.participants ?? [];
    if (
      participants.some((participant) => !this.persons.some((person) => person.id === participant.person_id))
    ) {
      return { status: 404, body: errorBody('Person not found', 404) };
    }
    const activity: PipedriveActivity = {
      id: this.#nextId++,
      subject: body.subject,
      type: body.type ?? 'task',
      due_date: body.due_date,
      due_time: body.due_time ?? null,
      note: body.note ?? null,
      participants,
    };
    this.activities.push(activity);
    return { status: 200, body: { success: true, data: { ...activity, done: false, owner_id: 42 } } };
  }

  #authorize(request: StandInRequest): StandInAnswer {
    const redirectUri = request.query.get('redirect_uri');
    if (request.query.get('client_id') !== this.clientId || !redirectUri) {
      return {
        status: 400,
        body: { error: 'invalid_request', error_description: 'unknown client or redirect_uri' },
      };
    }
    const code = standInToken('pd-code');
    this.#codes.set(code, { redirectUri });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    const state = request.query.get('state');
    if (state) target.searchParams.set('state', state);
    return { status: 302, headers: { location: target.toString() } };
  }

  #token(request: StandInRequest): StandInAnswer {
    const client = basicOf(request);
    if (client?.id !== this.clientId || client.secret !== this.clientSecret) {
      return {
        status: 401,
        body: { error: 'invalid_client', error_description: 'Invalid client credentials' },
      };
    }
    const form = request.form;
    if (form.get('grant_type') === 'authorization_code') {
      const code = form.get('code') ?? '';
      const issued = this.#codes.get(code);
      this.#codes.delete(code);
      if (!issued || issued.redirectUri !== form.get('redirect_uri')) {
        return {
          status: 400,
          body: { error: 'invalid_grant', error_description: 'Invalid authorization code' },
        };
      }
      return this.#issue(standInToken('pd-refresh'));
    }
    if (form.get('grant_type') === 'refresh_token') {
      const refreshToken = form.get('refresh_token') ?? '';
      if (!this.#refreshTokens.has(refreshToken)) {
        return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid refresh token' } };
      }
      return this.#issue(refreshToken);
    }
    return {
      status: 400,
      body: { error: 'unsupported_grant_type', error_description: 'Unsupported grant type' },
    };
  }

  #issue(refreshToken: string): StandInAnswer {
    const accessToken = standInToken('pd-access');
    this.#refreshTokens.add(refreshToken);
    this.#grants.set(accessToken, {
      kind: 'oauth',
      expiresAt: Date.now() + this.accessTokenTtlSeconds * 1000,
      refreshToken,
    });
    return {
      status: 200,
      body: {
        access_token: accessToken,
        token_type: 'Bearer',
        refresh_token: refreshToken,
        scope: 'base,contacts:full,activities:full',
        expires_in: this.accessTokenTtlSeconds,
        api_domain: this.url,
      },
    };
  }

  #revoke(request: StandInRequest): StandInAnswer {
    const client = basicOf(request);
    if (client?.id !== this.clientId || client.secret !== this.clientSecret) {
      return {
        status: 401,
        body: { error: 'invalid_client', error_description: 'Invalid client credentials' },
      };
    }
    const token = decodeURIComponent(request.form.get('token') ?? '');
    this.#refreshTokens.delete(token);
    for (const [accessToken, grant] of this.#grants) {
      if (accessToken === token || grant.refreshToken === token) this.#grants.delete(accessToken);
    }
    return { status: 200 };
  }
}

function errorBody(error: string, errorCode: number) {
  return {
    success: false,
    error,
    errorCode,
    error_info: 'Please check developers.pipedrive.com for more information about Pipedrive API.',
    data: null,
    additional_data: null,
  };
}
