import {
  apiErrorSchema,
  licenceStandingSchema,
  type LicenceStanding,
  type UsageBatch,
} from '@verbatim/contracts';
import type { Logger } from 'pino';
import type { InstallationLicence } from './installation-licence.js';
import type { UsageJournal } from './usage-journal.js';

const requestTimeoutMs = 15_000;

export interface ReportOutcome {
  /** Batches the licence server acknowledged in this round. */
  sent: number;
  /** Why the round stopped early (the licence server unreachable or refusing); null when it did not. */
  error: string | null;
}

/**
 * Sends the journal's unsent batches to the licence server, oldest first, every interval while the
 * server runs (and asks for the licence's standing when there is nothing to send). A batch keeps its
 * id until acknowledged, so one whose answer was lost is resent as itself and counted once; while
 * the licence server is unreachable, batches wait in the journal.
 */
export class UsageReporter {
  #timer: NodeJS.Timeout | null = null;
  #round: Promise<ReportOutcome> | null = null;

  constructor(
    private readonly licence: InstallationLicence,
    private readonly journal: UsageJournal,
    private readonly serverUrl: string,
    private readonly logger: Logger,
  ) {}

  start(intervalSeconds: number): void {
    const tick = () => void this.reportNow();
    tick();
    this.#timer = setInterval(tick, intervalSeconds * 1000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#round?.catch(() => undefined);
  }

  /** One round; rounds never overlap (a second call waits for the one in progress). */
  reportNow(): Promise<ReportOutcome> {
    this.#round ??= this.#report().finally(() => (this.#round = null));
    return this.#round;
  }

  async #report(): Promise<ReportOutcome> {
    if (!this.licence.key) return { sent: 0, error: 'the licence key is not valid' };
    let sent = 0;
    try {
      const batches = await this.journal.pendingBatches();
      if (batches.length === 0) {
        await this.licence.applyStanding(await this.#send(null));
      }
      for (const batch of batches) {
        const standing = await this.#send(batch);
        await this.journal.markSent([batch.batchId]);
        await this.licence.applyStanding(standing);
        sent += 1;
      }
      return { sent, error: null };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn({ err: error, sent }, 'usage not reported to the licence server; it will be retried');
      await this.licence.recordFailure(message).catch(() => undefined);
      return { sent, error: message };
    }
  }

  async #send(batch: UsageBatch | null): Promise<LicenceStanding> {
    const response = await fetch(`${this.serverUrl}/api/v1/licensing/${batch ? 'usage' : 'standing'}`, {
      method: batch ? 'POST' : 'GET',
      headers: {
        authorization: `License ${this.licence.settings.key}`,
        ...(batch ? { 'content-type': 'application/json' } : {}),
      },
      ...(batch ? { body: JSON.stringify(batch) } : {}),
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const problem = apiErrorSchema.safeParse(body);
      throw new Error(
        `licence server answered ${response.status}${problem.success ? ` ${problem.data.code}: ${problem.data.message}` : ''}`,
      );
    }
    return licenceStandingSchema.parse(body);
  }
}
