import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../platform/db/database.js';

/**
 * oidc-provider's storage, in PostgreSQL: one adapter instance per model kind (Session, Grant,
 * AccessToken, Interaction…). Expired rows are ignored on read and purged by `purgeExpired`.
 */
export class OidcAdapter implements Adapter {
  constructor(
    private readonly db: Db,
    private readonly kind: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const row = {
      kind: this.kind,
      id,
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      user_code: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    await this.db
      .insertInto('oidc_models')
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(['kind', 'id']).doUpdateSet({
          payload: row.payload,
          grant_id: row.grant_id,
          user_code: row.user_code,
          uid: row.uid,
          expires_at: row.expires_at,
        }),
      )
      .execute();
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.#findBy('id', id);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.#findBy('user_code', userCode);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.#findBy('uid', uid);
  }

  async consume(id: string): Promise<void> {
    await this.db
      .updateTable('oidc_models')
      .set({ consumed_at: new Date() })
      .where('kind', '=', this.kind)
      .where('id', '=', id)
      .execute();
  }

  async destroy(id: string): Promise<void> {
    await this.db.deleteFrom('oidc_models').where('kind', '=', this.kind).where('id', '=', id).execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oidc_models').where('grant_id', '=', grantId).execute();
  }

  async #findBy(column: 'id' | 'user_code' | 'uid', value: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oidc_models')
      .select(['payload', 'consumed_at', 'expires_at'])
      .where('kind', '=', this.kind)
      .where(column, '=', value)
      .executeTakeFirst();
    if (!row || (row.expires_at && row.expires_at.getTime() <= Date.now())) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
  }
}

/** Deletes every expired model; run by a scheduled job. */
export async function purgeExpiredOidcModels(db: Db): Promise<number> {
  const result = await db.deleteFrom('oidc_models').where('expires_at', '<=', new Date()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
