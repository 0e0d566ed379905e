import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestCountsReport } from './test-report.js';

/**
 * Prints one closing line over every test pass that wrote a JSON report to the folder given
 * (see scripts/test-report.ts), e.g. "Tests: 1570 passed, 0 failed, 1 skipped". Exits 1 when a
 * test failed or when no test ran at all, so CI cannot pass on an empty run.
 */
const directory = process.argv[2];
if (!directory) {
  console.error('usage: test-summary.ts REPORT_FOLDER');
  process.exit(64);
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const reports = readdirSync(directory).filter((name) => name.endsWith('.json'));
for (const name of reports) {
  const report = JSON.parse(readFileSync(path.join(directory, name), 'utf8')) as TestCountsReport;
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

console.log(`Test runs: ${reports.length}`);
console.log(`Tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (totals.failed > 0 || totals.passed === 0) process.exit(1);
