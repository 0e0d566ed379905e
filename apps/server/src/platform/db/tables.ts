import type {
  AccountsTable,
  AccountTokensTable,
  AuditEventsTable,
  CaptchaSolutionsTable,
  ExternalIdentitiesTable,
  ServerSecretsTable,
} from '../../modules/accounts/accounts.tables.js';
import type { OidcModelsTable, SigninFailuresTable } from '../../modules/identity/identity.tables.js';
import type { EmailMessagesTable } from '../../modules/mail/mail.tables.js';

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
}
