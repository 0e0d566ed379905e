import type { Db } from '../db/database.js';

/**
 * Secrets the server generates on first use and every process then shares: signing keys, HMAC
 * keys, cookie keys. Stored in the database so a scaled-out deployment agrees on them.
 */
export class SecretStore {
  constructor(private readonly db: Db) {}

  /** The stored value, or the generated one if none is stored yet (first writer wins). */
  async getOrCreate(name: string, generate: () => string | Promise<string>): Promise<string> {
    const existing = await this.#find(name);
    if (existing !== undefined) return existing;
    const value = await generate();
    await this.db
      .insertInto('server_secrets')
      .values({ name, value })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    const stored = await this.#find(name);
    if (stored === undefined) throw new Error(`secret ${name} could not be stored`);
    return stored;
  }

  async #find(name: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', name)
      .executeTakeFirst();
    return row?.value;
  }
}
