#!/usr/bin/env node
// `npm run package`: a production build packed into dist-vsix/peon-<version>.vsix by
// @vscode/vsce, offline (vsce runs the `vscode:prepublish` production build). The
// bundles carry their dependencies, so no node_modules ship; .vscodeignore lists what does.
// The same VSIX is what Open VSX takes (`ovsx publish <file>`): test/unit/publish.test.ts
// checks the manifest against Open VSX's own rules.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.mjs';

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const outDir = path.join(repoRoot, 'dist-vsix');
const out = path.join(outDir, `peon-${manifest.version}.vsix`);
fs.mkdirSync(outDir, { recursive: true });

const args = ['package', '--no-dependencies', '--out', out];
if (!manifest.repository) {
  // Peon has no public repository yet, and a made-up URL would send people nowhere. Without
  // one, vsce asks whether to go on (the flag answers) and cannot turn the README's relative
  // images into URLs, so it refuses them: the VSIX gets the README without its images (VS
  // Code's extension page could not show them from the package anyway: it loads README
  // images only from https: and data: URLs). With a `repository`, vsce points them there.
  const readme = path.join(outDir, 'README.md');
  fs.writeFileSync(readme, forTheListing(withoutRelativeImages(fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8'))));
  args.push('--allow-missing-repository', '--readme-path', path.relative(repoRoot, readme));
  console.log('package.json names no repository: the packaged README leaves out its images.');
}
execFileSync(path.join(repoRoot, 'node_modules', '.bin', 'vsce'), args, { cwd: repoRoot, stdio: 'inherit' });
console.log(`${path.relative(repoRoot, out)}: ${(fs.statSync(out).size / 1024).toFixed(1)} KiB`);

/** The Markdown without its images on lines of their own whose target is a path, not a URL. */
function withoutRelativeImages(markdown) {
  return markdown.replace(/^!\[[^\]]*\]\((?![a-z]+:)[^)]*\)\n(\n(?=\S))?/gm, '');
}

/**
 * The README as the extension's page shows it: what people who install Peon read (what it
 * does, settings, the CLI, MCP, the sandbox, the tools), without the sections for those
 * who build it (they read the repository's README).
 */
function forTheListing(markdown) {
  const FOR_DEVELOPERS = new Set(['## The two commands', '## Architecture', '## Development loop', '## Tests', '## Other commands']);
  return markdown
    .split(/^(?=## )/m)
    .filter((section) => !FOR_DEVELOPERS.has(section.split('\n', 1)[0].trim()))
    .join('');
}
