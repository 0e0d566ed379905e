import { describe, expect, it } from 'vitest';
import { recoveryMail, verificationMail } from './account-mail-templates.js';

describe('account e-mail templates', () => {
  it('put the product name and the link in the text and the HTML, escaped in HTML', () => {
    const link = 'https://stt.example.com/auth/verify/abc?x=1&y=2';
    const mail = verificationMail('Acme <STT>', link, 48);
    expect(mail.subject).toBe('Verify your e-mail address for Acme <STT>');
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.text).toContain('valid for 48 hours');
    expect(mail.html).toContain('href="https://stt.example.com/auth/verify/abc?x=1&amp;y=2"');
    expect(mail.html).toContain('Acme &lt;STT&gt;');
    expect(mail.html).not.toContain('<STT>');
  });

  it('state how long a recovery link lasts', () => {
    expect(recoveryMail('Verbatim', 'https://x.test/auth/recovery/t', 60).text).toContain(
      'valid for 1 hour.',
    );
    expect(recoveryMail('Verbatim', 'https://x.test/auth/recovery/t', 90).text).toContain(
      'valid for 90 minutes.',
    );
    expect(recoveryMail('Verbatim', 'https://x.test/auth/recovery/t', 1).subject).toBe(
      'Reset your Verbatim password',
    );
  });
});
