import type { CrmDeliveryKind, CrmDeliveryStatus, CrmProviderId } from '@verbatim/contracts';
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { CrmDeliveriesTable, CrmIntegrationsTable } from './integrations.tables.js';

export type IntegrationRow = Selectable<CrmIntegrationsTable>;
export type DeliveryRow = Selectable<CrmDeliveriesTable>;

/** Every query of the integrations module. Rows carry sealed tokens only; sealing happens above. */
export class IntegrationsRepository {
  constructor(private readonly db: Db) {}

  list(accountId: string): Promise<IntegrationRow[]> {
    return this.db
      .selectFrom('crm_integrations')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** The account's connection with this id; undefined for another account's. */
  find(accountId: string, id: string): Promise<IntegrationRow | undefined> {
    return this.db
      .selectFrom('crm_integrations')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findById(id: string): Promise<IntegrationRow | undefined> {
    return this.db.selectFrom('crm_integrations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByExternalAccount(
    accountId: string,
    provider: CrmProviderId,
    externalAccount: string,
  ): Promise<IntegrationRow | undefined> {
    return this.db
      .selectFrom('crm_integrations')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('provider', '=', provider)
      .where('external_account', '=', externalAccount)
      .executeTakeFirst();
  }

  async insert(row: Insertable<CrmIntegrationsTable>): Promise<IntegrationRow> {
    return this.db.insertInto('crm_integrations').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** New tokens after a reconnection: the connection is connected again. */
  async replaceTokens(
    id: string,
    fields: Pick<
      IntegrationRow,
      | 'method'
      | 'account_name'
      | 'web_domain'
      | 'api_url'
      | 'access_token_sealed'
      | 'refresh_token_sealed'
      | 'access_expires_at'
    >,
  ): Promise<IntegrationRow> {
    return this.db
      .updateTable('crm_integrations')
      .set((eb) => ({
        ...fields,
        status: 'connected',
        last_error_code: null,
        token_version: eb('token_version', '+', 1),
        updated_at: new Date(),
      }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Stores refreshed tokens unless another process refreshed first (its version moved on); answers
   * the row as it now is.
   */
  async storeRefreshed(
    id: string,
    expectedVersion: number,
    fields: Pick<IntegrationRow, 'access_token_sealed' | 'refresh_token_sealed' | 'access_expires_at'>,
  ): Promise<IntegrationRow | undefined> {
    await this.db
      .updateTable('crm_integrations')
      .set((eb) => ({ ...fields, token_version: eb('token_version', '+', 1), updated_at: new Date() }))
      .where('id', '=', id)
      .where('token_version', '=', expectedVersion)
      .execute();
    return this.findById(id);
  }

  async markNeedsReconnect(id: string, code: string): Promise<void> {
    await this.db
      .updateTable('crm_integrations')
      .set({ status: 'needs_reconnect', last_error_code: code, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('crm_integrations')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async insertOauthState(row: {
    stateHash: string;
    accountId: string;
    provider: CrmProviderId;
    redirectUri: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.db
      .insertInto('crm_oauth_states')
      .values({
        state_hash: row.stateHash,
        account_id: row.accountId,
        provider: row.provider,
        redirect_uri: row.redirectUri,
        expires_at: row.expiresAt,
        used_at: null,
      })
      .execute();
  }

  /** Uses a state once: answers it only if it was unused and unexpired, and marks it used either way. */
  async consumeOauthState(
    stateHash: string,
    provider: CrmProviderId,
  ): Promise<{ accountId: string; redirectUri: string } | undefined> {
    const row = await this.db
      .updateTable('crm_oauth_states')
      .set({ used_at: new Date() })
      .where('state_hash', '=', stateHash)
      .where('provider', '=', provider)
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .returning(['account_id', 'redirect_uri'])
      .executeTakeFirst();
    return row ? { accountId: row.account_id, redirectUri: row.redirect_uri } : undefined;
  }

  async deleteExpiredOauthStates(): Promise<void> {
    await this.db
      .deleteFrom('crm_oauth_states')
      .where('expires_at', '<', new Date(Date.now() - 24 * 3600_000))
      .execute();
  }

  // Deliveries

  async insertDelivery(row: Insertable<CrmDeliveriesTable>): Promise<DeliveryRow | undefined> {
    return this.db
      .insertInto('crm_deliveries')
      .values(row)
      .onConflict((conflict) => conflict.doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  /** The delivery of the same transcript to the same contact as the same kind, or with the same key. */
  findSameDelivery(
    accountId: string,
    key: {
      integrationId: string;
      transcriptId: string;
      contactId: string;
      kind: CrmDeliveryKind;
      idempotencyKey: string | null;
    },
  ): Promise<DeliveryRow | undefined> {
    return this.db
      .selectFrom('crm_deliveries')
      .selectAll()
      .where('account_id', '=', accountId)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('integration_id', '=', key.integrationId),
            eb('transcript_id', '=', key.transcriptId),
            eb('contact_id', '=', key.contactId),
            eb('kind', '=', key.kind),
          ]),
          ...(key.idempotencyKey ? [eb('idempotency_key', '=', key.idempotencyKey)] : []),
        ]),
      )
      .orderBy('created_at')
      .executeTakeFirst();
  }

  findDelivery(id: string): Promise<DeliveryRow | undefined> {
    return this.db.selectFrom('crm_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listDeliveries(accountId: string, transcriptId: string): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('crm_deliveries')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('transcript_id', '=', transcriptId)
      .orderBy('created_at', 'desc')
      .execute();
  }

  /**
   * Takes a queued delivery for one attempt; undefined when another worker has it or it is done. An
   * attempt that has been 'sending' for longer than a job may run crashed midway: it is taken again.
   */
  claimDelivery(id: string, staleAfterMs: number): Promise<DeliveryRow | undefined> {
    return this.db
      .updateTable('crm_deliveries')
      .set((eb) => ({ status: 'sending', attempts: eb('attempts', '+', 1), updated_at: new Date() }))
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'queued'),
          eb.and([eb('status', '=', 'sending'), eb('updated_at', '<', new Date(Date.now() - staleAfterMs))]),
        ]),
      )
      .returningAll()
      .executeTakeFirst();
  }

  async updateDelivery(
    id: string,
    fields: {
      status: CrmDeliveryStatus;
      lastErrorCode?: string | null;
      lastError?: string | null;
      recordId?: string | null;
      recordUrl?: string | null;
      deliveredAt?: Date | null;
    },
  ): Promise<void> {
    await this.db
      .updateTable('crm_deliveries')
      .set({
        status: fields.status,
        ...(fields.lastErrorCode !== undefined ? { last_error_code: fields.lastErrorCode } : {}),
        ...(fields.lastError !== undefined ? { last_error: fields.lastError } : {}),
        ...(fields.recordId !== undefined ? { record_id: fields.recordId } : {}),
        ...(fields.recordUrl !== undefined ? { record_url: fields.recordUrl } : {}),
        ...(fields.deliveredAt !== undefined ? { delivered_at: fields.deliveredAt } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Puts a failed or waiting delivery back in the queue (a repeated send, a reconnection). */
  requeueDelivery(id: string): Promise<DeliveryRow | undefined> {
    return this.db
      .updateTable('crm_deliveries')
      .set({ status: 'queued', attempts: 0, updated_at: new Date() })
      .where('id', '=', id)
      .where('status', 'in', ['failed', 'waiting_reconnect'])
      .returningAll()
      .executeTakeFirst();
  }

  waitingForReconnect(integrationId: string): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('crm_deliveries')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('status', '=', 'waiting_reconnect')
      .execute();
  }
}
