import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';

/**
 * The identity provider's state that belongs to one account: sign-in sessions, grants and the
 * refresh tokens and codes issued under them. Revoking it signs the account out everywhere once
 * its current access tokens (minutes at most) expire.
 */
export class AccountSessionsRepository {
  constructor(private readonly db: Db) {}

  /** Revokes everything of the account, but for the grant of the session making the change. */
  async revokeAll(accountId: string, keepGrantId?: string): Promise<void> {
    let query = this.db.deleteFrom('oidc_models').where(sql<string>`payload->>'accountId'`, '=', accountId);
    if (keepGrantId) {
      query = query.where((eb) =>
        eb
          .or([eb('grant_id', 'is', null), eb('grant_id', '!=', keepGrantId)])
          .and(eb('id', '!=', keepGrantId)),
      );
    }
    await query.execute();
  }
}
