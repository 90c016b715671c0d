// grep (DESIGN.md §4): Go/RE2 patterns, line by line, through ripgrep or the pure-Node
// fallback with the same semantics. Results are in `rg --sort path` order in both
// backends, so the same inputs give the same output whichever one runs.
import * as z from 'zod';
import { grepWithNode, MAX_LINE_CHARS, type GrepEntry, type GrepMode } from '../search/grepNode';
import { grepWithRipgrep } from '../search/grepRipgrep';
import { parseRe2 } from '../search/re2';
import { checkGlob, openScope, type SearchScope } from '../search/scope';
import { comparePaths } from '../search/walk';
import { defineTool } from './defineTool';
import { fileAccess } from './fileAssessment';
import description from './grep.md';
import { ToolError } from './toolError';

export const GREP_DEFAULT_HEAD_LIMIT = 100;
const NOTE_RESERVE = 400; // room kept for the truncation note

/** Turns a thrown ToolError into a zod issue, so a bad pattern or glob never reaches execute. */
function validated<T>(check: (value: T) => void) {
  return (value: T, ctx: z.core.$RefinementCtx<T>): void => {
    try {
      check(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof ToolError ? error.message : String(error) });
    }
  };
}

const input = z.object({
  pattern: z
    .string()
    .min(1)
    .superRefine(validated((p: string) => void parseRe2(p)))
    .describe('Regular expression (Go/RE2 syntax) matched against each line. Start with (?i) to ignore case.'),
  path: z.string().optional().describe('Directory or file to search, relative to the workspace root. Default: the workspace root.'),
  include: z
    .array(z.string().min(1).superRefine(validated((g: string) => checkGlob(g, 'The include glob'))))
    .optional()
    .describe('Only search files matching these globs, e.g. ["*.go", "*.{ts,tsx}"]. A leading "!" excludes.'),
  mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe('content (default): matching lines as path:line:text. files_with_matches: file paths. count: path:N per file.'),
  headLimit: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(`Maximum results: lines in content mode, files otherwise. Default ${GREP_DEFAULT_HEAD_LIMIT}; 0 means unlimited.`),
});

function cutLine(text: string): string {
  if (text.length <= MAX_LINE_CHARS) return text;
  const end = /[\uD800-\uDBFF]/.test(text[MAX_LINE_CHARS - 1] ?? '') ? MAX_LINE_CHARS - 1 : MAX_LINE_CHARS;
  return `${text.slice(0, end)} … [line cut: ${text.length - end} more characters]`;
}

function render(entry: GrepEntry, mode: GrepMode, scope: SearchScope): string {
  const shown = scope.display(entry.path);
  if (mode === 'content') return `${shown}:${entry.line}:${cutLine(entry.text ?? '')}`;
  return mode === 'count' ? `${shown}:${entry.count}` : shown;
}

export const grepTool = defineTool({
  name: 'grep',
  description,
  input,
  risk: 'read_only',
  aliases: { head_limit: 'headLimit', output_mode: 'mode' },
  assess: async (input, ctx) => fileAccess(ctx.workspace.resolve(input.path ?? '.')),
  async execute(input, ctx) {
    const pattern = parseRe2(input.pattern);
    const include = input.include ?? [];
    const mode = input.mode ?? 'content';
    const headLimit = input.headLimit ?? GREP_DEFAULT_HEAD_LIMIT;
    const limit = headLimit === 0 ? Infinity : headLimit;
    const scope = openScope(ctx, input.path, true, true);
    const query = { scope, pattern, include, mode, maxEntries: limit, maxChars: ctx.limits.maxOutputChars, signal: ctx.signal };
    const backend = ctx.ripgrep ? 'ripgrep' : 'node';
    const found = ctx.ripgrep ? await grepWithRipgrep(ctx.ripgrep, query) : await grepWithNode(query);
    const entries = found.entries.sort((a, b) => comparePaths(a.path, b.path) || (a.line ?? 0) - (b.line ?? 0));

    const budget = Math.max(ctx.limits.maxOutputChars - NOTE_RESERVE, 0);
    const lines: string[] = [];
    const shown: GrepEntry[] = [];
    let chars = 0;
    let cutBySize = false;
    for (const entry of entries.slice(0, limit)) {
      const line = render(entry, mode, scope);
      if (chars + line.length + 1 > budget) {
        cutBySize = true;
        break;
      }
      lines.push(line);
      shown.push(entry);
      chars += line.length + 1;
    }
    const truncated = cutBySize || entries.length > limit || !found.complete;
    const files = new Set(shown.map((e) => e.path)).size;
    const matches = mode === 'content' ? shown.length : mode === 'count' ? shown.reduce((n, e) => n + (e.count ?? 0), 0) : files;
    const where = scope.target.display + (include.length > 0 ? ` (include ${include.join(', ')})` : '');
    let output = lines.length > 0 ? lines.join('\n') : `No matches for ${input.pattern} in ${where}.`;
    if (truncated) {
      const unit = mode === 'content' ? 'matching lines' : 'files';
      const why = cutBySize ? `the output limit of ${ctx.limits.maxOutputChars} characters` : `headLimit ${headLimit}`;
      output += `\n\n[Truncated at ${why}: showing the first ${lines.length} ${unit} in path order; there are more. Narrow the pattern, path or include to see the rest.]`;
    }
    if (found.warnings.length > 0) output += `\n\n[Some files could not be searched: ${found.warnings.slice(0, 3).join('; ')}]`;
    const secrets = scope.secretsLeftOut();
    if (secrets > 0) output += `\n\n[${secrets} secret-like file(s) (.env, keys, credentials) with matches left out; read one by path, which asks the user.]`;
    const guarded = scope.protectedLeftOut();
    if (guarded > 0) output += `\n\n[${guarded} protected file(s) (.vscode/, MCP, Peon and CI configuration) with matches left out; read one by path, which asks the user.]`;
    return {
      output,
      data: {
        mode,
        matches,
        files,
        truncated,
        backend,
        headLimit,
        stoppedEarly: found.stoppedEarly,
        secretLikeLeftOut: secrets,
        protectedLeftOut: guarded,
        ...(found.warnings.length > 0 ? { warnings: found.warnings } : {}),
      },
    };
  },
});
