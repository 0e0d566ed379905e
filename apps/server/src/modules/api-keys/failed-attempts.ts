export interface FailedAttemptsPolicy {
  /** Failures allowed per client address within the window; the next attempt is refused. */
  maxFailures: number;
  windowMs: number;
  /** Addresses tracked at once; the oldest are forgotten first, so an attack cannot exhaust memory. */
  maxTracked?: number;
}

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Counts failed API key attempts per client address in a fixed window, in memory. Each API
 * process counts on its own: 256-bit secrets already make guessing hopeless, so the limit is there
 * to stop scanners and misconfigured clients cheaply (no database write per bad request), and N
 * processes allowing N times the attempts is fine. Nothing here is needed by another node.
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

  /** Milliseconds until the address may try again; 0 when it may try now. */
  retryAfterMs(address: string): number {
    const window = this.#current(address);
    if (!window || window.failures < this.policy.maxFailures) return 0;
    return window.startedAt + this.policy.windowMs - this.now();
  }

  recordFailure(address: string): void {
    const window = this.#current(address);
    if (window) {
      window.failures += 1;
      return;
    }
    if (this.#windows.size >= this.#maxTracked) {
      // Maps iterate in insertion order: the first key is the oldest window.
      const oldest = this.#windows.keys().next();
      if (!oldest.done) this.#windows.delete(oldest.value);
    }
    this.#windows.set(address, { startedAt: this.now(), failures: 1 });
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
