import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { locateRipgrep, RipgrepProcess } from '../../../src/core/search/ripgrep';
import { ToolError } from '../../../src/core/tools/toolError';
import { tempDir } from '../tools/toolTestContext';

const PLATFORM_PACKAGE = `@vscode/ripgrep-${process.platform}-${process.arch}`;

function executable(file: string, mode = 0o755): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode });
  fs.chmodSync(file, mode);
  return file;
}

/** A place node_modules resolution finds nothing from. */
const nowhere = (): string => path.join(tempDir(), 'index.js');

const alive = (pid: number | undefined): boolean => {
  try {
    process.kill(pid!, 0);
    return true;
  } catch {
    return false;
  }
};

describe('locateRipgrep', () => {
  test('a bundled candidate wins over everything else; missing or non-executable ones are skipped', () => {
    const dir = tempDir();
    const bundled = executable(path.join(dir, 'dist', 'bin', 'rg'));
    const notExecutable = executable(path.join(dir, 'other', 'rg'), 0o644);
    expect(locateRipgrep({ bundled: [path.join(dir, 'missing', 'rg'), notExecutable, bundled] })).toBe(bundled);
    expect(locateRipgrep({ bundled: [path.join(dir, 'dist')] })).not.toBe(path.join(dir, 'dist')); // a directory is not a binary
  });

  test('then the @vscode/ripgrep platform package from node_modules', () => {
    const found = locateRipgrep({ bundled: [], env: { PATH: '' } });
    expect(found).toBe(path.resolve('node_modules', PLATFORM_PACKAGE, 'bin', 'rg'));
    const other = tempDir();
    fs.mkdirSync(path.join(other, 'node_modules', PLATFORM_PACKAGE), { recursive: true });
    fs.writeFileSync(path.join(other, 'node_modules', PLATFORM_PACKAGE, 'package.json'), '{"name":"x"}');
    const rg = executable(path.join(other, 'node_modules', PLATFORM_PACKAGE, 'bin', 'rg'));
    expect(locateRipgrep({ resolveFrom: path.join(other, 'src', 'x.js'), env: { PATH: '' } })).toBe(rg);
  });

  test("then VS Code's own copy under appRoot, in both layouts", () => {
    const appRoot = tempDir();
    const unpacked = executable(path.join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', 'rg'));
    expect(locateRipgrep({ resolveFrom: nowhere(), appRoot, env: { PATH: '' } })).toBe(unpacked);
    const plain = executable(path.join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'));
    expect(locateRipgrep({ resolveFrom: nowhere(), appRoot, env: { PATH: '' } })).toBe(plain);
  });

  test('then rg on PATH, and undefined when there is none', () => {
    const bin = tempDir();
    const rg = executable(path.join(bin, 'rg'));
    const empty = tempDir();
    expect(locateRipgrep({ resolveFrom: nowhere(), env: { PATH: [empty, bin].join(path.delimiter) } })).toBe(rg);
    expect(locateRipgrep({ resolveFrom: nowhere(), appRoot: empty, env: { PATH: empty } })).toBeUndefined();
    expect(locateRipgrep({ resolveFrom: nowhere(), env: {} })).toBeUndefined();
  });
});

describe('RipgrepProcess', () => {
  const rg = locateRipgrep()!;
  const bigDir = (): string => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'big.txt'), 'match me\n'.repeat(300_000));
    return dir;
  };

  test('leaving records() early kills rg and waits for it', async () => {
    const proc = new RipgrepProcess(rg, ['--no-config', '-n', 'match', '.'], bigDir(), new AbortController().signal);
    let seen = 0;
    for await (const record of proc.records(0x0a)) {
      expect(record.toString()).toMatch(/match me/);
      if (++seen === 3) break;
    }
    expect(alive(proc.pid)).toBe(false);
    expect((await proc.exit()).stoppedEarly).toBe(true);
  });

  test('aborting kills rg and rejects with the abort reason', async () => {
    const controller = new AbortController();
    const proc = new RipgrepProcess(rg, ['--no-config', '-n', 'match', '.'], bigDir(), controller.signal);
    const read = (async () => {
      for await (const _record of proc.records(0x0a)) controller.abort();
    })();
    await expect(read).rejects.toMatchObject({ name: 'AbortError' });
    expect(alive(proc.pid)).toBe(false);
  });

  test('records split across chunks and a last record without delimiter come out whole', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'a.txt'), `${'x'.repeat(200_000)}\nshort\n`);
    const proc = new RipgrepProcess(rg, ['--no-config', '--no-filename', '-e', 'x|short', 'a.txt'], dir, new AbortController().signal);
    const records: string[] = [];
    for await (const record of proc.records(0x0a)) records.push(record.toString());
    expect(records.map((r) => r.length)).toEqual([200_000, 5]);
    expect(await proc.exit()).toMatchObject({ code: 0, stoppedEarly: false });
  });

  test('a binary that cannot start is `unavailable`', async () => {
    const proc = new RipgrepProcess(path.join(tempDir(), 'no-rg'), ['x'], tempDir(), new AbortController().signal);
    for await (const _record of proc.records(0x0a)) throw new Error('no output expected');
    const error = await proc.exit().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('unavailable');
  });
});
