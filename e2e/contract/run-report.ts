import { readFileSync } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';

/** The parts of schemathesis' JSON run report (`--report json`) the contract test reads. */
interface SchemathesisRunReport {
  test_cases: {
    generated: number;
    with_failures: number;
    without_checks: number;
    errored: number;
  };
}

export interface ContractCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Test cases of one schemathesis run: the ones no check ran on count as skipped. */
export function countsOfRunReport(reportFile: string): ContractCounts {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as SchemathesisRunReport;
  const { generated, with_failures, without_checks, errored } = report.test_cases;
  const failed = with_failures + errored;
  return { passed: generated - failed - without_checks, failed, skipped: without_checks };
}

/**
 * Passes schemathesis' output through, line by line, except its closing banner
 * ("===== 4 warnings in 10.7s =====" or "===== No issues found in 75s ====="): that line has
 * pytest's shape without pytest's counts, and CI reads pytest-shaped closing lines as the test
 * runner's verdict, so a banner with no count reads as "no test ran". It is printed plainly
 * ("schemathesis: 4 warnings in 10.7s") and the counts come in the contract test's own line.
 */
export function withPlainClosingBanner(): Transform {
  let pending = '';
  const rewrite = (line: string) => {
    const banner = /^=+ (.+ in [\d.]+s) =+$/.exec(line);
    return banner ? `schemathesis: ${banner[1]}` : line;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      callback(null, lines.map((line) => `${rewrite(line)}\n`).join(''));
    },
    flush(callback: TransformCallback) {
      callback(null, pending ? rewrite(pending) : '');
    },
  });
}
