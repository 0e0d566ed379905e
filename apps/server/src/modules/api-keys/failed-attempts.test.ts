import { describe, expect, it } from 'vitest';
import { FailedAttempts } from './failed-attempts.js';

describe('FailedAttempts', () => {
  it('lets an address fail up to the limit, then makes it wait until the window ends', () => {
    let now = 1_000_000;
    const attempts = new FailedAttempts({ maxFailures: 3, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 3; i++) {
      expect(attempts.retryAfterMs('10.0.0.1')).toBe(0);
      attempts.recordFailure('10.0.0.1');
    }
    expect(attempts.retryAfterMs('10.0.0.1')).toBe(60_000);
    expect(attempts.retryAfterMs('10.0.0.2')).toBe(0);
    now += 45_000;
    expect(attempts.retryAfterMs('10.0.0.1')).toBe(15_000);
    now += 15_000;
    expect(attempts.retryAfterMs('10.0.0.1')).toBe(0);
    attempts.recordFailure('10.0.0.1');
    expect(attempts.retryAfterMs('10.0.0.1')).toBe(0);
  });

  it('forgets the oldest address when it tracks too many', () => {
    const attempts = new FailedAttempts({ maxFailures: 1, windowMs: 60_000, maxTracked: 2 });
    attempts.recordFailure('a');
    attempts.recordFailure('b');
    attempts.recordFailure('c');
    expect(attempts.retryAfterMs('a')).toBe(0);
    expect(attempts.retryAfterMs('b')).toBeGreaterThan(0);
    expect(attempts.retryAfterMs('c')).toBeGreaterThan(0);
  });

  it('remembers hopeless keys per address for the window only, and only a few of them', () => {
    let now = 0;
    const attempts = new FailedAttempts({ maxFailures: 2, windowMs: 60_000 }, () => now);
    const hash = (n: number) => n.toString(16).padStart(4, '0').padEnd(64, 'a');
    attempts.recordFailure('10.0.0.1', hash(1));
    attempts.recordFailure('10.0.0.1');
    expect(attempts.failedBefore('10.0.0.1', hash(1))).toBe(true);
    expect(attempts.failedBefore('10.0.0.2', hash(1))).toBe(false);
    for (let n = 2; n <= 20; n++) attempts.recordFailure('10.0.0.1', hash(n));
    expect(attempts.failedBefore('10.0.0.1', hash(8))).toBe(true);
    expect(attempts.failedBefore('10.0.0.1', hash(9))).toBe(false);
    now += 60_000;
    expect(attempts.failedBefore('10.0.0.1', hash(1))).toBe(false);
    expect(attempts.retryAfterMs('10.0.0.1')).toBe(0);
  });
});
