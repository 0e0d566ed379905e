import type {
  AccountsTable,
  AccountTokensTable,
  AuditEventsTable,
  CaptchaSolutionsTable,
  ExternalIdentitiesTable,
  ServerSecretsTable,
} from '../../modules/accounts/accounts.tables.js';
import type { ApiKeysTable } from '../../modules/api-keys/api-keys.tables.js';
import type { LedgerEntriesTable } from '../../modules/credits/ledger.tables.js';
import type { OidcModelsTable, SigninFailuresTable } from '../../modules/identity/identity.tables.js';
import type {
  LicenceStandingTable,
  LicencesTable,
  LicenceUsageBatchesTable,
  LicenceUsageJournalTable,
} from '../../modules/licences/licences.tables.js';
import type {
  CrmDeliveriesTable,
  CrmIntegrationsTable,
  CrmOauthStatesTable,
} from '../../modules/integrations/integrations.tables.js';
import type {
  SubmittedFilesTable,
  WebhookAttemptsTable,
  WebhookMessagesTable,
  WebhookSecretsTable,
} from '../../modules/files/files.tables.js';
import type { EmailMessagesTable } from '../../modules/mail/mail.tables.js';
import type {
  InvoicesTable,
  InvoiceSequencesTable,
  PaymentEventsTable,
  PaymentsTable,
} from '../../modules/payments/payments.tables.js';
import type { AccountSettingsTable } from '../../modules/settings/settings.tables.js';

/** Every table, as Kysely sees it. Each module declares its own tables beside its repository. */
export interface Tables {
  email_messages: EmailMessagesTable;
  accounts: AccountsTable;
  account_tokens: AccountTokensTable;
  external_identities: ExternalIdentitiesTable;
  audit_events: AuditEventsTable;
  captcha_solutions: CaptchaSolutionsTable;
  server_secrets: ServerSecretsTable;
  oidc_models: OidcModelsTable;
  signin_failures: SigninFailuresTable;
  api_keys: ApiKeysTable;
  ledger_entries: LedgerEntriesTable;
  account_settings: AccountSettingsTable;
  payments: PaymentsTable;
  payment_events: PaymentEventsTable;
  invoice_sequences: InvoiceSequencesTable;
  invoices: InvoicesTable;
  submitted_files: SubmittedFilesTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_attempts: WebhookAttemptsTable;
  licences: LicencesTable;
  licence_usage_batches: LicenceUsageBatchesTable;
  licence_usage_journal: LicenceUsageJournalTable;
  licence_standing: LicenceStandingTable;
  crm_integrations: CrmIntegrationsTable;
  crm_oauth_states: CrmOauthStatesTable;
  crm_deliveries: CrmDeliveriesTable;
}
