export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Our own id, sent as a header so a message can be traced from any mailbox back to its row. */
  reference: string;
}

/** Delivers one message, or throws. */
export interface MailTransport {
  readonly description: string;
  send(mail: OutgoingMail): Promise<{ transportMessageId: string }>;
  close(): void;
}
