// The gate's own look into a repository runs the system's git, never one a PATH entry
// offers: a workspace folder on PATH (direnv's PATH_add, a shell started in the project)
// could hold a `git` a sandboxed command planted, and the gate runs outside the sandbox.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { runGit } from '../../../src/core/permissions/gitInspect';
import { tempDir } from '../tools/toolTestContext';

test('a git planted on PATH is not the one the gate runs', async () => {
  const repo = tempDir('peon-gitinspect-');
  execFileSync('git', ['init', '-q', repo]);
  const planted = tempDir('peon-gitinspect-path-');
  const mark = path.join(planted, 'RAN');
  fs.writeFileSync(path.join(planted, 'git'), `#!/bin/sh\ntouch ${mark}\necho planted\n`, { mode: 0o755 });
  const run = await runGit(repo, ['rev-parse', '--is-inside-work-tree'], { ...process.env, PATH: `${planted}:${process.env.PATH}` });
  expect(run).toMatchObject({ code: 0, stdout: 'true\n' });
  expect(fs.existsSync(mark)).toBe(false);
});
