import type { LightMyRequestResponse } from 'fastify';

/** A minimal browser cookie store: keeps the cookies a response sets, sends them all back. */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  store(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies) this.#cookies.set(cookie.name, cookie.value);
  }

  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}
