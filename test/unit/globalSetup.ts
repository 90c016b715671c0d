import { execFileSync } from 'node:child_process';

// The CLI and the VS Code layers are tested as built: build dist/ once per run.
export default function setup(): void {
  execFileSync(process.execPath, ['esbuild.mjs', '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
}
