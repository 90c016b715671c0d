// Runs inside a real VS Code extension host (code-server here, @vscode/test-electron
// where VS Code can be downloaded). The driver passes PEON_TEST_RESULTS and reads the
// counts written there; `run()` rejecting also fails the run.
import fs from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';

interface Results {
  passed: number;
  failed: number;
  failures: { title: string; error: string }[];
  done: boolean;
}

export function run(): Promise<void> {
  const resultsFile = process.env.PEON_TEST_RESULTS;
  const results: Results = { passed: 0, failed: 0, failures: [], done: false };
  const save = (): void => {
    if (!resultsFile) return;
    // The driver polls this file: replace it whole so it never reads half a write.
    fs.writeFileSync(`${resultsFile}.tmp`, JSON.stringify(results, null, 2));
    fs.renameSync(`${resultsFile}.tmp`, resultsFile);
  };
  const mocha = new Mocha({ ui: 'tdd', timeout: 30_000, color: false, reporter: 'spec' });
  for (const file of fs.readdirSync(__dirname).sort()) {
    if (file.endsWith('.test.js')) mocha.addFile(path.join(__dirname, file));
  }
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      results.done = true;
      save();
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
    runner.on('pass', () => {
      results.passed++;
      save();
    });
    runner.on('fail', (test, error: Error) => {
      results.failed++;
      results.failures.push({ title: test.fullTitle(), error: error.stack ?? String(error) });
      save();
    });
  });
}
