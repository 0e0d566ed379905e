import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from './webhook-signature.js';

describe('Standard Webhooks signature', () => {
  // The example of the Standard Webhooks specification (and of its reference libraries' tests).
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';

  it('signs the specification example to its published signature', () => {
    expect(signWebhook(secret, id, timestamp, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('verifies a signature among several, and refuses a changed body or an old timestamp', () => {
    const signature = signWebhook(secret, id, timestamp, body);
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,bm9wZQ== ${signature}`,
    };
    expect(verifyWebhook(secret, headers, body, timestamp + 10)).toBe(true);
    expect(verifyWebhook(secret, headers, `${body} `, timestamp + 10)).toBe(false);
    expect(verifyWebhook(secret, headers, body, timestamp + 600)).toBe(false);
  });
});
