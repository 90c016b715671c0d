#!/usr/bin/env node
// The benchmark corpora of PERF.md, built on demand in the cache and never committed:
// Debian's Go 1.19 source tree (used in place, read-only); a git workspace fixture
// copied from it, with a gitignored node_modules so tools that skip ignore rules see
// far more files; and a 50 MiB file of concatenated Go sources that keeps their
// non-ASCII lines (V8 is much faster on pure ASCII, which would flatter the numbers).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheRoot } from '../scripts/paths.mjs';
import { ensureSystemPackages } from '../scripts/system-deps.mjs';

const GO_PACKAGE = 'golang-1.19-src';
const GO_SRC = '/usr/share/go-1.19/src'; // where the package installs the tree (`dpkg -L golang-1.19-src`)
const benchDir = path.join(cacheRoot, 'bench');
const fixtureDir = path.join(benchDir, 'fixture');
const bigFilePath = path.join(benchDir, 'big-50mib.txt');

/** Bump a recipe's version and the next run rebuilds what it made. */
const FIXTURE_VERSION = 'fixture-1 go1.19 web40 nm250x20';
const BIG_FILE_VERSION = 'big-1 go1.19 sorted .go';
const BIG_FILE_BYTES = 50 * 1024 * 1024;
const MIN_LINES = 1_500_200; // B7 reads lines 1,500,000–1,500,200
const MIN_NON_ASCII_LINES = 1_000;

// A fixed identity and no user or system config, so the commit works (and is the same) anywhere.
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Peon Bench',
  GIT_AUTHOR_EMAIL: 'bench@peon.invalid',
  GIT_AUTHOR_DATE: '2023-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'Peon Bench',
  GIT_COMMITTER_EMAIL: 'bench@peon.invalid',
  GIT_COMMITTER_DATE: '2023-01-01T00:00:00Z',
};

const git = (cwd, ...args) => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', maxBuffer: 1 << 28 });
const gitCount = (cwd, ...args) => git(cwd, ...args, '-z').split('\0').filter(Boolean).length;
const markerOf = (target) => `${target}.version`;

/** Regular files under `root`, as relative paths, in sorted order. */
function listFiles(root, dir = '', out = []) {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) listFiles(root, rel, out);
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

function writeFile(root, rel, text) {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

function writeAll(fd, buf) {
  for (let off = 0; off < buf.length; ) off += fs.writeSync(fd, buf, off, buf.length - off);
}

const jsModule = (name, i) =>
  `// ${name}: generated for the benchmarks (naïve café ✓)\n'use strict';\n\n` +
  `function ${name.replace(/\W/g, '_')}(value) {\n  return value * ${i} + ${i % 7};\n}\n\n` +
  `module.exports = { ${name.replace(/\W/g, '_')}, index: ${i} };\n`;

/** Builds into `${target}.tmp`, then swaps it in and writes the marker: a half-built corpus is never current. */
function rebuild(target, version, build) {
  const tmp = `${target}.tmp`;
  fs.rmSync(markerOf(target), { force: true });
  fs.rmSync(tmp, { recursive: true, force: true });
  build(tmp);
  fs.rmSync(target, { recursive: true, force: true });
  fs.renameSync(tmp, target);
  fs.writeFileSync(markerOf(target), version);
}

function isCurrent(target, version, check = () => true) {
  try {
    return fs.readFileSync(markerOf(target), 'utf8') === version && check();
  } catch {
    return false;
  }
}

function buildFixture(goTree, dir) {
  fs.cpSync(goTree, dir, { recursive: true });
  writeFile(dir, '.gitignore', 'node_modules/\n');
  // The Go tree has only 4 .js files; give `**/*.js` some tracked ones to find.
  for (let i = 0; i < 40; i++) writeFile(dir, `web/${['app', 'lib', 'ui', 'util'][i % 4]}/module-${i}.js`, jsModule(`web-${i}`, i));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'Go 1.19 source tree as a benchmark workspace');
  // Untracked but not ignored: `git ls-files -co --exclude-standard` differs from `git ls-files`.
  writeFile(dir, 'web/untracked-draft.js', jsModule('draft', 41));
  writeFile(dir, 'NOTES.txt', 'Untracked notes, not ignored.\n');
  // Ignored: 250 packages × 20 files, some scoped, each with a nested dependency.
  for (let p = 0; p < 250; p++) {
    const name = `${p % 5 === 0 ? '@scope/' : ''}pkg-${p}`;
    const pkg = `node_modules/${name}`;
    writeFile(dir, `${pkg}/package.json`, `${JSON.stringify({ name, version: '1.0.0', main: 'index.js' }, null, 2)}\n`);
    writeFile(dir, `${pkg}/index.js`, jsModule(name, p));
    for (let f = 0; f < 16; f++) writeFile(dir, `${pkg}/lib/${f % 4 ? 'src' : 'dist'}/file-${f}.js`, jsModule(`${name}-${f}`, f));
    writeFile(dir, `${pkg}/node_modules/dep-${p}/package.json`, `${JSON.stringify({ name: `dep-${p}`, version: '0.1.0' })}\n`);
    writeFile(dir, `${pkg}/node_modules/dep-${p}/index.js`, jsModule(`dep-${p}`, p));
  }
}

/** The .go files in sorted path order, repeated as needed, cut at a UTF-8 boundary and padded to exactly 50 MiB. */
function buildBigFile(goTree, file) {
  const sources = listFiles(goTree).filter((rel) => rel.endsWith('.go'));
  if (sources.length === 0) throw new Error(`No .go files under ${goTree}`);
  const limit = BIG_FILE_BYTES - 1; // the last byte is always '\n'
  const fd = fs.openSync(file, 'w');
  try {
    let written = 0;
    for (let i = 0; written < limit; i = (i + 1) % sources.length) {
      let buf = fs.readFileSync(path.join(goTree, sources[i]));
      if (buf.length > 0 && buf[buf.length - 1] !== 0x0a) buf = Buffer.concat([buf, Buffer.from('\n')]);
      let take = Math.min(buf.length, limit - written);
      if (take < buf.length) while (take > 0 && (buf[take] & 0xc0) === 0x80) take--; // never split a character
      writeAll(fd, buf.subarray(0, take));
      written += take;
      if (take < buf.length) break;
    }
    const pad = Buffer.alloc(BIG_FILE_BYTES - written, 0x20);
    pad[pad.length - 1] = 0x0a;
    writeAll(fd, pad);
  } finally {
    fs.closeSync(fd);
  }
  const stats = textStats(file);
  if (stats.bytes !== BIG_FILE_BYTES || stats.lines < MIN_LINES || stats.nonAsciiLines < MIN_NON_ASCII_LINES) {
    throw new Error(`${file} is not a usable corpus: ${JSON.stringify(stats)}`);
  }
}

/** Bytes, lines and lines holding a byte ≥ 0x80, in one streamed pass. */
export function textStats(file) {
  const stats = { bytes: 0, lines: 0, nonAsciiLines: 0 };
  const buf = Buffer.allocUnsafe(1 << 20);
  const fd = fs.openSync(file, 'r');
  let open = false;
  let high = false;
  try {
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) {
      stats.bytes += n;
      for (let i = 0; i < n; i++) {
        const b = buf[i];
        if (b === 0x0a) {
          stats.lines++;
          if (high) stats.nonAsciiLines++;
          open = high = false;
        } else {
          open = true;
          if (b >= 0x80) high = true;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  if (open) {
    stats.lines++;
    if (high) stats.nonAsciiLines++;
  }
  return stats;
}

export async function ensureCorpora({ log = console.log } = {}) {
  ensureSystemPackages([GO_PACKAGE]);
  if (!fs.existsSync(path.join(GO_SRC, 'go', 'build', 'build.go'))) {
    throw new Error(`${GO_PACKAGE} is installed but ${GO_SRC} is not its source tree; check \`dpkg -L ${GO_PACKAGE}\``);
  }
  fs.mkdirSync(benchDir, { recursive: true });
  const timed = (what, fn) => {
    const started = Date.now();
    log(`Building ${what} …`);
    fn();
    log(`Built ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  if (!isCurrent(fixtureDir, FIXTURE_VERSION, () => fs.existsSync(path.join(fixtureDir, '.git')))) {
    timed(`the workspace fixture at ${fixtureDir}`, () => rebuild(fixtureDir, FIXTURE_VERSION, (dir) => buildFixture(GO_SRC, dir)));
  }
  if (!isCurrent(bigFilePath, BIG_FILE_VERSION, () => fs.statSync(bigFilePath).size === BIG_FILE_BYTES)) {
    timed(`the 50 MiB file at ${bigFilePath}`, () => rebuild(bigFilePath, BIG_FILE_VERSION, (file) => buildBigFile(GO_SRC, file)));
  }
  return { goTree: GO_SRC, fixture: fixtureDir, bigFile: bigFilePath };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  const { goTree, fixture, bigFile } = await ensureCorpora();
  const ready = Date.now() - started;
  const tracked = gitCount(fixture, 'ls-files');
  const untracked = gitCount(fixture, 'ls-files', '-o', '--exclude-standard');
  const ignored = gitCount(fixture, 'ls-files', '-o', '-i', '--exclude-standard');
  const big = textStats(bigFile);
  console.log(`goTree   ${goTree}: ${listFiles(goTree).length} files`);
  console.log(`fixture  ${fixture}: ${tracked} tracked, ${untracked} untracked, ${ignored} ignored`);
  console.log(`bigFile  ${bigFile}: ${big.bytes} bytes, ${big.lines} lines, ${big.nonAsciiLines} non-ASCII lines`);
  console.log(`Corpora ready in ${(ready / 1000).toFixed(2)} s`);
}
