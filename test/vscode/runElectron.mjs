#!/usr/bin/env node
// `npm run test:electron`: the same in-host suite under @vscode/test-electron, which
// downloads desktop VS Code (so it needs internet, and a display or xvfb-run on Linux).
// Not part of `npm test`, whose host is the offline code-server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { repoRoot } from '../../scripts/paths.mjs';
import { buildAll } from './buildSuite.mjs';

const { testsEntry, workspace } = await buildAll();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-electron-'));
const resultsFile = path.join(scratch, 'results.json');
try {
  await runTests({
    version: process.env.PEON_VSCODE_VERSION ?? '1.99.3',
    // Peon, and the scripted vscode.lm model the suite talks to (desktop takes several).
    extensionDevelopmentPath: [repoRoot, path.join(repoRoot, 'test', 'fixtures', 'lm-provider')],
    extensionTestsPath: testsEntry,
    extensionTestsEnv: { PEON_TEST_RESULTS: resultsFile },
    // A fresh profile each run: a view restored from the last run would activate Peon early.
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--enable-proposed-api=peon-test.peon-test-lm', `--user-data-dir=${path.join(scratch, 'user-data')}`],
  });
} finally {
  if (fs.existsSync(resultsFile)) {
    const { passed, failed } = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
    console.log(`integration (VS Code desktop): ${passed} passed, ${failed} failed`);
  }
}
