import type { MeteredProduct } from '@verbatim/contracts';
import type { Db } from '../../platform/db/database.js';

/** One use of the service, to be metered once. */
export interface ChargeRequest {
  accountId: string;
  /** The API key the usage was made with; null for a console session. */
  apiKeyId: string | null;
  product: MeteredProduct;
  /** Seconds of audio; each started second is charged. */
  seconds: number;
  /** Unique per account (e.g. `file:<id>`, `stream:<id>:<n>`): a repeated charge happens once. */
  reference: string;
}

/** What every meter answers for a charge. */
export interface MeterResult {
  /** True when the reference had already been recorded: nothing new happened. */
  replayed: boolean;
}

/**
 * How finished work is metered, whatever pays for it: the cloud product charges credits
 * (CreditsService), the on-premise edition counts seconds against its licence. Transcription
 * (HTTP, file jobs, live sessions) depends on this interface only, so an edition swaps the meter
 * without touching the code that does the work.
 */
export interface UsageMeter {
  /**
   * Records `seconds` of `product` once per reference, refusing (with an AppError) what may not be
   * used. Pass `within` to record it in the transaction that records the work's completion, so the
   * work and its metering are committed together or not at all.
   */
  charge(request: ChargeRequest, within?: Db): Promise<MeterResult>;
  /** Refuses, before any work is done, what the same charge would refuse; records nothing. */
  assertAffordable(request: Omit<ChargeRequest, 'reference'>): Promise<void>;
}
