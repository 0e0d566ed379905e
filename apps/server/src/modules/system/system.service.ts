import type { ConsoleConfig, Health, Readiness } from '@verbatim/contracts';
import type { SpeechEngine } from '@verbatim/speech';
import type { Kysely } from 'kysely';
import type { Config } from '../../config/config.js';
import type { Database } from '../../platform/db/database.js';
import type { InstallationLicence } from '../licences/installation-licence.js';
import { pendingMigrations } from '../../platform/db/migrator.js';
import type { FileStorage } from '../../platform/storage/file-storage.js';

/** /ready answers within this even when the store does not (load balancers poll it). */
const storageCheckTimeoutMs = 3_000;

export class SystemService {
  readonly #startedAt = Date.now();

  constructor(
    private readonly config: Config,
    private readonly database: Database,
    private readonly speech: SpeechEngine,
    private readonly storage: { kind: 'local' | 's3'; store: FileStorage },
    /** The on-premise edition's licence; null in the cloud product. */
    private readonly licence: InstallationLicence | null = null,
  ) {}

  /** The on-premise licence's problem, if it has one (null in the cloud product). */
  async #licenceProblem(): Promise<{ code: string; message: string } | null> {
    if (!this.licence) return null;
    const { problemError } = await this.licence.view();
    return problemError ? { code: problemError.code, message: problemError.message } : null;
  }

  health(): Health {
    return {
      status: 'ok',
      version: this.config.version,
      uptimeSeconds: (Date.now() - this.#startedAt) / 1000,
    };
  }

  /** Ready means: the database answers and every migration this build knows of has been applied. */
  async readiness(): Promise<Readiness> {
    const started = performance.now();
    const database: Readiness['checks']['database'] = { ok: true };
    const migrations: Readiness['checks']['migrations'] = { ok: true, pending: [] };
    try {
      await this.database.pool.query('select 1');
      database.latencyMs = Math.round((performance.now() - started) * 100) / 100;
    } catch (error) {
      database.ok = false;
      database.detail = error instanceof Error ? error.message : 'unreachable';
    }
    if (database.ok) {
      try {
        migrations.pending = await pendingMigrations(this.database.db as Kysely<unknown>);
        migrations.ok = migrations.pending.length === 0;
      } catch (error) {
        migrations.ok = false;
        migrations.detail = error instanceof Error ? error.message : 'unknown';
      }
    } else {
      migrations.ok = false;
      migrations.detail = 'database unreachable';
    }
    const engine = this.speech.status();
    const speech: Readiness['checks']['speech'] = {
      ok: engine.ready,
      ...(engine.problem ? { detail: engine.problem } : {}),
      models: engine.models.filter((model) => model.info).map((model) => model.name),
      workers: engine.workers,
      busy: engine.busy,
      waiting: engine.waiting,
    };
    const storage = await this.#storageCheck();
    let licence: Readiness['checks']['licence'];
    if (this.licence && database.ok && migrations.ok) {
      const problem = await this.#licenceProblem();
      licence = problem
        ? { ok: false, code: problem.code, detail: problem.message }
        : { ok: true, code: null };
    } else if (this.licence) {
      licence = { ok: false, code: null, detail: 'database unreachable or not migrated' };
    }
    return {
      status: database.ok && migrations.ok ? 'ready' : 'not_ready',
      checks: { database, migrations, speech, storage, ...(licence ? { licence } : {}) },
    };
  }

  async #storageCheck(): Promise<Readiness['checks']['storage']> {
    const started = performance.now();
    try {
      // Aborted, the store's request is dropped rather than left running behind the answer.
      await this.storage.store.check(AbortSignal.timeout(storageCheckTimeoutMs));
      return {
        ok: true,
        kind: this.storage.kind,
        latencyMs: Math.round((performance.now() - started) * 100) / 100,
      };
    } catch (error) {
      return {
        ok: false,
        kind: this.storage.kind,
        detail: error instanceof Error ? error.message : 'unknown',
      };
    }
  }

  async consoleConfig(): Promise<ConsoleConfig> {
    return {
      productName: this.config.console.productName,
      version: this.config.version,
      links: this.config.console.links,
      edition: this.config.licensing.installation ? 'on_premise' : 'cloud',
      onPremise: { offerUrl: this.config.licensing.offerUrl, salesEmail: this.config.licensing.salesEmail },
      licenceProblem: await this.#licenceProblem(),
    };
  }
}
