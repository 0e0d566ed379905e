import type { ExternalProviders } from '@verbatim/contracts';
import type { Logger } from 'pino';
import { AppError } from '../../errors/app-error.js';
import { newId } from '../../lib/ids.js';
import type { Db } from '../../platform/db/database.js';
import type { Account } from '../accounts/accounts.repository.js';
import { inAccountsTransaction, type AccountsStore } from '../accounts/accounts-store.js';
import type { AuditContext } from '../accounts/audit-log.js';
import { markEmailVerified } from '../registration/registration.service.js';
import { ExternalSignInError, type ExternalIdentity, type ExternalProvider } from './external-identity.js';

export interface ExternalSignIn {
  provider: string;
  code: string;
  codeVerifier: string;
  registeredAs: string;
}

const failed = (reason: string) => new AppError('EXTERNAL_SIGNIN_FAILED', reason);

/**
 * Sign-in with Google or GitHub: the account already linked to that identity, else the account
 * with the same e-mail address (when the provider vouches for it), else a new account.
 */
export class ExternalSignInService {
  readonly #providers: Map<string, ExternalProvider>;

  constructor(
    providers: readonly ExternalProvider[],
    private readonly db: Db,
    private readonly options: { publicUrl: string; requiresApproval: boolean; startingCreditCents: number },
    private readonly logger: Logger,
  ) {
    this.#providers = new Map(providers.map((provider) => [provider.id, provider]));
  }

  /** The console's page that receives the code (spec route /auth/login/external). */
  get redirectUri(): string {
    return `${this.options.publicUrl}/auth/login/external`;
  }

  providers(): ExternalProviders {
    return [...this.#providers.values()].map(({ id, name }) => ({ id, name }));
  }

  async authorizationUrl(providerId: string, state: string, codeChallenge: string): Promise<string> {
    const provider = this.#provider(providerId);
    if (!state.startsWith(`${provider.id}.`))
      throw new AppError('BAD_REQUEST', 'The state must name the provider.');
    return provider.authorizationUrl({ state, redirectUri: this.redirectUri, codeChallenge });
  }

  async signIn(request: ExternalSignIn, context: AuditContext): Promise<Account> {
    const provider = this.#provider(request.provider);
    let identity: ExternalIdentity;
    try {
      identity = await provider.identify({
        code: request.code,
        redirectUri: this.redirectUri,
        codeVerifier: request.codeVerifier,
      });
    } catch (error) {
      // A refused code, a provider that is down or answers nonsense: the user can only try again.
      this.logger.warn(
        { err: error, provider: provider.id, expected: error instanceof ExternalSignInError },
        'external sign-in failed',
      );
      throw failed(`Signing in with ${provider.name} did not work. Please try again.`);
    }
    return inAccountsTransaction(this.db, async (store) => {
      const account = await this.#accountFor(store, identity, request.registeredAs, context);
      await store.audit.record('signin.succeeded', account.id, context, { method: identity.provider });
      return account;
    });
  }

  async #accountFor(
    store: AccountsStore,
    identity: ExternalIdentity,
    registeredAs: string,
    context: AuditContext,
  ): Promise<Account> {
    const linked = await store.externalIdentities.find(identity.provider, identity.subject);
    if (linked) {
      const account = await store.accounts.findById(linked.account_id);
      if (account) return account;
    }
    if (!identity.email || !identity.emailVerified) {
      throw failed(`Your ${this.#provider(identity.provider).name} account has no verified e-mail address.`);
    }
    const existing = await store.accounts.findByEmail(identity.email);
    if (existing) {
      await store.externalIdentities.link(identity.provider, identity.subject, existing.id);
      // The provider vouches for the address: a sign-up left unverified is verified now.
      return markEmailVerified(
        store,
        existing,
        { requiresApproval: this.options.requiresApproval, via: identity.provider },
        context,
      );
    }
    const created = await store.accounts.insert({
      id: newId('acc'),
      email: identity.email,
      passwordHash: null,
      fullName: identity.name?.slice(0, 32) ?? null,
      status: this.options.requiresApproval ? 'pending_approval' : 'active',
      emailVerifiedAt: new Date(),
      registeredAs: registeredAs === 'console' ? 'console' : 'api',
      startingCreditCents: this.options.startingCreditCents,
    });
    await store.externalIdentities.link(identity.provider, identity.subject, created.id);
    await store.audit.record('account.registered', created.id, context, { via: identity.provider });
    return created;
  }

  #provider(id: string): ExternalProvider {
    const provider = this.#providers.get(id);
    if (!provider) throw new AppError('NOT_FOUND', 'This sign-in provider is not available.');
    return provider;
  }
}
