// Packs a test fixture extension (test/fixtures/<name>) into a VSIX with @vscode/vsce,
// offline, for code-server to install into a fresh extensions folder. The workbench
// takes one extensionDevelopmentPath (Peon's), so other extensions come in this way.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../../scripts/paths.mjs';

export function packFixtureExtension(name, outDir) {
  const out = path.join(outDir, `${name}.vsix`);
  execFileSync(path.join(repoRoot, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', out], {
    cwd: path.join(repoRoot, 'test', 'fixtures', name),
    stdio: 'pipe',
  });
  return out;
}
