#!/usr/bin/env node
// Runs the integration suite inside the extension host of a real VS Code (code-server),
// loaded through the workbench's development payload, and fails when the suite fails,
// runs no test, or does not finish in time. Counts go to test-results/integration.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artifactsDir, repoRoot } from '../../scripts/paths.mjs';
import { launchBrowser, openWorkbench } from './browser.mjs';
import { buildAll } from './buildSuite.mjs';
import { startCodeServer } from './codeServer.mjs';
import { packFixtureExtension } from './fixtureExtension.mjs';

const TIMEOUT_MS = Number(process.env.PEON_INTEGRATION_TIMEOUT_MS ?? 180_000);

async function main() {
  const { testsEntry, workspace } = await buildAll();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-integration-'));
  const resultsFile = path.join(scratch, 'results.json');

  // Installed beside Peon: a scripted model for vscode.lm (the proposed chatProvider API of 1.99).
  const lmProvider = packFixtureExtension('lm-provider', scratch);
  const server = await startCodeServer({ workspace, env: { PEON_TEST_RESULTS: resultsFile }, install: [lmProvider], enableProposedApi: ['peon-test.peon-test-lm'] });
  let browser;
  let results;
  try {
    browser = await launchBrowser();
    const url = server.workbenchUrl(workspace, [
      ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
      ['extensionTestsPath', server.remoteUri(testsEntry)],
    ]);
    await openWorkbench(browser, url);
    results = await waitForResults(resultsFile, server);
  } finally {
    await browser?.close();
    await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  fs.mkdirSync(artifactsDir, { recursive: true });
  fs.writeFileSync(path.join(artifactsDir, 'integration.json'), JSON.stringify(results, null, 2));
  for (const failure of results.failures) console.error(`✗ ${failure.title}\n${failure.error}\n`);
  console.log(`integration (VS Code extension host): ${results.passed} passed, ${results.failed} failed`);
  if (results.failed > 0 || results.passed === 0) process.exitCode = 1;
}

async function waitForResults(file, server) {
  const deadline = Date.now() + TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (fs.existsSync(file)) {
      const results = JSON.parse(fs.readFileSync(file, 'utf8')); // written whole by rename, never half
      if (results.done) return results;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const partial = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : 'no results written';
  throw new Error(`The integration suite did not finish within ${TIMEOUT_MS / 1000} s (${partial}).\ncode-server said:\n${server.output.join('\n')}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
