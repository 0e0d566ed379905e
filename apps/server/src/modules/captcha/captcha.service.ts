import type { CaptchaChallenge, CaptchaConfig } from '@verbatim/contracts';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { AppError } from '../../errors/app-error.js';
import type { Db } from '../../platform/db/database.js';
import type { SecretStore } from '../../platform/crypto/secret-store.js';
import { AltchaVerifier } from './altcha-verifier.js';
import { CaptchaSolutionsRepository } from './captcha-solutions.repository.js';
import type { CaptchaContext, CaptchaVerifier } from './captcha-verifier.js';
import { RecaptchaVerifier } from './recaptcha-verifier.js';

/** The configured captcha: what the console must show, ALTCHA challenges, and verification. */
export class CaptchaService implements CaptchaVerifier {
  readonly #altcha: AltchaVerifier | undefined;
  readonly #verifier: CaptchaVerifier;

  constructor(
    private readonly config: Config['accounts']['captcha'],
    db: Db,
    secrets: SecretStore,
    logger: Logger,
  ) {
    if (config.provider === 'altcha') {
      this.#altcha = new AltchaVerifier(config, secrets, new CaptchaSolutionsRepository(db));
      this.#verifier = this.#altcha;
    } else {
      this.#verifier = new RecaptchaVerifier(config, logger);
    }
  }

  publicConfig(): CaptchaConfig {
    return this.config.provider === 'recaptcha'
      ? { provider: 'recaptcha', siteKey: this.config.siteKey, scriptUrl: this.config.scriptUrl }
      : { provider: 'altcha' };
  }

  /** A fresh ALTCHA challenge; NOT_FOUND when another provider is configured. */
  challenge(): Promise<CaptchaChallenge> {
    if (!this.#altcha) throw new AppError('NOT_FOUND', 'This server does not use ALTCHA challenges.');
    return this.#altcha.createChallenge();
  }

  verify(solution: string, context: CaptchaContext): Promise<boolean> {
    return this.#verifier.verify(solution, context);
  }
}
