// glob (DESIGN.md §4): files by name, newest first. The set is `git ls-files -co
// --exclude-standard` filtered by the pattern, minus .peonignore'd files (symlinks are not
// listed): `rg --files` when ripgrep is available, walk.ts otherwise, both post-filtered
// by the same IgnoreRules and picomatch.
import fs from 'node:fs';
import picomatch from 'picomatch';
import * as z from 'zod';
import { RipgrepProcess, ripgrepFileArgs } from '../search/ripgrep';
import { checkGlob, globMatcher, openScope, ripgrepGlob, type SearchScope } from '../search/scope';
import { Breather, comparePaths, walkFiles } from '../search/walk';
import { defineTool } from './defineTool';
import { fileAccess } from './fileAssessment';
import description from './glob.md';
import { ToolError } from './toolError';

export const GLOB_MAX_RESULTS = 1000;

const input = z.object({
  pattern: z
    .string()
    .min(1)
    .refine((p) => !p.split('/').includes('..'), 'the pattern may not contain "..": patterns match below path; set path to the directory instead')
    .describe('Glob such as "**/*.ts", "src/**/*.{ts,tsx}" or "*.md". Without "/" it matches file names at any depth.'),
  path: z.string().optional().describe('Directory to search in, relative to the workspace root. Default: the workspace root.'),
});

/**
 * `pattern` and the directory it applies to. An absolute (or `~/`) pattern with a glob
 * names its leading directory, when no path is given: "/ws/src/**\/*.ts" searches /ws/src. Whether
 * that directory exists is not looked at here: the gate judges it first, so the answer
 * tells nothing about a place it would ask about (gate review 4, B1).
 */
function target(input: { pattern: string; path?: string | undefined }): { pattern: string; path?: string | undefined } {
  checkGlob(input.pattern, 'The pattern');
  if (input.path !== undefined || !/^(\/|~\/)/.test(input.pattern)) return input;
  const { base, glob } = picomatch.scan(input.pattern);
  // No glob at all (`/c.ts`): a name anchored at path, never a directory looked up.
  if (base === '' || base === '/' || base === '~' || glob === '') return input;
  return { pattern: glob, path: base };
}

async function listWithRipgrep(rg: string, scope: SearchScope, pattern: string, signal: AbortSignal): Promise<string[]> {
  const glob = ripgrepGlob(pattern);
  const args = [...ripgrepFileArgs(glob === undefined ? [] : [glob]), '--files', '--null', '--', '.'];
  const proc = new RipgrepProcess(rg, args, scope.dir, signal);
  const files: string[] = [];
  for await (const record of proc.records(0)) {
    const text = record.toString('utf8');
    files.push(text.startsWith('./') ? text.slice(2) : text);
  }
  const exit = await proc.exit();
  if (exit.code !== 0 && exit.code !== 1 && files.length === 0) {
    throw new ToolError('io_error', `ripgrep failed to list files (exit ${exit.code}): ${exit.stderr || 'no message'}`);
  }
  return files.filter((rel) => scope.visible(rel));
}

async function listWithNode(scope: SearchScope, signal: AbortSignal): Promise<string[]> {
  const strip = scope.base === '' ? 0 : scope.base.length + 1;
  const files: string[] = [];
  for await (const rel of walkFiles({ root: scope.rulesRoot, start: scope.base, ignore: scope.rules, signal })) files.push(rel.slice(strip));
  return files;
}

export const globTool = defineTool({
  name: 'glob',
  description,
  input,
  risk: 'read_only',
  async assess(raw, ctx) {
    const { path } = target(raw);
    return fileAccess(ctx.workspace.resolve(path ?? '.'));
  },
  async execute(raw, ctx) {
    const { pattern, path } = target(raw);
    const scope = openScope(ctx, path, false);
    const matches = globMatcher(pattern);
    const listed = ctx.ripgrep ? await listWithRipgrep(ctx.ripgrep, scope, pattern, ctx.signal) : await listWithNode(scope, ctx.signal);
    const found = listed.filter(matches).filter((rel) => scope.searchable(rel));

    const dated: { rel: string; mtime: number }[] = [];
    const breather = new Breather(ctx.signal);
    for (const rel of found) {
      try {
        dated.push({ rel, mtime: fs.statSync(`${scope.dir}/${rel}`).mtimeMs });
      } catch {
        // gone meanwhile: left out
      }
      if (breather.due()) await breather.pause();
    }
    dated.sort((a, b) => b.mtime - a.mtime || comparePaths(a.rel, b.rel));

    const budget = Math.max(ctx.limits.maxOutputChars - 300, 0);
    const lines: string[] = [];
    let chars = 0;
    for (const { rel } of dated.slice(0, GLOB_MAX_RESULTS)) {
      const line = scope.display(rel);
      if (chars + line.length + 1 > budget) break;
      lines.push(line);
      chars += line.length + 1;
    }
    const truncated = lines.length < dated.length;
    let output = lines.length > 0 ? lines.join('\n') : `No files match ${pattern} in ${scope.target.display}.`;
    if (truncated) {
      output += `\n\n[Showing the ${lines.length} most recently modified of ${dated.length} matching files. Narrow the pattern or path to see the rest.]`;
    }
    const secrets = scope.secretsLeftOut();
    if (secrets > 0) output += `\n\n[${secrets} secret-like file(s) (.env, keys, credentials) left out; read one by path, which asks the user.]`;
    return {
      output,
      data: { pattern, path: scope.target.display, count: lines.length, total: dated.length, truncated, secretLikeLeftOut: secrets, backend: ctx.ripgrep ? 'ripgrep' : 'node' },
    };
  },
});
