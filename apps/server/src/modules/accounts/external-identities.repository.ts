import type { Db } from '../../platform/db/database.js';

/** Which account a third-party identity (Google user, GitHub user) signs in to. */
export class ExternalIdentitiesRepository {
  constructor(private readonly db: Db) {}

  find(provider: string, subject: string) {
    return this.db
      .selectFrom('external_identities')
      .selectAll()
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .executeTakeFirst();
  }

  async link(provider: string, subject: string, accountId: string): Promise<void> {
    await this.db
      .insertInto('external_identities')
      .values({ provider, subject, account_id: accountId })
      .onConflict((conflict) => conflict.columns(['provider', 'subject']).doNothing())
      .execute();
  }
}
