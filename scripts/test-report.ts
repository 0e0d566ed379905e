import path from 'node:path';

/**
 * When VERBATIM_TEST_REPORT_DIR is set (CI sets it), each Vitest run also writes its results as
 * JSON there, so that `scripts/test-summary.ts` can print one closing line over every pass.
 */
export function testReportOptions(runName: string): {
  reporters?: string[];
  outputFile?: { json: string };
} {
  const directory = process.env.VERBATIM_TEST_REPORT_DIR;
  if (!directory) return {};
  const pass = process.env.VERBATIM_TEST_PASS ?? 'embedded';
  return {
    reporters: ['default', 'json'],
    outputFile: { json: path.resolve(directory, `${runName}-${pass}-${Date.now()}.json`) },
  };
}
