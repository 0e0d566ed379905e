import type { Db } from '../../platform/db/database.js';

/** Captcha solutions already accepted, kept until their challenge expires so none is accepted twice. */
export class CaptchaSolutionsRepository {
  constructor(private readonly db: Db) {}

  /** Records the solution; false when it had been recorded before (a replay). */
  async claim(signature: string, expiresAt: Date): Promise<boolean> {
    const inserted = await this.db
      .insertInto('captcha_solutions')
      .values({ signature, expires_at: expiresAt })
      .onConflict((conflict) => conflict.column('signature').doNothing())
      .returning('signature')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** Forgets solutions whose challenge has expired: they fail verification on their own. */
  async purgeExpired(now: Date): Promise<void> {
    await this.db.deleteFrom('captcha_solutions').where('expires_at', '<', now).execute();
  }
}
