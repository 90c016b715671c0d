#!/usr/bin/env node
// `npm test`: every layer, in order, on a fresh machine too. Provisions what the tests
// need (Debian packages as root, the pinned code-server, agent CLIs and MCP peers), then runs typecheck, lint,
// unit tests, the in-host integration suite and the e2e test. Every layer runs even
// when an earlier one failed; the run fails if any layer fails or runs no test.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { artifactsDir, repoRoot } from './paths.mjs';
import { provisionAgents } from './provision-agents.mjs';
import { provisionCodeServer } from './provision-code-server.mjs';
import { provisionMcp } from './provision-mcp.mjs';
import { ensureSystemPackages } from './system-deps.mjs';

const npx = (bin, ...args) => [path.join(repoRoot, 'node_modules', '.bin', bin), ...args];

/** Each step: a command, and for test layers the file where its runner writes counts. */
const MINUTE = 60_000;
/** Each step: a command, a deadline (a hung step fails, it never stalls CI), and for test layers the counts file. */
const STEPS = [
  { name: 'typecheck', command: npx('tsc', '-p', 'tsconfig.json', '--noEmit'), timeout: 5 * MINUTE },
  { name: 'typecheck webview', command: npx('svelte-check', '--tsconfig', './webview/tsconfig.json', '--fail-on-warnings'), timeout: 5 * MINUTE },
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'], timeout: 5 * MINUTE },
  // The unit layer takes about 19 minutes here since MCP's real servers and conformance suite joined it: 40 leaves room on a busy machine.
  { name: 'unit', command: npx('vitest', 'run'), counts: 'unit.json', timeout: 40 * MINUTE },
  { name: 'integration', command: [process.execPath, 'test/vscode/runIntegration.mjs'], counts: 'integration.json', timeout: 10 * MINUTE },
  { name: 'e2e', command: npx('vitest', 'run', '--config', 'vitest.e2e.config.mts'), counts: 'e2e.json', timeout: 20 * MINUTE },
];

function readCounts(file) {
  const full = path.join(artifactsDir, file);
  if (!fs.existsSync(full)) return undefined;
  const data = JSON.parse(fs.readFileSync(full, 'utf8'));
  // vitest's JSON reporter, or the integration driver's own file
  if ('numTotalTests' in data) return { passed: data.numPassedTests, failed: data.numFailedTests };
  return { passed: data.passed, failed: data.failed };
}

function main() {
  ensureSystemPackages();
  provisionCodeServer();
  provisionAgents();
  provisionMcp();
  fs.rmSync(artifactsDir, { recursive: true, force: true });
  fs.mkdirSync(artifactsDir, { recursive: true });

  const rows = [];
  for (const step of STEPS) {
    console.log(`\n=== ${step.name} ===`);
    const started = Date.now();
    const [command, ...args] = step.command;
    const result = spawnSync(command, args, {
      cwd: repoRoot,
      stdio: 'inherit',
      env: { ...process.env, FORCE_COLOR: '0' },
      timeout: step.timeout,
      killSignal: 'SIGKILL',
    });
    if (result.error?.code === 'ETIMEDOUT') console.error(`${step.name} did not finish within ${step.timeout / MINUTE} minutes.`);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const counts = step.counts ? readCounts(step.counts) : undefined;
    let ok = result.status === 0;
    let note = ok ? 'ok' : `exit ${result.status ?? result.signal}`;
    if (step.counts) {
      if (!counts || counts.passed + counts.failed === 0) {
        ok = false;
        note = 'ran no test';
      } else note = `${counts.passed} passed, ${counts.failed} failed${ok ? '' : ` (exit ${result.status ?? result.signal})`}`;
    }
    rows.push({ ...step, ok, note, seconds, counts });
  }

  console.log('\n=== summary ===');
  for (const row of rows) console.log(`${row.ok ? 'PASS' : 'FAIL'}  ${row.name.padEnd(18)} ${row.note.padEnd(28)} ${row.seconds} s`);
  const passed = rows.reduce((n, r) => n + (r.counts?.passed ?? 0), 0);
  // A failed step without test counts (typecheck, lint, a runner that crashed) counts as one failure.
  const failed = rows.reduce((n, r) => n + (r.counts?.failed || (r.ok ? 0 : 1)), 0);
  const failedSteps = rows.filter((r) => !r.ok).length;
  console.log(`\n${passed} passed, ${failed} failed`);
  if (failedSteps > 0) {
    console.error(`${failedSteps} step(s) failed: ${rows.filter((r) => !r.ok).map((r) => r.name).join(', ')}`);
    process.exitCode = 1;
  }
}

main();
