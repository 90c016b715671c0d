// The panel names a file; only a file inside a workspace folder is opened (src/extension/workspaceFile.ts).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { workspaceFile, workspaceFolder, workspaceRelative } from '../../../src/extension/workspaceFile';
import { tempDir, writeFiles } from '../tools/toolTestContext';

test('a relative name, a folder-qualified name and an absolute path inside the workspace are files of it', () => {
  const a = fs.realpathSync(tempDir('peon-open-a-'));
  const b = fs.realpathSync(tempDir('peon-open-b-'));
  writeFiles(a, { 'src/index.js': 'x', 'README.md': 'r' });
  writeFiles(b, { 'lib/util.js': 'u' });
  const folders = [{ name: 'app', root: a }, { name: 'shared', root: b }];
  expect(workspaceFile('src/index.js', folders)).toBe(path.join(a, 'src/index.js'));
  expect(workspaceFile('shared/lib/util.js', folders)).toBe(path.join(b, 'lib/util.js'));
  expect(workspaceFile(path.join(b, 'lib/util.js'), folders)).toBe(path.join(b, 'lib/util.js'));
});

test('outside, through a link that leads out, a folder, a missing file or a NUL: not a workspace file', () => {
  const ws = fs.realpathSync(tempDir('peon-open-ws-'));
  const outside = fs.realpathSync(tempDir('peon-open-out-'));
  writeFiles(outside, { 'secret.txt': 's' });
  writeFiles(ws, { 'dir/a.txt': 'a' });
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'link.txt'));
  const folders = [{ name: 'ws', root: ws }];
  expect(workspaceFile(path.join(outside, 'secret.txt'), folders)).toBeUndefined();
  expect(workspaceFile('../' + path.basename(outside) + '/secret.txt', folders)).toBeUndefined();
  expect(workspaceFile('link.txt', folders)).toBeUndefined();
  expect(workspaceFile('dir', folders)).toBeUndefined();
  expect(workspaceFile('missing.txt', folders)).toBeUndefined();
  expect(workspaceFile('dir/a.txt\0', folders)).toBeUndefined();
  expect(workspaceFile('dir/a.txt', [])).toBeUndefined();
});

test('a folder of the workspace (a workspace folder itself too) and how the panel names a path', () => {
  const a = fs.realpathSync(tempDir('peon-open-a-'));
  const b = fs.realpathSync(tempDir('peon-open-b-'));
  writeFiles(a, { 'src/index.js': 'x' });
  writeFiles(b, { 'lib/util.js': 'u' });
  const one = [{ name: 'app', root: a }];
  expect(workspaceFolder('src/', one)).toBe(path.join(a, 'src'));
  expect(workspaceFolder('.', one)).toBe(a);
  expect(workspaceFolder('src/index.js', one)).toBeUndefined();
  expect(workspaceFolder('..', one)).toBeUndefined();
  expect(workspaceRelative(path.join(a, 'src/index.js'), one)).toBe('src/index.js');
  expect(workspaceRelative(a, one)).toBe('.');
  const two = [{ name: 'app', root: a }, { name: 'shared', root: b }];
  expect(workspaceFolder('shared', two)).toBe(b);
  expect(workspaceFolder('shared/lib/', two)).toBe(path.join(b, 'lib'));
  expect(workspaceRelative(path.join(b, 'lib/util.js'), two)).toBe('shared/lib/util.js');
  expect(workspaceRelative(path.dirname(a), two)).toBeUndefined();
});
