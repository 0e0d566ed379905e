import type { UsageReport } from '@verbatim/contracts';
import { AppError } from '../../errors/app-error.js';
import type { InstallationLicence } from './installation-licence.js';
import { reportSignature } from './licence-keys.js';
import type { UsageJournal } from './usage-journal.js';

/**
 * The air-gapped way out: every unsent batch of the journal, in a report signed with the licence
 * key's HMAC, to be uploaded on the cloud console's On-premise screen. The batches are marked sent
 * once the report is written (`markWritten`), and the licence server counts each batch once, so
 * uploading a report twice, or two overlapping reports, never counts a second twice.
 */
export async function buildUsageReport(
  licence: InstallationLicence,
  journal: UsageJournal,
): Promise<{ report: UsageReport; markWritten: () => Promise<void> }> {
  const key = licence.key;
  if (!key)
    throw new AppError(
      'LICENSE_INVALID',
      'The licence key (LICENSE_KEY) is not valid: no report can be signed.',
    );
  const batches = await journal.pendingBatches();
  const fields = {
    format: 'verbatim-usage-report/1' as const,
    licenceId: key.payload.licenceId,
    keyPayload: key.encodedPayload,
    createdAt: new Date().toISOString(),
    batches,
  };
  return {
    report: { ...fields, signature: reportSignature(licence.settings.key, fields) },
    markWritten: () => journal.markSent(batches.map((batch) => batch.batchId)),
  };
}
