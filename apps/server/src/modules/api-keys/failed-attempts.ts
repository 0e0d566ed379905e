export interface FailedAttemptsPolicy {
  /** Failures allowed per client address within the window; further failures are answered 429. */
  maxFailures: number;
  windowMs: number;
  /** Addresses tracked at once; the oldest are forgotten first, so an attack cannot exhaust memory. */
  maxTracked?: number;
}

/** Keys remembered per address as hopeless: a misconfigured client repeats one or two. */
const maxHopelessKeysPerAddress = 8;
/**
 * Characters of a key's SHA-256 (hex) remembered: 64 bits. Two keys sharing them from the same
 * address is a 1-in-2^64 chance, and remembering all 64 would cost four times the memory.
 */
const rememberedHashChars = 16;

interface Window {
  startedAt: number;
  failures: number;
  /** Keys that failed from this address and can never become valid (unknown, revoked, expired). */
  hopelessKeys: Set<string>;
}

/**
 * Counts failed API key attempts per client address in a fixed window, in memory, to throttle the
 * failures, never a valid key: a key that authenticates is accepted from a throttled address too,
 * so one misconfigured client behind an office NAT does not lock its colleagues out.
 *
 * What the throttle protects is not the keys: they are 256-bit random secrets, so guessing is
 * hopeless however many attempts are allowed. It limits the cost of bad keys: once an address is
 * over the limit, a key that already failed from it is refused from memory (no database query, and
 * a 429 with Retry-After that tells a well-behaved client to back off instead of retrying at once);
 * a scanner's ever-new keys still cost one indexed lookup each, which the global per-address rate
 * limit bounds. Each API process counts on its own (no database write per bad request); N processes
 * allowing N times the failures is fine. Nothing here is needed by another node.
 */
export class FailedAttempts {
  readonly #windows = new Map<string, Window>();
  readonly #maxTracked: number;

  constructor(
    private readonly policy: FailedAttemptsPolicy,
    private readonly now: () => number = Date.now,
  ) {
    this.#maxTracked = policy.maxTracked ?? 100_000;
  }

  /** Milliseconds until failures from the address are answered 401 again; 0 when not throttled. */
  retryAfterMs(address: string): number {
    const window = this.#current(address);
    if (!window || window.failures < this.policy.maxFailures) return 0;
    return window.startedAt + this.policy.windowMs - this.now();
  }

  /**
   * Counts a failure. `hopelessKeyHash` (the SHA-256 of a key that can never become valid) is
   * remembered for the window, so that `failedBefore` can refuse its repetitions without a lookup.
   */
  recordFailure(address: string, hopelessKeyHash?: string): void {
    let window = this.#current(address);
    if (window) {
      window.failures += 1;
    } else {
      if (this.#windows.size >= this.#maxTracked) {
        // Maps iterate in insertion order: the first key is the oldest window.
        const oldest = this.#windows.keys().next();
        if (!oldest.done) this.#windows.delete(oldest.value);
      }
      window = { startedAt: this.now(), failures: 1, hopelessKeys: new Set() };
      this.#windows.set(address, window);
    }
    if (hopelessKeyHash && window.hopelessKeys.size < maxHopelessKeysPerAddress) {
      window.hopelessKeys.add(hopelessKeyHash.slice(0, rememberedHashChars));
    }
  }

  /** Whether this hopeless key already failed from the address in the current window. */
  failedBefore(address: string, keyHash: string): boolean {
    return this.#current(address)?.hopelessKeys.has(keyHash.slice(0, rememberedHashChars)) ?? false;
  }

  #current(address: string): Window | undefined {
    const window = this.#windows.get(address);
    if (window && this.now() - window.startedAt >= this.policy.windowMs) {
      this.#windows.delete(address);
      return undefined;
    }
    return window;
  }
}
