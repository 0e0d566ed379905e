import type { LiveSource, MeteredProduct } from '@verbatim/contracts';
import type { UsageMeter } from '../../credits/usage-meter.js';

export interface LiveCaller {
  accountId: string;
  /** The API key used; null for a console session. */
  apiKeyId: string | null;
}

/** `source=file` is a recording sent as if spoken: the pre-recorded socket price. */
export function liveProduct(source: LiveSource): MeteredProduct {
  return source === 'file' ? 'ws_prerecorded' : 'ws_streaming';
}

/**
 * The metering of one live session: audio seconds charged slice by slice while the session runs
 * (each slice once, under `live:<session>:<slice>`, so a retried charge is never counted twice),
 * and the last, shorter slice when it ends. A slice that the balance or the key's cap refuses
 * stops the session: it runs at most one slice past what may be spent.
 */
export class LiveMetering {
  #samplesCharged = 0;
  #slice = 0;
  #chain: Promise<void> = Promise.resolve();
  #refusal: unknown;

  constructor(
    private readonly meter: Pick<UsageMeter, 'charge' | 'assertAffordable'>,
    private readonly caller: LiveCaller,
    private readonly product: MeteredProduct,
    private readonly sessionId: string,
    private readonly sliceSeconds: number,
    private readonly sampleRate: number,
    /** Called once when a charge is refused (the session must stop). */
    private readonly onRefused: (error: unknown) => void,
  ) {}

  /** Refuses, before the session starts, an account or key that cannot pay for one slice. */
  assertAffordable(): Promise<void> {
    return this.meter.assertAffordable({ ...this.caller, product: this.product, seconds: this.sliceSeconds });
  }

  get refused(): boolean {
    return this.#refusal !== undefined;
  }

  /** `totalSamples` received so far: charges every slice completed since the last call. */
  received(totalSamples: number): void {
    const slice = this.sliceSeconds * this.sampleRate;
    while (totalSamples - this.#samplesCharged >= slice && this.#refusal === undefined) {
      this.#samplesCharged += slice;
      this.#charge(this.sliceSeconds);
    }
  }

  /** The session ended after `totalSamples`: charges the rest, and waits for every charge. */
  async finish(totalSamples: number): Promise<void> {
    this.received(totalSamples);
    const rest = totalSamples - this.#samplesCharged;
    if (rest > 0 && this.#refusal === undefined) {
      this.#samplesCharged = totalSamples;
      this.#charge(rest / this.sampleRate);
    }
    await this.#chain;
  }

  #charge(seconds: number): void {
    const reference = `live:${this.sessionId}:${this.#slice}`;
    this.#slice += 1;
    this.#chain = this.#chain.then(async () => {
      if (this.#refusal !== undefined) return;
      try {
        await this.meter.charge({ ...this.caller, product: this.product, seconds, reference });
      } catch (error) {
        this.#refusal = error;
        this.onRefused(error);
      }
    });
  }
}
