import type { onRequestAsyncHookHandler } from 'fastify';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { authenticate } from '../../http/authenticate.js';
import type { PasswordHasher } from '../../platform/crypto/password-hasher.js';
import type { SecretStore } from '../../platform/crypto/secret-store.js';
import type { Db } from '../../platform/db/database.js';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { AuditLog } from '../accounts/audit-log.js';
import type { Account } from '../accounts/accounts.repository.js';
import type { AuditContext } from '../accounts/audit-log.js';
import type { CaptchaVerifier } from '../captcha/captcha-verifier.js';
import { AccessTokenVerifier } from './access-token-verifier.js';
import { createIdentityProvider, type IdentityProviderDependencies } from './identity-provider.js';
import { InteractionsService } from './interactions.service.js';
import { SignInService } from './sign-in.service.js';
import { SigninThrottle } from './signin-throttle.js';
import { loadIdentityKeys } from './signing-keys.js';

export interface Identity {
  provider: Provider;
  accessTokens: AccessTokenVerifier;
  signIn: SignInService;
  interactions: InteractionsService;
  /** The onRequest hook of protected routes. */
  authenticate: onRequestAsyncHookHandler;
}

export interface IdentityDependencies {
  config: Config;
  logger: Logger;
  db: Db;
  secrets: SecretStore;
  hasher: PasswordHasher;
  captcha: CaptchaVerifier;
  verifyEmail: (code: string, context: AuditContext) => Promise<Account>;
  signInExternally: IdentityProviderDependencies['signInExternally'];
}

/** Sign-in, the token issuer and token verification, wired together. */
export async function createIdentity(dependencies: IdentityDependencies): Promise<Identity> {
  const { config, logger, db, secrets, hasher, captcha, verifyEmail, signInExternally } = dependencies;
  const keys = await loadIdentityKeys(secrets);
  const accounts = new AccountsRepository(db);
  const signIn = new SignInService(
    accounts,
    hasher,
    new SigninThrottle(db, {
      failuresBeforeCaptcha: config.identity.failuresBeforeCaptcha,
      windowSeconds: config.identity.failureWindowSeconds,
    }),
    new AuditLog(db),
    (solution, context) => (solution ? captcha.verify(solution, context) : Promise.resolve(false)),
    config.identity.failuresBeforeCaptcha,
  );
  const provider = createIdentityProvider({
    config,
    logger,
    db,
    keys,
    accounts,
    signIn,
    verifyEmail,
    signInExternally,
  });
  const accessTokens = new AccessTokenVerifier(
    keys.publicKey,
    config.identity.issuer,
    config.identity.apiResource,
  );
  return {
    provider,
    accessTokens,
    signIn,
    interactions: new InteractionsService(provider, signIn, signInExternally),
    authenticate: authenticate(accessTokens, accounts),
  };
}
