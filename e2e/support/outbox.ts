import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

/** The body of an .eml file with quoted-printable soft line breaks and escapes undone. */
export function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The first link to `${baseUrl}${pathPrefix}…` in an e-mail to `recipient`, waiting for the
 * server's mail worker to write it (messages are queued).
 */
export async function linkFromOutbox(
  recipient: string,
  pathPrefix: string,
  timeoutMs = 15_000,
  dataDir = inject('dataDir'),
): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  const pattern = new RegExp(`https?://[^\\s"'<>]*${pathPrefix.replace(/\//g, '\\/')}[^\\s"'<>]+`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = await readdir(outbox).catch(() => [] as string[]);
    // Newest first: names start with a timestamp, and a later message (a resend) has the live link.
    for (const file of files
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .reverse()) {
      const message = decodeQuotedPrintable(await readFile(join(outbox, file), 'utf8'));
      if (!message.toLowerCase().includes(recipient.toLowerCase())) continue;
      const link = pattern.exec(message)?.[0];
      if (link) return link.replace(/&amp;/g, '&');
    }
    await sleep(200);
  }
  throw new Error(`no e-mail to ${recipient} with a ${pathPrefix} link in ${outbox}`);
}
