// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned and
// provisioned with the Node 22 it needs: scripts/provision-mcp.mjs) against Peon's client
// as people run it, the built CLI (conformanceClient.mjs drives `peon tools` and
// `peon tool`): the handshake, a tool call, SSE resumption after the server closes the
// stream, elicitation defaults, and every authorization scenario of the 2025-06-18 and
// 2025-11-25 specs — discovery of both metadata documents at each place they may be,
// client ID metadata documents, scope selection and step-up with its retry limit, each
// token endpoint authentication, a pre-registered client. The verdict is the suite's
// own; a scenario that made no checks ("Passed: 0/0") has not been tested, and fails.
// Its servers listen on loopback only.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { provisionConformance } from '../../../scripts/provision-mcp.mjs';

const SCENARIOS = [
  'initialize',
  'tools_call',
  'sse-retry',
  'elicitation-sep1034-client-defaults',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
];

const client = path.resolve(__dirname, 'conformanceClient.mjs');
/**
 * Scenarios run three at a time, each client given two minutes (the suite's default is 30 s):
 * a scenario is two or three CLI runs, slow on a loaded two-core machine, and sse-retry
 * measures the client's reconnection delay to within a few hundred milliseconds.
 */
const AT_ONCE = 3;
const CLIENT_TIMEOUT_MS = 120_000;

/** At most `n` of the functions given run at a time. */
function limiter(n: number): <T>(run: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (run) => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await run();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
const slot = limiter(AT_ONCE);

interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly description: string;
  readonly errorMessage?: string;
}

interface Verdict {
  readonly code: number | null;
  readonly passed: number;
  readonly total: number;
  readonly failed: number;
  readonly warnings: number;
  readonly overall: 'PASSED' | 'FAILED' | undefined;
  /** What did not pass, and the client's output, for the assertion's message. */
  readonly why: string;
}

/** Runs one scenario: `conformance client --command "node conformanceClient.mjs" --scenario NAME --verbose`. */
function runScenario(scenario: string): Promise<Verdict> {
  const { node, cli } = provisionConformance();
  // The suite splits its --command on spaces.
  if (/\s/.test(process.execPath + client)) throw new Error(`The conformance suite cannot run a client whose path has a space: ${process.execPath} ${client}`);
  // A folder of its own for whatever the suite writes (the scenarios run at once: tempDir's cleanup after each test would pull it away from the others).
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-conformance-run-'));
  return new Promise((resolve, reject) => {
    const child = spawn(node, [cli, 'client', '--command', `${process.execPath} ${client}`, '--scenario', scenario, '--timeout', String(CLIENT_TIMEOUT_MS), '--verbose'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      fs.rmSync(cwd, { recursive: true, force: true });
      const counts = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(stderr);
      const overall = /OVERALL: (PASSED|FAILED)/.exec(stderr)?.[1] as Verdict['overall'];
      let checks: Check[] = [];
      try {
        checks = JSON.parse(stdout.slice(stdout.indexOf('['))) as Check[];
      } catch {
        // No JSON: the counts (or their absence) say enough.
      }
      const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => `${c.status} ${c.id}: ${c.description}${c.errorMessage ? ` (${c.errorMessage})` : ''}`);
      resolve({
        code,
        passed: Number(counts?.[1] ?? 0),
        total: Number(counts?.[2] ?? 0),
        failed: Number(counts?.[3] ?? 0),
        warnings: Number(counts?.[4] ?? 0),
        overall,
        why: [...bad, stderr.slice(-4000)].join('\n'),
      });
    });
  });
}

describe('the MCP conformance suite, client scenarios, against the peon CLI', () => {
  test.concurrent.each(SCENARIOS)('%s', async (scenario) => {
    const { why, total, ...verdict } = await slot(() => runScenario(scenario));
    // Checks were made ("Passed: 0/0" is no test), every one passed, nothing warned, and the suite says so.
    expect(total, why).toBeGreaterThan(0);
    expect(verdict, why).toEqual({ code: 0, passed: total, failed: 0, warnings: 0, overall: 'PASSED' });
  }, 6 * CLIENT_TIMEOUT_MS);
});
