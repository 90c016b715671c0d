// B13: the VSIX size, against Cline's published VSIX (7.28 MB). Budget: ≤ 3.6 MB with
// ripgrep for one platform.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { repoRoot } from '../../scripts/paths.mjs';

export const id = 'B13';
export const title = 'VSIX size vs Cline 7.28 MB';

const CLINE_BYTES = 7.28e6;

export function run() {
  execFileSync(process.execPath, ['scripts/package-vsix.mjs'], { cwd: repoRoot, stdio: 'ignore' });
  const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const bytes = fs.statSync(path.join(repoRoot, 'dist-vsix', `peon-${version}.vsix`)).size;
  return {
    reference: '7.28 MB',
    measured: `${(bytes / 1e6).toFixed(3)} MB`,
    ratio: bytes / CLINE_BYTES,
    budget: '≤ 3.6 MB',
    pass: bytes <= 3.6e6,
    note: '',
  };
}
