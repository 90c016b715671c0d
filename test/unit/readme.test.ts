import fs from 'node:fs';
import { describe, expect, test } from 'vitest';

// The README is checked like code: every path, npm script, package and environment
// variable it names must exist, so the docs cannot drift from the tree.
const readme = fs.readFileSync('README.md', 'utf8');
const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const gitignore = fs.readFileSync('.gitignore', 'utf8').split('\n');
const spans = [...readme.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
const fenced = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')).filter(Boolean);
const words = [...spans, ...fenced].flatMap((s) => s.split(/\s+/));

/** Folders of build and test output: named in the README, produced by a command, ignored by git. */
const OUTPUTS = ['dist/', 'dist-vsix/', 'test-results/', 'bench/results/', 'out/'];
const FILE = /\.(ts|mts|mjs|js|json|md|svelte|css|svg|png|vsix)$/;

const paths = [...new Set(words.filter((w) => !w.startsWith('@') && !w.startsWith('~') && (w.includes('/') || FILE.test(w)) && /^[\w.][\w./*-]*$/.test(w)))];

describe('README', () => {
  test('names paths, and they exist (outputs: ignored by git)', () => {
    expect(paths.length).toBeGreaterThan(20);
    for (const p of paths) {
      const output = OUTPUTS.find((o) => p.startsWith(o));
      if (output && !fs.existsSync(p)) expect(gitignore, `${p} is build output`).toContain(output);
      else expect(fs.existsSync(p.replace(/\*.*$/, '')), p).toBe(true);
    }
  });

  test('every npm command it names is a script (or an npm built-in)', () => {
    const commands = [...[...spans, ...fenced].join('\n').matchAll(/npm (run )?([\w:-]+)/g)].map((m) => m[2]!);
    expect(commands).toEqual(expect.arrayContaining(['ci', 'start', 'test', 'package', 'bench', 'watch']));
    for (const name of commands) {
      if (name === 'ci') continue;
      expect(Object.keys(manifest.scripts), name).toContain(name);
    }
  });

  test('the two commands are the install + start and install + test lines', () => {
    expect(fenced).toContain('npm ci && npm start            # on the folder you ran it from');
    expect(fenced).toContain('npm ci && npm test');
    const ci = fs.readFileSync('.ci/run', 'utf8').split('\n');
    expect(ci).toContain('npm ci');
    expect(ci).toContain('npm test || status=$?');
  });

  test('every package it names is a dependency, or one the test scripts provision', () => {
    const deps = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    const provisioned = fs.readFileSync("scripts/provision-agents.mjs", "utf8");
    for (const pkg of words.filter((w) => /^@[\w-]+\/[\w-]+$/.test(w))) {
      expect(deps.includes(pkg) || provisioned.includes(`${pkg}@`), pkg).toBe(true);
    }
  });

  test('every PEON_* variable it names is read by a script', () => {
    const vars = [...new Set(readme.match(/PEON_[A-Z_]+/g) ?? [])];
    expect(vars.length).toBeGreaterThan(0);
    const sources = ['scripts/paths.mjs', 'scripts/start.mjs', 'src/cli/toolHost.ts', 'src/cli/mcpHost.ts'].map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    // A family (`PEON_INPUT_<ID>`) is named by its prefix: the source builds the name from it.
    for (const v of vars) expect(sources, v).toContain(v.endsWith('_') ? `\`${v}` : `process.env.${v}`);
  });

  test('the architecture table lists every top-level source folder', () => {
    for (const dir of ['src/core/', 'src/shared/', 'src/extension/', 'src/cli/', 'webview/', 'media/', 'test/', 'scripts/', 'bench/']) {
      expect(readme).toContain(`| \`${dir}\``);
    }
    const srcDirs = fs.readdirSync('src').map((d) => `src/${d}/`);
    for (const dir of srcDirs) expect(readme, dir).toContain(`| \`${dir}\``);
  });
});
