// Prints one plain closing line for CI ("tests: N passed, N failed, N skipped") from the runs' JSON
// reports: vitest's (test-results/api-*.json, e2e.json) and the resilience suite's checks
// (test-results/resilience.json, counted as tests). With more than one report, a line for each first.
import fs from "node:fs";
import path from "node:path";

let passed = 0;
let failed = 0;
let skipped = 0;
const files = process.argv.slice(2);
for (const file of files) {
  let report;
  try {
    report = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    // A run that wrote no report failed before it could: it counts as one failure.
    console.log(`  ${path.basename(file)}: no report`);
    failed++;
    continue;
  }
  const r = Array.isArray(report.checks)
    ? { passed: report.passed, failed: report.failed, skipped: 0 }
    : {
        passed: report.numPassedTests,
        failed: report.numFailedTests,
        skipped: report.numPendingTests + report.numTodoTests,
      };
  if (files.length > 1)
    console.log(`  ${path.basename(file)}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
  passed += r.passed;
  failed += r.failed;
  skipped += r.skipped;
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
