import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import {
  emailChangedNoticeMail,
  emailChangeMail,
  recoveryMail,
  verificationMail,
  type MailContent,
} from './account-mail-templates.js';
import type { MailService } from './mail.service.js';

/** Sends the verification and recovery links of self-service accounts. */
export class AccountMailer {
  constructor(
    private readonly mail: MailService,
    private readonly config: Pick<Config, 'http' | 'mail' | 'console' | 'accounts'>,
    private readonly logger: Logger,
  ) {}

  async sendVerification(to: string, code: string): Promise<void> {
    const link = `${this.config.http.publicUrl}/auth/verify/${code}`;
    const content = verificationMail(
      this.config.console.productName,
      link,
      this.config.accounts.emailVerificationTtlHours,
    );
    await this.#send('email_verification', to, content, `verification link for ${to}: ${link}`);
  }

  async sendRecovery(to: string, token: string): Promise<void> {
    const link = `${this.config.http.publicUrl}/auth/recovery/${token}`;
    const content = recoveryMail(
      this.config.console.productName,
      link,
      this.config.accounts.passwordRecoveryTtlMinutes,
    );
    await this.#send('password_recovery', to, content, `password recovery link for ${to}: ${link}`);
  }

  /** The confirmation link of a new address goes to that address; it opens the same page as verification. */
  async sendEmailChange(to: string, code: string): Promise<void> {
    const link = `${this.config.http.publicUrl}/auth/verify/${code}`;
    const content = emailChangeMail(
      this.config.console.productName,
      link,
      this.config.accounts.emailVerificationTtlHours,
    );
    await this.#send('email_change', to, content, `e-mail change link for ${to}: ${link}`);
  }

  async sendEmailChangedNotice(previousAddress: string, newAddress: string): Promise<void> {
    const content = emailChangedNoticeMail(
      this.config.console.productName,
      newAddress,
      this.config.console.links.contact,
    );
    await this.mail.enqueue({ purpose: 'email_changed_notice', to: previousAddress, ...content });
  }

  async #send(purpose: string, to: string, content: MailContent, logLine: string): Promise<void> {
    await this.mail.enqueue({ purpose, to, ...content });
    // With the embedded outbox nobody receives real mail: the log is the quickest way to the link.
    if (this.config.mail.transport.kind === 'outbox') this.logger.info({ to, purpose }, logLine);
  }
}
