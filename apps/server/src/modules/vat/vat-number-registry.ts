/**
 * What a register of VAT numbers (the EU's VIES) says about a number. `unavailable` carries the
 * reason, for the log line of the fallback to format and check digits.
 */
export type VatRegistryAnswer =
  { status: 'valid' } | { status: 'invalid' } | { status: 'unavailable'; reason: string };

export interface VatNumberRegistry {
  /**
   * Whether a VAT number is registered. `prefix` is the member state's VAT prefix (EL for Greece),
   * `national` the number without it. Never throws: a failure is `unavailable`.
   */
  check(prefix: string, national: string): Promise<VatRegistryAnswer>;
}

/**
 * Remembers definite answers for a while: a checkout asks about the same number when it shows the
 * price and again when it creates the payment, and VIES limits how often it may be asked.
 * `unavailable` is never remembered. The memory is per process and only saves calls.
 */
export class CachingVatNumberRegistry implements VatNumberRegistry {
  readonly #answers = new Map<string, { answer: VatRegistryAnswer; expiresAt: number }>();

  constructor(
    private readonly inner: VatNumberRegistry,
    private readonly options: { ttlMs: number; maxEntries: number; now?: () => number },
  ) {}

  async check(prefix: string, national: string): Promise<VatRegistryAnswer> {
    const key = `${prefix}${national}`;
    const now = this.options.now?.() ?? Date.now();
    const remembered = this.#answers.get(key);
    if (remembered && remembered.expiresAt > now) return remembered.answer;
    this.#answers.delete(key);
    const answer = await this.inner.check(prefix, national);
    if (answer.status !== 'unavailable') {
      // Maps iterate in insertion order: the first key is the oldest entry.
      if (this.#answers.size >= this.options.maxEntries) {
        const oldest = this.#answers.keys().next();
        if (!oldest.done) this.#answers.delete(oldest.value);
      }
      this.#answers.set(key, { answer, expiresAt: now + this.options.ttlMs });
    }
    return answer;
  }
}
