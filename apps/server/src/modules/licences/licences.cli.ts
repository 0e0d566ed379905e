import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Licence } from '@verbatim/contracts';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { AppError } from '../../errors/app-error.js';
import { SecretStore } from '../../platform/crypto/secret-store.js';
import type { Db } from '../../platform/db/database.js';
import { InstallationLicence } from './installation-licence.js';
import { licensingKeys } from './licence-keys.js';
import { LicencesService } from './licences.service.js';
import { buildUsageReport } from './usage-report-file.js';
import { UsageJournal } from './usage-journal.js';

export const licencesUsage = `  licenses issue --email E --name N --hours H --expires YYYY-MM-DD [--grace-days D]
                            issue an on-premise licence; the key is the last line printed
  licenses list [--email E]   list licences (all, or one account's)
  licenses suspend <id|prefix> / licenses resume <id|prefix>
  licenses extend <id|prefix> [--hours H] [--expires YYYY-MM-DD]
                            add hours and/or move the expiry; prints the new key last
  licenses report --out F     on-premise edition: write unsent usage to F (air-gapped sites)`;

/** A command line that cannot be run as written. */
export class LicencesUsageError extends Error {}

function hours(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}`;
}

function line(licence: Licence & { email: string }): string {
  return [
    licence.id,
    licence.keyPrefix,
    licence.email,
    licence.name,
    licence.status,
    licence.expiry.slice(0, 10),
    `${hours(licence.uses)}/${hours(licence.maxUses)}`,
    licence.lastReportAt ?? '-',
  ].join('\t');
}

function parse(args: string[], options: Record<string, { type: 'string' }>, positionals: number) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: positionals > 0, strict: true });
  } catch (error) {
    throw new LicencesUsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.positionals.length !== positionals) {
    throw new LicencesUsageError(positionals ? 'give the licence id or key prefix' : 'unexpected argument');
  }
  return { values: parsed.values as Record<string, string | undefined>, positionals: parsed.positionals };
}

function numberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number))
    throw new AppError('BAD_REQUEST', `--${name} must be a number, not "${value}".`);
  return number;
}

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name];
  if (value === undefined) throw new LicencesUsageError(`licenses needs --${name}`);
  return value;
}

/**
 * `verbatim licenses …`: the operator's licence commands (there are no admin roles in the
 * console). Prints to `print`; refusals are AppErrors (exit code 1).
 */
export async function runLicencesCommand(
  db: Db,
  config: Config,
  logger: Logger,
  args: string[],
  print: (text: string) => void,
): Promise<void> {
  const [action, ...rest] = args;
  const service = new LicencesService(db, () =>
    licensingKeys(new SecretStore(db), config.licensing.privateKey),
  );
  switch (action) {
    case 'issue': {
      const { values } = parse(
        rest,
        {
          email: { type: 'string' },
          name: { type: 'string' },
          hours: { type: 'string' },
          expires: { type: 'string' },
          'grace-days': { type: 'string' },
        },
        0,
      );
      const graceDays = numberOption('grace-days', values['grace-days']);
      const { licence, key } = await service.issue({
        email: required(values, 'email'),
        name: required(values, 'name'),
        hours: numberOption('hours', required(values, 'hours')) ?? 0,
        expires: required(values, 'expires'),
        ...(graceDays === undefined ? {} : { graceDays }),
      });
      print(
        `licence ${licence.id} (${licence.keyPrefix}) issued: "${licence.name}", ${hours(licence.maxUses)} until ${licence.expiry.slice(0, 10)}, ${licence.graceDays} days of grace offline`,
      );
      print(
        'Give the customer this key (shown once) and the public key of GET /api/v1/licensing/public-key:',
      );
      print(key);
      return;
    }
    case 'list': {
      const { values } = parse(rest, { email: { type: 'string' } }, 0);
      print(
        ['id', 'key prefix', 'email', 'name', 'status', 'expiry', 'used/total', 'last report'].join('\t'),
      );
      for (const licence of await service.listForOperator(values.email)) print(line(licence));
      return;
    }
    case 'suspend':
    case 'resume': {
      const { positionals } = parse(rest, {}, 1);
      const target = positionals[0] ?? '';
      const licence = action === 'suspend' ? await service.suspend(target) : await service.resume(target);
      print(`licence ${licence.id} (${licence.keyPrefix}) is now ${licence.status}`);
      return;
    }
    case 'extend': {
      const { values, positionals } = parse(
        rest,
        { hours: { type: 'string' }, expires: { type: 'string' } },
        1,
      );
      const added = numberOption('hours', values.hours);
      const { licence, key } = await service.extend(positionals[0] ?? '', {
        ...(added === undefined ? {} : { hours: added }),
        ...(values.expires === undefined ? {} : { expires: values.expires }),
      });
      print(
        `licence ${licence.id} (${licence.keyPrefix}): ${hours(licence.maxUses)} until ${licence.expiry.slice(0, 10)}, ${licence.status}`,
      );
      print('The installation learns the new terms at its next report; its new key (optional to install):');
      print(key);
      return;
    }
    case 'report': {
      const { values } = parse(rest, { out: { type: 'string' } }, 0);
      const out = required(values, 'out');
      const settings = config.licensing.installation;
      if (!settings)
        throw new AppError(
          'BAD_REQUEST',
          'licenses report runs on the on-premise edition: set LICENSE_KEY and LICENSE_PUBLIC_KEY.',
        );
      const journal = new UsageJournal(db);
      const licence = new InstallationLicence(db, journal, settings, logger);
      const { report, markWritten } = await buildUsageReport(licence, journal);
      await writeFile(out, `${JSON.stringify(report, null, 2)}\n`, { flag: 'wx' }).catch((error: unknown) => {
        throw new AppError(
          'BAD_REQUEST',
          `${out} could not be written: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
      await markWritten();
      const seconds = report.batches.reduce((sum, batch) => sum + batch.seconds, 0);
      print(
        `${report.batches.length} batches, ${hours(seconds)} (${seconds} s) of usage written to ${out}: upload it on the On-premise screen of the console`,
      );
      return;
    }
    default:
      throw new LicencesUsageError(
        action ? `unknown licenses command "${action}"` : 'licenses needs a command',
      );
  }
}
