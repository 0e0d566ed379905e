import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type StreamTransport from 'nodemailer/lib/stream-transport/index.js';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import type { MailTransport, OutgoingMail } from './mail-transport.js';

function toMessage(mail: OutgoingMail) {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    headers: { 'X-Verbatim-Message': mail.reference },
  };
}

/** SMTP delivery through nodemailer. */
export class SmtpMailTransport implements MailTransport {
  readonly description: string;
  readonly #transporter: Transporter<SMTPTransport.SentMessageInfo>;

  constructor(url: string) {
    this.#transporter = nodemailer.createTransport(url);
    const parsed = new URL(url);
    this.description = `SMTP ${parsed.hostname}:${parsed.port || (parsed.protocol === 'smtps:' ? 465 : 587)}`;
  }

  async send(mail: OutgoingMail): Promise<{ transportMessageId: string }> {
    const info = await this.#transporter.sendMail(toMessage(mail));
    return { transportMessageId: info.messageId };
  }

  close(): void {
    this.#transporter.close();
  }
}

/**
 * The embedded default: each message becomes an .eml file in the outbox folder, and the log says
 * where, so a person running Verbatim locally can open verification and recovery mail.
 */
export class OutboxMailTransport implements MailTransport {
  readonly description: string;
  readonly #transporter: Transporter<StreamTransport.SentMessageInfo> = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });

  constructor(
    private readonly directory: string,
    private readonly logger: Logger,
  ) {
    this.description = `outbox folder ${directory}`;
  }

  async send(mail: OutgoingMail): Promise<{ transportMessageId: string }> {
    const info = await this.#transporter.sendMail(toMessage(mail));
    await mkdir(this.directory, { recursive: true });
    const file = path.join(
      this.directory,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.reference}.eml`,
    );
    await writeFile(file, info.message as Buffer);
    this.logger.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the outbox folder');
    return { transportMessageId: info.messageId };
  }

  close(): void {
    this.#transporter.close();
  }
}

export function createMailTransport(config: Config['mail'], logger: Logger): MailTransport {
  const transport = config.transport;
  switch (transport.kind) {
    case 'smtp':
      return new SmtpMailTransport(transport.url);
    case 'outbox':
      return new OutboxMailTransport(transport.directory, logger);
  }
}
