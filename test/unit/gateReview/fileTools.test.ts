import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { peonTool } from '../cliHarness';
import { tempDir, writeFiles } from '../tools/toolTestContext';

// The review's file-tool findings through the built CLI under default settings: F8 (grep
// showed protected files a read asks for) and F9 (write and delete told the model a
// file's hash or existence before the gate).

function box(): { t: string; home: string; ws: string } {
  const t = tempDir('peon-review-files-');
  const home = path.join(t, 'home');
  const ws = path.join(t, 'ws');
  writeFiles(home, { '.ssh/id_ed25519': 'FAKE-KEY\n' });
  writeFiles(ws, { '.env': 'SECRET=1\n', 'README.md': 'token: none here\n' });
  return { t, home, ws };
}

describe('F8: grep leaves protected files out, counted, as it does secret-like ones', () => {
  test('.mcp.json, .vscode/, .peon/ config, workflows and .husky stay out of a workspace-wide search', () => {
    const { home, ws } = box();
    writeFiles(ws, {
      '.mcp.json': '{"mcpServers":{"gh":{"command":"gh-mcp","env":{"GITHUB_TOKEN":"ghp_FAKE"}}}}\n',
      '.vscode/settings.json': '{"x.token":"FAKE_VSCODE_TOKEN"}\n',
      '.peon/config.json': '{"token":"FAKE_PEON_TOKEN"}\n',
      '.github/workflows/ci.yml': 'env: { TOKEN: FAKE_CI_TOKEN }\n',
      '.husky/pre-commit': 'TOKEN=FAKE_HUSKY_TOKEN\n',
    });
    expect(peonTool('read', ws, { path: '.mcp.json' }, [], { env: { HOME: home } })).toMatchObject({ ok: false, permission: { decision: 'ask' } });
    const outcome = peonTool('grep', ws, { pattern: 'TOKEN|token' }, [], { env: { HOME: home } });
    expect(outcome).toMatchObject({ ok: true, data: { protectedLeftOut: 5 } });
    expect(outcome.output).not.toMatch(/FAKE/);
    expect(outcome.output).toContain('README.md:1:token: none here');
    expect(outcome.output).toContain('5 protected file(s)');
  });

  test('a search aimed at a protected folder asks, and once approved shows it', () => {
    const { home, ws } = box();
    writeFiles(ws, { '.vscode/settings.json': '{"x.token":"FAKE_VSCODE_TOKEN"}\n' });
    expect(peonTool('grep', ws, { pattern: 'token', path: '.vscode' }, [], { env: { HOME: home } })).toMatchObject({ ok: false, permission: { decision: 'ask' } });
    expect(peonTool('grep', ws, { pattern: 'token', path: '.vscode' }, ['--approve', 'all'], { env: { HOME: home } }).output).toContain('FAKE_VSCODE_TOKEN');
  });
});

describe('F9: nothing about a sensitive file leaves before approval', () => {
  const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

  test.each([
    ['a wrong expected_sha256 on .env', { path: '.env', content: '', expected_sha256: '0'.repeat(64) }],
    ['mode create on an existing key outside', { path: '~/.ssh/id_ed25519', content: '', mode: 'create' }],
    ['mode replace on a missing key outside', { path: '~/.ssh/id_missing', content: '', mode: 'replace' }],
    ['mode replace on a missing protected file', { path: '.vscode/missing.json', content: '', mode: 'replace' }],
    ['a directory outside', { path: '~/.ssh', content: 'x' }],
  ])('write with %s: denied by the gate, saying nothing of the file', (_, input) => {
    const { home, ws } = box();
    const outcome = peonTool('write', ws, input, [], { env: { HOME: home } });
    expect(outcome.permission, JSON.stringify(outcome)).toMatchObject({ decision: 'ask', answer: 'denied' });
    expect(JSON.stringify(outcome)).not.toMatch(new RegExp(`${sha('SECRET=1\n')}|already exists|does not exist|directory|stale`));
    expect(fs.readFileSync(path.join(ws, '.env'), 'utf8')).toBe('SECRET=1\n');
  });

  test('approved, the same write gets its typed error (stale, with the current hash)', () => {
    const { home, ws } = box();
    const outcome = peonTool('write', ws, { path: '.env', content: '', expected_sha256: '0'.repeat(64) }, ['--approve', 'all'], { env: { HOME: home } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'stale', details: { currentSha256: sha('SECRET=1\n') } } });
    expect(fs.readFileSync(path.join(ws, '.env'), 'utf8')).toBe('SECRET=1\n');
  });

  test('an ordinary workspace file still fails before it is put to the user', () => {
    const { home, ws } = box();
    expect(peonTool('write', ws, { path: 'README.md', content: '', mode: 'create' }, [], { env: { HOME: home } })).toMatchObject({ ok: false, error: { code: 'already_exists' }, permission: null });
  });

  test.each([
    ['~/.ssh/missing', 'does not exist'],
    ['~/.ssh', 'directory'],
    ['.env.missing', 'does not exist'],
  ])('delete %s: denied by the gate, without saying whether it exists or what it is', (target, leak) => {
    const { home, ws } = box();
    const outcome = peonTool('delete', ws, { path: target }, [], { env: { HOME: home } });
    expect(outcome.permission, JSON.stringify(outcome)).toMatchObject({ decision: 'ask', answer: 'denied' });
    expect(JSON.stringify(outcome)).not.toContain(leak);
    expect(fs.existsSync(path.join(home, '.ssh/id_ed25519'))).toBe(true);
  });
});
