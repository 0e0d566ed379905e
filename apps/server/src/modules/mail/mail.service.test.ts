import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailTransport, OutgoingMail } from '../../platform/mail/mail-transport.js';
import { startSmtpSink, type SmtpSink } from '../../test-support/smtp-sink.js';
import { startTestRuntime, type TestRuntime } from '../../test-support/test-runtime.js';
import { waitFor } from '../../test-support/wait.js';

async function statusOf(runtime: TestRuntime, id: string) {
  return runtime.database.db
    .selectFrom('email_messages')
    .select(['status', 'attempts', 'last_error', 'transport_message_id', 'sent_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('e-mail over SMTP through the job queue', () => {
  let sink: SmtpSink;
  let runtime: TestRuntime;
  beforeAll(async () => {
    sink = await startSmtpSink();
    runtime = await startTestRuntime({
      workers: true,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Verbatim <no-reply@verbatim.test>' },
    });
  });
  afterAll(async () => {
    await runtime.close();
    await sink.close();
  });

  it('stores the message, then a worker delivers it to the SMTP server', async () => {
    const id = await runtime.services.mail.enqueue({
      purpose: 'test',
      to: 'ada@example.com',
      subject: 'Verify your e-mail address',
      text: 'Open https://verbatim.test/auth/verify/abc to verify.',
      html: '<p>Open <a href="https://verbatim.test/auth/verify/abc">this link</a>.</p>',
    });
    await waitFor(() => sink.received.length === 1, 'the SMTP sink to receive the message');
    const mail = sink.received[0]!;
    expect(mail.from).toBe('no-reply@verbatim.test');
    expect(mail.to).toEqual(['ada@example.com']);
    expect(mail.raw).toContain('Subject: Verify your e-mail address');
    expect(mail.raw).toContain(`X-Verbatim-Message: ${id}`);
    expect(mail.raw).toContain('https://verbatim.test/auth/verify/abc');

    await waitFor(
      async () => (await statusOf(runtime, id)).status === 'sent',
      'the message to be marked sent',
    );
    const row = await statusOf(runtime, id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(row.transport_message_id).toBeTruthy();
    expect(row.sent_at).toBeInstanceOf(Date);
  });
});

describe('delivering a stored message', () => {
  const sent: OutgoingMail[] = [];
  let failNext = 0;
  // Stands in for a mail server that is down; the SMTP transport itself is tested above.
  const unreliableTransport: MailTransport = {
    description: 'unreliable test transport',
    send: (mail) => {
      if (failNext > 0) {
        failNext--;
        return Promise.reject(new Error('421 service not available'));
      }
      sent.push(mail);
      return Promise.resolve({ transportMessageId: `<${sent.length}@test>` });
    },
    close: () => undefined,
  };
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ mailTransport: unreliableTransport });
  });
  afterAll(() => runtime.close());

  const request = { purpose: 'test', to: 'bo@example.com', subject: 'Hello', text: 'Hi' };

  it('records a failed attempt and keeps the message queued for the retry', async () => {
    const id = await runtime.services.mail.enqueue(request);
    failNext = 1;
    await expect(
      runtime.services.mail.deliver(id, { jobId: 'j1', retryCount: 0, isLastAttempt: false }),
    ).rejects.toThrow('421');
    expect(await statusOf(runtime, id)).toMatchObject({
      status: 'queued',
      attempts: 1,
      last_error: '421 service not available',
    });

    await runtime.services.mail.deliver(id, { jobId: 'j1', retryCount: 1, isLastAttempt: false });
    expect(await statusOf(runtime, id)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
  });

  it('marks the message failed when the last attempt fails', async () => {
    const id = await runtime.services.mail.enqueue(request);
    failNext = 1;
    await expect(
      runtime.services.mail.deliver(id, { jobId: 'j2', retryCount: 8, isLastAttempt: true }),
    ).rejects.toThrow();
    expect((await statusOf(runtime, id)).status).toBe('failed');
  });

  it('never sends a message twice when its job runs again', async () => {
    const id = await runtime.services.mail.enqueue(request);
    const before = sent.length;
    await runtime.services.mail.deliver(id, { jobId: 'j3', retryCount: 0, isLastAttempt: false });
    await runtime.services.mail.deliver(id, { jobId: 'j3', retryCount: 0, isLastAttempt: false });
    expect(sent.length).toBe(before + 1);
  });
});

describe('the embedded outbox folder', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ workers: true });
  });
  afterAll(() => runtime.close());

  it('writes each message as an .eml file and logs where', async () => {
    const id = await runtime.services.mail.enqueue({
      purpose: 'test',
      to: 'cy@example.com',
      subject: 'Reset your password',
      text: 'Open http://localhost:8080/auth/recovery/xyz',
    });
    const outbox = path.join(runtime.dataDir, 'outbox');
    await waitFor(async () => (await readdir(outbox).catch(() => [])).length === 1, 'the outbox file');
    const [file] = await readdir(outbox);
    expect(file).toMatch(new RegExp(`${id}\\.eml$`));
    const content = await readFile(path.join(outbox, file!), 'utf8');
    expect(content).toContain('To: cy@example.com');
    expect(content).toContain('Subject: Reset your password');
    expect(content).toContain('http://localhost:8080/auth/recovery/xyz');
    expect(
      runtime.logs.some(
        (line) => line.msg === 'mail written to the outbox folder' && line.to === 'cy@example.com',
      ),
    ).toBe(true);
  });
});
