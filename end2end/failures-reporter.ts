// Repeats each failed test's first error line at the very end of the run, after the list
// reporter's summary: a CI log that keeps only its last lines then still says what failed and
// why, not only the failure's attachments.
import path from 'node:path';

import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class FailuresReporter implements Reporter {
  private readonly failures: string[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'passed' || result.status === 'skipped') return;
    const error = result.errors.at(0);
    // The error's first line without the terminal's colour codes, and where it was thrown.
    // eslint-disable-next-line no-control-regex
    const line = (error?.message ?? result.status).replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0] ?? '';
    const where = error?.location ? ` (${path.basename(error.location.file)}:${error.location.line})` : '';
    this.failures.push(`${test.titlePath().slice(1).join(' › ')}: ${line.slice(0, 400)}${where}`);
  }

  onEnd(): void {
    for (const failure of this.failures) console.log(`FAILED ${failure}`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
