import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';

export interface ThrottlePolicy {
  failuresBeforeCaptcha: number;
  windowSeconds: number;
}

/**
 * Counts failed sign-ins per key (an e-mail address, a client address) in a sliding window kept in
 * the database, so every API process sees the same count.
 */
export class SigninThrottle {
  constructor(
    private readonly db: Db,
    private readonly policy: ThrottlePolicy,
  ) {}

  /** Whether any of the keys has failed often enough that the captcha is now required. */
  async captchaRequired(keys: readonly { key: string; limit: number }[]): Promise<boolean> {
    if (keys.length === 0) return false;
    const rows = await this.db
      .selectFrom('signin_failures')
      .select(['key', 'failures'])
      .where(
        'key',
        'in',
        keys.map((entry) => entry.key),
      )
      .where('window_started_at', '>', new Date(Date.now() - this.policy.windowSeconds * 1000))
      .execute();
    return rows.some(
      (row) => row.failures >= (keys.find((entry) => entry.key === row.key)?.limit ?? Infinity),
    );
  }

  async recordFailure(keys: readonly string[]): Promise<void> {
    const windowStart = new Date(Date.now() - this.policy.windowSeconds * 1000);
    for (const key of keys) {
      // A window that has run out starts again at one failure.
      await this.db
        .insertInto('signin_failures')
        .values({ key, failures: 1, window_started_at: new Date() })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({
            failures: sql`case when signin_failures.window_started_at > ${windowStart} then signin_failures.failures + 1 else 1 end`,
            window_started_at: sql`case when signin_failures.window_started_at > ${windowStart} then signin_failures.window_started_at else now() end`,
          }),
        )
        .execute();
    }
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('signin_failures').where('key', '=', key).execute();
  }
}
