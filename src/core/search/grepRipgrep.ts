// grep through ripgrep. It runs in parallel first; when a limit is reached before it
// finishes, the entries it found depend on thread timing, so it is killed and run again
// with `--sort path` (one thread), which stops at the same entries the Node fallback
// stops at. `--max-count` bounds each file, so a file with 200k hits costs little.
import { TextDecoder } from 'node:util';
import { ToolError } from '../tools/toolError';
import { Collector, includeFilter, type GrepEntry, type GrepFound, type GrepQuery } from './grepNode';
import { RipgrepProcess, ripgrepFileArgs } from './ripgrep';
import { ripgrepGlob } from './scope';

const utf8 = new TextDecoder('utf-8');

interface RgText {
  text?: string;
  bytes?: string;
}
const textOf = (t: RgText | undefined): string =>
  t?.text ?? (t?.bytes !== undefined ? utf8.decode(Buffer.from(t.bytes, 'base64')) : '');
const relative = (p: string): string => (p.startsWith('./') ? p.slice(2) : p);

/** Escapes a file name for an exact `rg -g` glob. */
const literalGlob = (name: string): string => name.replace(/[\\*?[\]{}!]/g, (c) => `\\${c}`);

function ripgrepArgs(query: GrepQuery, sorted: boolean): string[] {
  const { scope, mode, include } = query;
  const globs: string[] = [];
  if (scope.file) {
    globs.push(`/${literalGlob(scope.file)}`);
  } else {
    const positive = include.filter((g) => !g.startsWith('!')).map(ripgrepGlob);
    if (!positive.includes(undefined)) globs.push(...(positive as string[]));
    for (const g of include.filter((g) => g.startsWith('!'))) {
      const glob = ripgrepGlob(g.slice(1));
      if (glob !== undefined) globs.push(`!${glob}`);
    }
  }
  const args = ripgrepFileArgs(globs);
  // One file is searched as part of its directory (not named), so binary files are treated alike.
  if (scope.file) args.push('--no-ignore', '--max-depth', '1');
  if (sorted) args.push('--sort', 'path');
  if (mode === 'content') {
    args.push('--json');
    if (Number.isFinite(query.maxEntries)) args.push('--max-count', String(query.maxEntries + 1));
  } else {
    args.push(mode === 'count' ? '--count' : '--files-with-matches', '--null', '--with-filename');
  }
  args.push('-e', query.pattern.rust, '--', '.');
  return args;
}

async function run(rg: string, query: GrepQuery, sorted: boolean): Promise<GrepFound> {
  const { scope, mode } = query;
  const included = includeFilter(query.include);
  const keep = (rel: string): boolean => (scope.file ? rel === scope.file : scope.visible(rel)) && included(rel) && scope.searchable(rel);
  const collector = new Collector(query);
  const proc = new RipgrepProcess(rg, ripgrepArgs(query, sorted), scope.dir, query.signal);
  let file: { path: string; lines: GrepEntry[] } | undefined;
  let partial = ''; // count mode: a path that contained '\n'
  let complete = true;
  for await (const record of proc.records(mode === 'files_with_matches' ? 0 : 0x0a)) {
    if (mode === 'content') {
      const message = JSON.parse(record.toString('utf8')) as { type: string; data: Record<string, unknown> };
      const data = message.data as { path?: RgText; lines?: RgText; line_number?: number; binary_offset?: number | null };
      if (message.type === 'begin') {
        const rel = relative(textOf(data.path));
        file = keep(rel) ? { path: rel, lines: [] } : undefined;
      } else if (message.type === 'match' && file) {
        const text = textOf(data.lines).replace(/\n$/, '').replace(/\r$/, ''); // as grepNode: '\r' before '\n' or at the end
        file.lines.push({ path: file.path, line: data.line_number ?? 0, text });
      } else if (message.type === 'end' && file) {
        // A NUL byte after the first block: ripgrep stopped there; the file is binary, skip it whole.
        if (data.binary_offset === null || data.binary_offset === undefined) for (const entry of file.lines) collector.add(entry);
        file = undefined;
      }
    } else if (mode === 'files_with_matches') {
      const rel = relative(record.toString('utf8'));
      if (keep(rel)) collector.add({ path: rel });
    } else {
      const text = partial + record.toString('utf8');
      const nul = text.lastIndexOf('\0');
      if (nul === -1) {
        partial = `${text}\n`;
        continue;
      }
      partial = '';
      const rel = relative(text.slice(0, nul));
      if (keep(rel)) collector.add({ path: rel, count: Number(text.slice(nul + 1)) });
    }
    if (collector.full) {
      complete = false;
      break;
    }
  }
  const exit = await proc.exit();
  const warnings: string[] = [];
  if (!exit.stoppedEarly && exit.code !== 0 && exit.code !== 1) {
    if (collector.entries.length === 0 || exit.code !== 2) {
      const invalid = /regex|parse error|size limit/i.test(exit.stderr);
      throw new ToolError(invalid ? 'invalid_input' : 'io_error', `ripgrep failed (exit ${exit.code}): ${exit.stderr || 'no message'}`);
    }
    warnings.push(...exit.stderr.split('\n').slice(0, 20));
  }
  return { entries: collector.entries, complete, warnings, stoppedEarly: exit.stoppedEarly };
}

export async function grepWithRipgrep(rg: string, query: GrepQuery): Promise<GrepFound> {
  if (query.scope.file) return run(rg, query, true);
  const parallel = await run(rg, query, false);
  if (parallel.complete) return parallel;
  const sorted = await run(rg, query, true);
  return { ...sorted, stoppedEarly: true };
}
