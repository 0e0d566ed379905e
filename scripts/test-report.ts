import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * When VERBATIM_TEST_REPORT_DIR is set (CI sets it), every test pass writes its counts there as
 * JSON, so that `scripts/test-summary.ts` can print one closing line over every pass.
 */

/** The fields of Vitest's JSON report that the summary reads; other runners write the same. */
export interface TestCountsReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

/** Where a pass named `runName` writes its report, or undefined when no folder is set. */
function testReportFile(runName: string): string | undefined {
  const directory = process.env.VERBATIM_TEST_REPORT_DIR;
  if (!directory) return undefined;
  const pass = process.env.VERBATIM_TEST_PASS ?? 'embedded';
  return path.resolve(directory, `${runName}-${pass}-${Date.now()}.json`);
}

/** Vitest options that add its JSON report to the folder. */
export function testReportOptions(runName: string): {
  reporters?: string[];
  outputFile?: { json: string };
} {
  const file = testReportFile(runName);
  return file ? { reporters: ['default', 'json'], outputFile: { json: file } } : {};
}

/** The counts of a pass run by another tool than Vitest (e.g. the contract test's schemathesis). */
export function recordTestCounts(
  runName: string,
  counts: { passed: number; failed: number; skipped: number },
): void {
  const file = testReportFile(runName);
  if (!file) return;
  const report: TestCountsReport = {
    numPassedTests: counts.passed,
    numFailedTests: counts.failed,
    numPendingTests: counts.skipped,
    numTodoTests: 0,
  };
  writeFileSync(file, JSON.stringify(report));
}
