import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ToolContext } from '../../../src/core/tools/contract';
import { locateRipgrep } from '../../../src/core/search/ripgrep';
import { grepTool } from '../../../src/core/tools/grep';
import { ToolError } from '../../../src/core/tools/toolError';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { CallPipeline } from '../../../src/core/conversation/pipeline';
import { type Approver } from '../../../src/core/permissions/approvals';
import { approveAll, makeContext, makeWorkspace, tempDir } from './toolTestContext';

const RG = locateRipgrep();
const RIPGREPS = [RG, fs.existsSync('/usr/bin/rg') ? '/usr/bin/rg' : undefined].filter((r): r is string => r !== undefined);

const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('foo in utf-16\nplain\n', 'utf16le')]);
const FIXTURE: Record<string, string | Buffer> = {
  '.gitignore': '*.log\nnested/skip/\n',
  '.peonignore': 'private/\n',
  'src/a.ts': 'const foo = 1;\nfunction Foo() {}\n// foo again\n',
  'src/b.tsx': 'export const x = foo;\n',
  'src/c.go': 'package main\nfunc foo() {}\nvar n = 42\n',
  'docs/readme.md': 'foo in docs\nnothing\n',
  'ignored.log': 'foo in an ignored file\n',
  'private/p.txt': 'foo in a peonignored file\n',
  'nested/.gitignore': '*.gen\n',
  'nested/x.gen': 'foo generated\n',
  'nested/y.txt': 'foo nested\n',
  'nested/skip/z.txt': 'foo skipped\n',
  'bin.dat': Buffer.from('foo\0binary\nfoo\n'),
  // A NUL after the first 64 KiB: binary once read that far (as with ripgrep, a search that stops earlier never sees it).
  'late-binary.dat': Buffer.concat([Buffer.from(`foo early\n${'filler\n'.repeat(12_000)}`), Buffer.from('\0\nfoo late\n')]),
  'latin1.txt': Buffer.from('caf\xe9 foo r\xe9sum\xe9\n', 'latin1'),
  'utf8.txt': 'naïve café foo ✓ 😀\nκόσμος foo\n٣ digits\n',
  'utf16.txt': utf16,
  'bom.txt': '\ufefffoo after a BOM\n',
  'crlf.txt': 'foo\r\nbar foo\r\n',
  'nolf.txt': 'last foo',
  'cr-end.txt': 'foo then a CR\r',
  'long.txt': `${'x'.repeat(5000)}foo${'y'.repeat(100)}\n`,
  '.hidden/h.txt': 'foo hidden\n',
  'a b/space file.txt': 'foo with spaces\n',
};

/** A session with grep registered (whatever builtins.ts holds), through validation, the gate and execution. */
function makeSession(root: string, approver: Approver, overrides: Partial<ToolContext>): CallPipeline {
  const registry = new ToolRegistry();
  registry.register(grepTool);
  return new CallPipeline(registry, makeContext(root, overrides), approver);
}

async function grep(root: string, input: Record<string, unknown>, ripgrep?: string, overrides: Partial<ToolContext> = {}) {
  const ctx = makeContext(root, { ripgrep, ...overrides });
  const parsed = grepTool.parse(input);
  return grepTool.execute(parsed, ctx, await grepTool.assess(parsed, ctx));
}

/** Runs the call with every backend, checks they agree, and returns the Node result. */
async function grepAll(root: string, input: Record<string, unknown>, overrides: Partial<ToolContext> = {}) {
  const viaNode = await grep(root, input, undefined, overrides);
  expect(viaNode.data).toMatchObject({ backend: 'node' });
  for (const rg of RIPGREPS) {
    const viaRg = await grep(root, input, rg, overrides);
    expect(viaRg.output, `${rg} ${JSON.stringify(input)}`).toBe(viaNode.output);
    const { backend, stoppedEarly: _a, ...rest } = viaRg.data!;
    const { backend: _b, stoppedEarly: _c, ...expected } = viaNode.data!;
    expect(backend).toBe('ripgrep');
    expect(rest).toEqual(expected);
  }
  return viaNode;
}

describe('grep: both backends, same answers', () => {
  test.skipIf(RIPGREPS.length === 0)('content mode', async () => {
    const root = makeWorkspace(FIXTURE);
    const result = await grepAll(root, { pattern: 'foo' });
    expect(result.output.split('\n')).toEqual([
      '.hidden/h.txt:1:foo hidden',
      'a b/space file.txt:1:foo with spaces',
      'bom.txt:1:foo after a BOM',
      'cr-end.txt:1:foo then a CR',
      'crlf.txt:1:foo',
      'crlf.txt:2:bar foo',
      'docs/readme.md:1:foo in docs',
      'latin1.txt:1:caf\ufffd foo r\ufffdsum\ufffd',
      `long.txt:1:${'x'.repeat(2000)} … [line cut: 3103 more characters]`,
      'nested/y.txt:1:foo nested',
      'nolf.txt:1:last foo',
      'src/a.ts:1:const foo = 1;',
      'src/a.ts:3:// foo again',
      'src/b.tsx:1:export const x = foo;',
      'src/c.go:2:func foo() {}',
      'utf16.txt:1:foo in utf-16',
      'utf8.txt:1:naïve café foo ✓ 😀',
      'utf8.txt:2:κόσμος foo',
    ]);
    expect(result.data).toEqual({ mode: 'content', matches: 18, files: 15, truncated: false, backend: 'node', headLimit: 100, stoppedEarly: false, secretLikeLeftOut: 0, protectedLeftOut: 0 });
  });

  test.skipIf(RIPGREPS.length === 0)('files_with_matches and count modes', async () => {
    const root = makeWorkspace(FIXTURE);
    const files = await grepAll(root, { pattern: 'foo', mode: 'files_with_matches' });
    expect(files.output.split('\n')).toContain('src/a.ts');
    // late-binary.dat is listed: the first match comes before its NUL, and the search stops there (as rg -l does).
    expect(files.output.split('\n')).toHaveLength(16);
    expect(files.data).toMatchObject({ mode: 'files_with_matches', matches: 16, files: 16 });
    const count = await grepAll(root, { pattern: 'foo', mode: 'count' });
    expect(count.output.split('\n')).toContain('src/a.ts:2');
    expect(count.output.split('\n')).toContain('crlf.txt:2');
    expect(count.data).toMatchObject({ mode: 'count', matches: 18, files: 15 });
  });

  test.skipIf(RIPGREPS.length === 0).each([
    ['(?i)^FUNC', ['src/a.ts:2:function Foo() {}', 'src/c.go:2:func foo() {}']],
    ['(?P<name>fo)o\\(', ['src/c.go:2:func foo() {}']],
    ['[[:digit:]]{2}', ['src/c.go:3:var n = 42', 'utf16.txt:1:foo in utf-16']],
    ['\\d', ['src/a.ts:1:const foo = 1;', 'src/c.go:3:var n = 42', 'utf16.txt:1:foo in utf-16', 'utf8.txt:3:٣ digits']],
    ['foo\\z', ['nolf.txt:1:last foo', 'utf8.txt:2:κόσμος foo']], // not crlf.txt: 'foo\r' ends in \r (lines end at \n only, as in rg)
    ['\\Afoo', ['.hidden/h.txt:1:foo hidden', 'a b/space file.txt:1:foo with spaces', 'bom.txt:1:foo after a BOM', 'cr-end.txt:1:foo then a CR', 'crlf.txt:1:foo', 'docs/readme.md:1:foo in docs', 'nested/y.txt:1:foo nested', 'utf16.txt:1:foo in utf-16']],
    ['\\bκόσμος\\b', ['utf8.txt:2:κόσμος foo']],
    ['caf.', ['utf8.txt:1:naïve café foo ✓ 😀']], // '.' never matches a byte that is not UTF-8, as in rg
    ['r.sum|foo r', ['latin1.txt:1:caf\ufffd foo r\ufffdsum\ufffd']],
    ['\\Q(\\E', ['src/a.ts:2:function Foo() {}', 'src/c.go:2:func foo() {}']],
  ])('Go syntax %s', async (pattern, expected) => {
    const root = makeWorkspace(FIXTURE);
    const result = await grepAll(root, { pattern });
    expect(result.output.split('\n')).toEqual(expected);
  });
});

describe('grep: include, binary files, limits', () => {
  test.skipIf(RIPGREPS.length === 0)('include globs with brace sets, anchored globs and exclusions', async () => {
    const root = makeWorkspace(FIXTURE);
    const files = async (include: string[]) => (await grepAll(root, { pattern: 'foo', mode: 'files_with_matches', include })).output.split('\n');
    expect(await files(['*.{ts,tsx}'])).toEqual(['src/a.ts', 'src/b.tsx']);
    expect(await files(['*.go', '*.md'])).toEqual(['docs/readme.md', 'src/c.go']);
    expect(await files(['src/*.ts'])).toEqual(['src/a.ts']);
    expect(await files(['/*.txt'])).toEqual(['bom.txt', 'cr-end.txt', 'crlf.txt', 'latin1.txt', 'long.txt', 'nolf.txt', 'utf16.txt', 'utf8.txt']);
    expect(await files(['src/**', '!*.tsx'])).toEqual(['src/a.ts', 'src/c.go']);
    expect(await files(['*.rs'])).toEqual(['No matches for foo in . (include *.rs).']);
  });

  test.skipIf(RIPGREPS.length === 0)('binary files are skipped, whether the NUL comes first or after the first 64 KiB', async () => {
    const root = makeWorkspace(FIXTURE);
    for (const mode of ['content', 'count']) {
      const result = await grepAll(root, { pattern: 'foo|binary', mode, headLimit: 0 });
      expect(result.output).not.toMatch(/bin\.dat|late-binary/);
    }
    // files_with_matches stops at the first match, before the late NUL: listed, as ripgrep does.
    const listed = await grepAll(root, { pattern: 'foo|binary', mode: 'files_with_matches' });
    expect(listed.output.split('\n')).toContain('late-binary.dat');
    expect(listed.output.split('\n')).not.toContain('bin.dat');
    const one = await grepAll(root, { pattern: 'foo', path: 'bin.dat' });
    expect(one.output).toBe('No matches for foo in bin.dat.');
  });

  test.skipIf(RIPGREPS.length === 0)('headLimit keeps the first results in path order, the same in both backends', async () => {
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`d${i % 3}/f${String(i).padStart(2, '0')}.txt`, 'hit\n'.repeat(10)]));
    const root = makeWorkspace(files);
    const content = await grepAll(root, { pattern: 'hit', headLimit: 25 });
    const lines = content.output.split('\n\n')[0]!.split('\n');
    expect(lines).toHaveLength(25);
    expect(lines[0]).toBe('d0/f00.txt:1:hit');
    expect(lines[24]).toBe('d0/f06.txt:5:hit');
    expect(content.output).toMatch(/\[Truncated at headLimit 25: showing the first 25 matching lines in path order/);
    expect(content.data).toMatchObject({ truncated: true, matches: 25, files: 3 });
    const count = await grepAll(root, { pattern: 'hit', mode: 'count', headLimit: 4 });
    expect(count.output.split('\n\n')[0]).toBe('d0/f00.txt:10\nd0/f03.txt:10\nd0/f06.txt:10\nd0/f09.txt:10');
    const listed = await grepAll(root, { pattern: 'hit', mode: 'files_with_matches', head_limit: 2 });
    expect(listed.output.split('\n\n')[0]).toBe('d0/f00.txt\nd0/f03.txt');
    const all = await grepAll(root, { pattern: 'hit', mode: 'count', headLimit: 0 });
    expect(all.data).toMatchObject({ truncated: false, files: 30, matches: 300 });
  });

  test.skipIf(!RG || process.platform !== 'linux')('200k hits: rg stops early, is killed and gone, and the result says truncated', async () => {
    const root = makeWorkspace({ 'big.txt': 'match this line\n'.repeat(200_000), 'small.txt': 'match\n' });
    const result = await grep(root, { pattern: 'match' }, RG);
    expect(result.data).toMatchObject({ truncated: true, stoppedEarly: true, matches: 100, backend: 'ripgrep' });
    expect(result.output.split('\n')[99]).toBe('big.txt:100:match this line');
    const running = fs.readdirSync('/proc').filter((pid) => {
      try {
        return /^\d+$/.test(pid) && fs.readlinkSync(`/proc/${pid}/cwd`) === root;
      } catch {
        return false;
      }
    });
    expect(running).toEqual([]);
    expect((await grep(root, { pattern: 'match' })).output).toBe(result.output);
  });

  test('the output is capped at the output limit, with truncation metadata', async () => {
    const root = makeWorkspace({ 'a.txt': 'some matching text\n'.repeat(500) });
    const limits = { maxOutputChars: 1000, maxReadBytes: 1024 };
    for (const ripgrep of [undefined, RG]) {
      const result = await grep(root, { pattern: 'matching', headLimit: 0 }, ripgrep, { limits });
      expect(result.output.length).toBeLessThanOrEqual(1000);
      expect(result.output).toMatch(/\[Truncated at the output limit of 1000 characters/);
      expect(result.data).toMatchObject({ truncated: true });
    }
  });
});

describe('grep: input, errors and assessment', () => {
  /** A stand-in ripgrep that records that it ran, prints `stderr` and exits with `code`. */
  function fakeRipgrep(stderr: string, code: number): { rg: string; ran: () => boolean } {
    const dir = tempDir();
    const rg = path.join(dir, 'rg');
    fs.writeFileSync(rg, `#!/bin/sh\ntouch "${dir}/ran"\necho '${stderr}' >&2\nexit ${code}\n`, { mode: 0o755 });
    return { rg, ran: () => fs.existsSync(path.join(dir, 'ran')) };
  }

  test.each([
    ['(a)\\1', /backreference/],
    ['foo(?=bar)', /lookahead/],
    ['(?<!x)foo', /lookbehind/],
    ['a++', /Possessive/],
    ['(?U)a', /ungreedy/],
  ])('%s is invalid_input before anything runs', async (pattern, message) => {
    const { rg, ran } = fakeRipgrep('', 0);
    const session = makeSession(makeWorkspace({ 'a.txt': 'aa\n' }), approveAll, { ripgrep: rg });
    const outcome = await session.call('grep', { pattern });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    if (!outcome.ok) expect(outcome.error.message).toMatch(message);
    expect(ran()).toBe(false);
  });

  test.each([
    [{}, /pattern/],
    [{ pattern: '' }, /pattern/],
    [{ pattern: 'a', include: '*.ts' }, /include/],
    [{ pattern: 'a', include: ['../*.ts'] }, /include.*"\.\."/],
    [{ pattern: 'a', mode: 'lines' }, /mode/],
    [{ pattern: 'a', headLimit: -1 }, /headLimit/],
    [{ pattern: 'a', headLimit: 1.5 }, /headLimit/],
    [{ pattern: 'a', context: 2 }, /unknown parameter\(s\): context/],
    [{ pattern: 'a', headLimit: 1, head_limit: 2 }, /either headLimit or head_limit/],
  ])('invalid input %j', (input, message) => {
    expect(() => grepTool.parse(input)).toThrow(ToolError);
    expect(() => grepTool.parse(input)).toThrow(message);
  });

  test('aliases: head_limit and output_mode', () => {
    expect(grepTool.parse({ pattern: 'a', head_limit: 3, output_mode: 'count' })).toEqual({ pattern: 'a', headLimit: 3, mode: 'count' });
  });

  test('ripgrep exit 2 is an error carrying its stderr; a regex error is invalid_input', async () => {
    const root = makeWorkspace({ 'a.txt': 'x\n' });
    const io = fakeRipgrep('rg: ./a.txt: Input/output error (os error 5)', 2);
    await expect(grep(root, { pattern: 'x' }, io.rg)).rejects.toMatchObject({ code: 'io_error', message: /exit 2.*Input\/output error/ });
    const regex = fakeRipgrep('rg: regex parse error: compiled regex exceeds size limit', 2);
    await expect(grep(root, { pattern: 'x' }, regex.rg)).rejects.toMatchObject({ code: 'invalid_input' });
    const none = fakeRipgrep('', 1);
    expect((await grep(root, { pattern: 'x' }, none.rg)).output).toBe('No matches for x in ..');
  });

  test('a missing ripgrep binary is `unavailable`', async () => {
    await expect(grep(makeWorkspace({ 'a.txt': 'x\n' }), { pattern: 'x' }, path.join(tempDir(), 'rg'))).rejects.toMatchObject({ code: 'unavailable' });
  });

  test('cancelled: an aborted signal stops both backends', async () => {
    const root = makeWorkspace({ 'a.txt': 'x\n' });
    const controller = new AbortController();
    controller.abort();
    for (const ripgrep of [undefined, RG]) {
      await expect(grep(root, { pattern: 'x' }, ripgrep, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    }
  });

  test('path: a directory, one file (even an ignored one, named on purpose), or not_found', async () => {
    const root = makeWorkspace(FIXTURE);
    for (const ripgrep of [undefined, RG]) {
      expect((await grep(root, { pattern: 'foo', path: 'src' }, ripgrep)).output.split('\n')).toHaveLength(4);
      expect((await grep(root, { pattern: 'foo', path: 'src/a.ts' }, ripgrep)).output).toBe('src/a.ts:1:const foo = 1;\nsrc/a.ts:3:// foo again');
      expect((await grep(root, { pattern: 'foo', path: 'src/a.ts', include: ['*.go'] }, ripgrep)).output).toMatch(/^No matches/);
      expect((await grep(root, { pattern: 'foo', path: 'ignored.log' }, ripgrep)).output).toBe('ignored.log:1:foo in an ignored file');
      expect((await grep(root, { pattern: 'foo', path: 'nested/skip' }, ripgrep)).output).toBe('nested/skip/z.txt:1:foo skipped');
      await expect(grep(root, { pattern: 'foo', path: 'nope' }, ripgrep)).rejects.toMatchObject({ code: 'not_found' });
    }
  });

  test('assessment: read_only inside; the gate asks for ignored, secret-like and outside paths', async () => {
    const root = makeWorkspace({ ...FIXTURE, '.env': 'TOKEN=1\n' });
    const ctx = makeContext(root);
    const assess = (input: Record<string, unknown>) => grepTool.assess(grepTool.parse(input), ctx);
    expect(await assess({ pattern: 'x', path: 'src' })).toMatchObject({ risk: 'read_only', writes: false, summary: { kind: 'file-access', path: 'src', reasons: [] } });
    expect((await assess({ pattern: 'x', path: 'ignored.log' })).summary).toMatchObject({ reasons: ['ignored by .gitignore or .peonignore'] });
    expect(await assess({ pattern: 'x', path: '.env' })).toMatchObject({ risk: 'filesystem' });
    const outside = tempDir('peon-outside-');
    fs.writeFileSync(path.join(outside, 'o.txt'), 'foo outside\n');
    const asked: string[] = [];
    const session = makeSession(root, async (request) => {
      asked.push(...request.permission.reasons);
      return { approved: true };
    }, { ripgrep: RG });
    const outcome = await session.call('grep', { pattern: 'foo', path: outside });
    expect(asked).toEqual([`${outside} is outside the workspace`]);
    expect(outcome).toMatchObject({ ok: true, output: `${path.join(outside, 'o.txt')}:1:foo outside` });
  });
});
