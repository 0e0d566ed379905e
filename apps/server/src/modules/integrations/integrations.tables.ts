import type {
  CrmConnectMethod,
  CrmDeliveryKind,
  CrmDeliveryStatus,
  CrmProviderId,
  IntegrationStatus,
} from '@verbatim/contracts';
import type { ColumnType, Generated } from 'kysely';

export interface CrmIntegrationsTable {
  id: string;
  account_id: string;
  provider: CrmProviderId;
  method: CrmConnectMethod;
  /** The CRM account: HubSpot portal id, Pipedrive company id. */
  external_account: string;
  account_name: string;
  /** Where record pages live: Pipedrive's company subdomain; null for HubSpot (the portal id says it). */
  web_domain: string | null;
  /** The API base of this connection (Pipedrive OAuth answers with the company's own); null: configured. */
  api_url: string | null;
  status: Generated<IntegrationStatus>;
  last_error_code: string | null;
  access_token_sealed: string;
  refresh_token_sealed: string | null;
  access_expires_at: Date | null;
  token_version: Generated<number>;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface CrmOauthStatesTable {
  state_hash: string;
  account_id: string;
  provider: CrmProviderId;
  redirect_uri: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Generated<Date>;
}

export interface CrmDeliveriesTable {
  id: string;
  account_id: string;
  integration_id: string | null;
  provider: CrmProviderId;
  transcript_id: string;
  contact_id: string;
  kind: CrmDeliveryKind;
  task_subject: string | null;
  task_due_at: Date | null;
  idempotency_key: string | null;
  status: Generated<CrmDeliveryStatus>;
  attempts: Generated<number>;
  last_error_code: string | null;
  last_error: string | null;
  record_id: string | null;
  record_url: string | null;
  delivered_at: Date | null;
  /** A delivery of a text (a live session's), not of a stored transcript: the text and its title. */
  source_text: string | null;
  source_title: string | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
