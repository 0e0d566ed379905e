import type { Logger } from 'pino';
import type { Db } from '../../platform/db/database.js';
import { InstallationLicence, LicenceMeter, type InstallationSettings } from './installation-licence.js';
import { UsageJournal } from './usage-journal.js';
import { UsageReporter } from './usage-reporter.js';

/** The on-premise edition's parts: its licence, the meter that counts against it, the reporter. */
export interface Installation {
  licence: InstallationLicence;
  meter: LicenceMeter;
  /** null when air-gapped (no LICENSE_SERVER_URL). */
  reporter: UsageReporter | null;
}

export function createInstallation(db: Db, settings: InstallationSettings, logger: Logger): Installation {
  const journal = new UsageJournal(db);
  const licence = new InstallationLicence(db, journal, settings, logger);
  return {
    licence,
    meter: new LicenceMeter(db, licence, journal),
    reporter: settings.serverUrl ? new UsageReporter(licence, journal, settings.serverUrl, logger) : null,
  };
}
