import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { countsOfRunReport, withPlainClosingBanner } from './run-report.js';

describe('the contract test report', () => {
  it("prints schemathesis' closing banner plainly, whatever the chunks, and every other line as it is", async () => {
    const output = [
      '=========== SUMMARY ===========\nTest cases:\n  250 generated, 250 passed, 60 skipped\n\nSeed: 20261123\n\n====',
      '========================= 4 warnings in 10.73s =============================\n',
      '== No issues found in 75.12s ==',
    ];
    const printed = await text(Readable.from(output).pipe(withPlainClosingBanner()));
    expect(printed).toBe(
      '=========== SUMMARY ===========\nTest cases:\n  250 generated, 250 passed, 60 skipped\n\nSeed: 20261123\n\n' +
        'schemathesis: 4 warnings in 10.73s\nschemathesis: No issues found in 75.12s',
    );
  });

  it('counts the cases of a run: failed and errored fail, cases no check ran on are skipped', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'contract-report-')), 'run.json');
    writeFileSync(
      file,
      JSON.stringify({
        test_cases: { generated: 300, with_failures: 2, unique_failures: 1, without_checks: 60, errored: 1 },
      }),
    );
    expect(countsOfRunReport(file)).toEqual({ passed: 237, failed: 3, skipped: 60 });
  });
});
