import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { denyAll, makeContext, makeSession, makeWorkspace, tempDir } from './toolTestContext';
import { CallPipeline } from '../../../src/core/conversation/pipeline';
import { builtinRegistry } from '../../../src/core/tools/builtins';
import { freeNameBeside } from '../../../src/core/workspace/trash';

describe('delete', () => {
  test('deletes a file and keeps it restorable in the trash, mode included', async () => {
    const root = makeWorkspace({ 'a/run.sh': '#!/bin/sh\n' });
    fs.chmodSync(path.join(root, 'a/run.sh'), 0o750);
    const ctx = makeContext(root);
    const s = new CallPipeline(builtinRegistry(), ctx, async () => ({ approved: true }));
    const r = await s.call('delete', { path: 'a/run.sh' });
    expect(r).toMatchObject({ ok: true, risk: 'filesystem', permission: { decision: 'ask' } });
    expect(fs.existsSync(path.join(root, 'a/run.sh'))).toBe(false);
    const [entry] = await ctx.trash.list();
    expect(entry).toMatchObject({ originalPath: path.join(root, 'a/run.sh'), size: 10, mode: 0o750 });
    await ctx.trash.restore(entry!.id);
    expect(fs.readFileSync(path.join(root, 'a/run.sh'), 'utf8')).toBe('#!/bin/sh\n');
    expect(fs.statSync(path.join(root, 'a/run.sh')).mode & 0o7777).toBe(0o750);
    expect(await ctx.trash.list()).toEqual([]);
  });

  test('restore refuses to overwrite a file that exists again', async () => {
    const root = makeWorkspace({ 'a.txt': 'v1' });
    const ctx = makeContext(root);
    await new CallPipeline(builtinRegistry(), ctx, async () => ({ approved: true })).call('delete', { path: 'a.txt' });
    fs.writeFileSync(path.join(root, 'a.txt'), 'v2');
    const [entry] = await ctx.trash.list();
    await expect(ctx.trash.restore(entry!.id)).rejects.toMatchObject({ code: 'already_exists' });
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('v2');
    // It can come back beside it instead, under a free name; never over a file.
    const beside = await freeNameBeside(path.join(root, 'a.txt'));
    expect(beside).toBe(path.join(root, 'a (restored).txt'));
    fs.writeFileSync(beside, 'taken');
    expect(await freeNameBeside(path.join(root, 'a.txt'))).toBe(path.join(root, 'a (restored 2).txt'));
    await expect(ctx.trash.restore(entry!.id, beside)).rejects.toMatchObject({ code: 'already_exists' });
    expect(await ctx.trash.get(entry!.id)).toMatchObject({ originalPath: path.join(root, 'a.txt') });
    await ctx.trash.restore(entry!.id, path.join(root, 'a (restored 2).txt'));
    expect(fs.readFileSync(path.join(root, 'a (restored 2).txt'), 'utf8')).toBe('v1');
    expect(fs.readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('v2');
    expect(await ctx.trash.get(entry!.id)).toBeUndefined();
  });

  test('a denied delete keeps the file', async () => {
    const root = makeWorkspace({ 'a.txt': 'x' });
    expect(await makeSession(root, denyAll).call('delete', { path: 'a.txt' })).toMatchObject({ ok: false, error: { code: 'permission_denied' } });
    expect(fs.existsSync(path.join(root, 'a.txt'))).toBe(true);
  });

  test('directories are refused: the workspace root, .git, any folder', async () => {
    const root = makeWorkspace({ 'dir/a.txt': 'x', '.git/HEAD': 'ref: refs/heads/main\n' });
    const s = makeSession(root);
    for (const p of ['.', '', 'dir', '.git', root]) {
      expect(await s.call('delete', { path: p }), p).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    expect(fs.existsSync(path.join(root, '.git/HEAD'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'dir/a.txt'))).toBe(true);
  });

  test('a symlink pointing outside: only the link is removed (and restorable); the target stays', async () => {
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'keep.txt'), 'precious');
    const root = makeWorkspace();
    fs.symlinkSync(path.join(outside, 'keep.txt'), path.join(root, 'link.txt'));
    const ctx = makeContext(root);
    const s = new CallPipeline(builtinRegistry(), ctx, async () => ({ approved: true }));
    const r = await s.call('delete', { path: 'link.txt' });
    expect(r).toMatchObject({ ok: true, data: { link: true } });
    expect(fs.existsSync(path.join(root, 'link.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('precious');
    const [entry] = await ctx.trash.list();
    await ctx.trash.restore(entry!.id);
    expect(fs.readlinkSync(path.join(root, 'link.txt'))).toBe(path.join(outside, 'keep.txt'));
  });

  test('missing file: not_found', async () => {
    const root = makeWorkspace();
    expect(await makeSession(root).call('delete', { path: 'nope.txt' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
