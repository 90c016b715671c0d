import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { denyAll, makeSession, makeWorkspace, tempDir } from './toolTestContext';

const hash = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('read, line mode', () => {
  test('numbers lines and reports the whole file in its metadata', async () => {
    const text = 'one\ntwo\nthree\n';
    const root = makeWorkspace({ 'a.txt': text });
    const r = await makeSession(root).call('read', { path: 'a.txt' });
    expect(r).toMatchObject({ ok: true, risk: 'read_only', permission: { decision: 'allow', mode: 'semi-ask' } });
    if (!r.ok) return;
    expect(r.output).toBe('1\tone\n2\ttwo\n3\tthree');
    expect(r.data).toEqual({ path: 'a.txt', sha256: hash(text), size: 14, lines: 3, unit: 'lines', range: { from: 1, to: 3 }, truncated: false });
  });

  test('offset (1-indexed, 0 counts as 1) and limit select lines; the rest is announced', async () => {
    const text = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
    const root = makeWorkspace({ 'a.txt': text });
    const s = makeSession(root);
    const r = await s.call('read', { path: 'a.txt', offset: 10, limit: 2 });
    expect(r.ok && r.output).toBe('10\tline 10\n11\tline 11\n(lines 10-11 of 12; read again with offset 12 for more)');
    expect(r.ok && r.data).toMatchObject({ lines: 12, range: { from: 10, to: 11 }, truncated: true });
    const zero = await s.call('read', { path: 'a.txt', offset: 0, limit: 1 });
    expect(zero.ok && zero.output.split('\n')[0]).toBe('1\tline 1');
    const past = await s.call('read', { path: 'a.txt', offset: 50 });
    expect(past.ok && past.output).toBe('(the file has 12 lines; offset 50 is past the end)');
  });

  test('a last line without a newline counts; CRLF is shown without the CR; an empty file says so', async () => {
    const root = makeWorkspace({ 'crlf.txt': 'a\r\nb', 'empty.txt': '' });
    const s = makeSession(root);
    const r = await s.call('read', { path: 'crlf.txt' });
    expect(r.ok && r.output).toBe('1\ta\n2\tb');
    expect(r.ok && r.data.lines).toBe(2);
    const e = await s.call('read', { path: 'empty.txt' });
    expect(e.ok && e.output).toBe('(empty file)');
    expect(e.ok && e.data).toMatchObject({ lines: 0, size: 0, range: null });
  });

  test('very long lines are cut with a marker', async () => {
    const root = makeWorkspace({ 'long.txt': `${'x'.repeat(5000)}\nshort\n` });
    const r = await makeSession(root).call('read', { path: 'long.txt' });
    expect(r.ok && r.output).toContain(`1\t${'x'.repeat(2000)}… [line cut: 5000 characters]\n2\tshort`);
    expect(r.ok && r.data.truncated).toBe(true);
  });

  test('multi-byte text is intact; Latin-1 bytes are shown as U+FFFD and flagged', async () => {
    const root = makeWorkspace({ 'u.txt': 'naïve café — 東京 ✓\n', 'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    const s = makeSession(root);
    const u = await s.call('read', { path: 'u.txt' });
    expect(u.ok && u.output).toBe('1\tnaïve café — 東京 ✓');
    const l = await s.call('read', { path: 'latin1.txt' });
    expect(l.ok && l.output).toContain('1\tcaf\uFFFD');
    expect(l.ok && l.output).toContain('not valid UTF-8');
    expect(l.ok && l.data.utf8).toBe(false);
  });
});

describe('read, byte mode', () => {
  test('returns a byte range as text', async () => {
    const root = makeWorkspace({ 'a.txt': 'hello, world\n' });
    const r = await makeSession(root).call('read', { path: 'a.txt', unit: 'bytes', offset: 7, limit: 5 });
    expect(r.ok && r.output).toBe('world\n(bytes 7-12 of 13; read again with offset 12 for more)');
    expect(r.ok && r.data).toMatchObject({ unit: 'bytes', range: { from: 7, to: 12 }, truncated: true, size: 13 });
  });

  test('a range that splits a UTF-8 character is not_utf8, with its offsets', async () => {
    const root = makeWorkspace({ 'a.txt': 'é' });
    const r = await makeSession(root).call('read', { path: 'a.txt', unit: 'bytes', offset: 0, limit: 1 });
    expect(r).toMatchObject({ ok: false, error: { code: 'not_utf8', details: { offset: 0, length: 1 } } });
  });

  test('a limit above the configured maximum is lowered, and the result says so', async () => {
    const root = makeWorkspace({ 'a.txt': 'abcdef' });
    const r = await makeSession(root, undefined, { limits: { maxOutputChars: 100_000, maxReadBytes: 4 } }).call('read', { path: 'a.txt', unit: 'bytes', limit: 100 });
    expect(r.ok && r.output).toBe('abcd\n(limit lowered from 100 to the maximum of 4 bytes)\n(bytes 0-4 of 6; read again with offset 4 for more)');
  });
});

describe('read, binary files', () => {
  test.each([
    ['image.png', PNG, 'PNG image'],
    ['blob.dat', Buffer.from([0x41, 0x00, 0x42]), 'binary data'],
  ])('%s returns a note with size and type, never its bytes', async (name, bytes, kind) => {
    const root = makeWorkspace({ [name]: bytes });
    const r = await makeSession(root).call('read', { path: name });
    expect(r.ok && r.output).toBe(`${name} is a binary file (${kind}, ${bytes.length} bytes); its contents are not shown.`);
    expect(r.ok && r.data).toMatchObject({ binary: kind, size: bytes.length, sha256: hash(bytes) });
  });
});

describe('read, errors and paths', () => {
  test.each([
    [{ path: 'missing.txt' }, 'not_found'],
    [{ path: 'dir' }, 'invalid_input'],
    [{ path: 42 }, 'invalid_input'],
    [{ path: ['a.txt'] }, 'invalid_input'],
    [{ path: 'a.txt\u0000.png' }, 'invalid_input'],
    [{ path: 'a.txt', offset: -1 }, 'invalid_input'],
    [{ path: 'a.txt', limit: 0 }, 'invalid_input'],
    [{ path: 'a.txt', unit: 'words' }, 'invalid_input'],
    [{ path: 'a.txt', encoding: 'latin1' }, 'invalid_input'],
    [{}, 'invalid_input'],
  ])('%j -> %s', async (input, code) => {
    const root = makeWorkspace({ 'a.txt': 'x', 'dir/b.txt': 'y' });
    const r = await makeSession(root).call('read', input);
    expect(r).toMatchObject({ ok: false, error: { code } });
  });

  test('a schema error names the parameter, without coercing it', async () => {
    const root = makeWorkspace({ 'a.txt': 'x' });
    const r = await makeSession(root).call('read', { path: 'a.txt', offset: '3' });
    expect(r.ok === false && r.error.message).toBe('Invalid input for read: offset: Invalid input: expected number, received string. Fix the parameters and call again.');
  });

  test('filePath is an alias of path; giving both differently is an error', async () => {
    const root = makeWorkspace({ 'a.txt': 'x', 'b.txt': 'y' });
    const s = makeSession(root);
    expect((await s.call('read', { filePath: 'a.txt' })).ok).toBe(true);
    expect(await s.call('read', { filePath: 'a.txt', path: 'b.txt' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  test.each(['../../etc/passwd', '/etc/hostname'])('%s is outside: it asks, and a denial reads nothing', async (p) => {
    const root = makeWorkspace({ 'a.txt': 'x' });
    const r = await makeSession(root, denyAll).call('read', { path: p });
    expect(r).toMatchObject({ ok: false, error: { code: 'outside_workspace' }, risk: 'filesystem', permission: { decision: 'ask', answer: 'denied' } });
    expect(r.ok === false && r.error.message).toMatch(/is outside the workspace/);
  });

  test('a symlink inside the workspace pointing outside is outside; approved, it reads the target', async () => {
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside\n');
    const root = makeWorkspace();
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    expect(await makeSession(root, denyAll).call('read', { path: 'link.txt' })).toMatchObject({ ok: false, error: { code: 'outside_workspace' } });
    const r = await makeSession(root).call('read', { path: 'link.txt' });
    expect(r).toMatchObject({ ok: true, risk: 'filesystem', permission: { answer: 'approved' } });
    expect(r.ok && r.output).toBe('1\toutside');
  });

  test('/ws-evil is not inside /ws (segments, not string prefixes)', async () => {
    const parent = tempDir();
    fs.mkdirSync(path.join(parent, 'ws'));
    fs.mkdirSync(path.join(parent, 'ws-evil'));
    fs.writeFileSync(path.join(parent, 'ws-evil', 'x.txt'), 'x');
    const r = await makeSession(path.join(parent, 'ws'), denyAll).call('read', { path: path.join(parent, 'ws-evil', 'x.txt') });
    expect(r).toMatchObject({ ok: false, error: { code: 'outside_workspace' } });
  });

  test.each(['.env', '.env.local', 'config/server.pem', 'deploy/id_rsa', 'my_secret.json', '.aws/credentials'])(
    'secret-like %s raises the risk to filesystem and asks',
    async (name) => {
      const root = makeWorkspace({ [name]: 'TOKEN=1\n' });
      const r = await makeSession(root, denyAll).call('read', { path: name });
      expect(r).toMatchObject({ ok: false, risk: 'filesystem', permission: { decision: 'ask' }, error: { code: 'permission_denied' } });
    },
  );

  test('an ignored file asks under semi-ask; read by explicit path it is marked', async () => {
    const root = makeWorkspace({ '.gitignore': 'build/\n', 'build/out.js': 'x\n' });
    expect(await makeSession(root, denyAll).call('read', { path: 'build/out.js' })).toMatchObject({ ok: false, permission: { decision: 'ask' } });
    const r = await makeSession(root).call('read', { path: 'build/out.js' });
    expect(r.ok && r.data.ignored).toBe(true);
    expect(r.ok && r.output).toContain('(this file is ignored by .gitignore or .peonignore)');
  });

  test('~ expands to the home directory', async () => {
    const root = makeWorkspace();
    const r = await makeSession(root, denyAll).call('read', { path: '~/.bashrc-that-does-not-exist' });
    expect(r.ok === false && r.error.message).toContain(path.join(process.env.HOME ?? '', '.bashrc-that-does-not-exist'));
  });
});

test('a 2 GB file is paged: its head comes back without loading it whole', async () => {
  const root = makeWorkspace();
  const file = path.join(root, 'huge.log');
  const fd = fs.openSync(file, 'w');
  // 10,000 text lines (past the 8 KiB binary sniff), then a sparse tail: cheap on disk, 2 GB to read.
  fs.writeSync(fd, Array.from({ length: 10_000 }, (_, i) => `line ${i + 1}\n`).join(''));
  fs.ftruncateSync(fd, 2 * 1024 ** 3);
  fs.closeSync(fd);
  const before = process.memoryUsage().rss;
  const r = await makeSession(root).call('read', { path: 'huge.log', limit: 2 });
  expect(r.ok && r.output).toBe('1\tline 1\n2\tline 2\n(lines 1-2 of 10001; read again with offset 3 for more)');
  expect(r.ok && r.data.size).toBe(2 * 1024 ** 3);
  expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 ** 2);
}, 60_000);

test('memory stays bounded: one 64 MiB line, and a limit of 100 million lines', async () => {
  const root = makeWorkspace();
  const fd = fs.openSync(path.join(root, 'one-line.txt'), 'w');
  const mib = Buffer.alloc(1024 * 1024, 'x');
  for (let i = 0; i < 64; i++) fs.writeSync(fd, mib);
  fs.writeSync(fd, '\nsecond\n');
  fs.closeSync(fd);
  const before = process.memoryUsage().rss;
  const r = await makeSession(root).call('read', { path: 'one-line.txt', limit: 100_000_000 });
  expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024);
  expect(r.ok && r.output).toContain(`1\t${'x'.repeat(2000)}… [line cut: ${64 * 1024 * 1024} bytes]`);
  expect(r.ok && r.output).toContain('2\tsecond');
  expect(r.ok && r.data).toMatchObject({ lines: 2, truncated: true });
}, 60_000);
