import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';

// The CLI as a black box: the built dist/cli.js (globalSetup builds it), spawned.
const CLI = 'dist/cli.js';
const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));

function peon(...args: string[]) {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('peon', () => {
  test('is an executable script with a node shebang', () => {
    expect(fs.readFileSync(CLI, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(fs.statSync(CLI).mode & 0o111).not.toBe(0);
  });

  test.each([['--help'], ['-h'], ['help'], []])('%j prints the usage and exits 0', (...args) => {
    const r = peon(...args);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: peon <command> [options]');
    expect(r.stdout).toMatch(/^ {2}help +Show this help\.$/m);
    expect(r.stderr).toBe('');
  });

  test.each([['--version'], ['-V'], ['version']])('%s prints the package version', (flag) => {
    const r = peon(flag);
    expect(r).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });
  });

  test('an unknown command is a usage error: exit 2, a message on stderr', () => {
    const r = peon('frobnicate');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("peon: unknown command 'frobnicate'. Run 'peon --help' for the list.\n");
  });

  test('object prototype names are not commands', () => {
    expect(peon('constructor').code).toBe(2);
    expect(peon('__proto__').code).toBe(2);
  });
});
