import type { Logger } from 'pino';
import type { FileTranscriptionService } from './file-transcription.service.js';
import type { FilesService } from './files.service.js';

/** Automatic deletion runs this often (and at start). */
const retentionIntervalMs = 15 * 60_000;

/**
 * Runs in every worker process: takes up files whose worker died (checked every half staleness
 * period) and deletes recordings and transcripts past their account's deletion period. Both are
 * conditional updates, so several processes running them at once do no harm.
 */
export class FilesMaintenance {
  #timers: NodeJS.Timeout[] = [];
  #running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly transcription: FileTranscriptionService,
    private readonly files: FilesService,
    private readonly staleSeconds: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const recover = () =>
      this.#run('recovery of interrupted transcriptions', () => this.transcription.recoverInterrupted());
    const retention = () => this.#run('automatic deletion', () => this.files.deleteExpired());
    recover();
    retention();
    this.#timers.push(setInterval(recover, Math.max(1000, (this.staleSeconds * 1000) / 2)));
    this.#timers.push(setInterval(retention, retentionIntervalMs));
    for (const timer of this.#timers) timer.unref();
  }

  /** Runs the automatic deletion now (operators and tests). */
  deleteExpiredNow(): Promise<number> {
    return this.files.deleteExpired();
  }

  async stop(): Promise<void> {
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    await this.#running;
  }

  #run(what: string, task: () => Promise<unknown>): void {
    this.#running = this.#running
      .then(task)
      .catch((error: unknown) => this.logger.error({ err: error }, `${what} failed`));
  }
}
