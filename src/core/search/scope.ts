// What glob and grep search: the directory (or one file) a call names, the ignore rules
// that apply below it, how a found path is shown to the model, and the glob matching both
// tools share. One place, so the ripgrep and the pure-Node backends agree by construction.
import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { ToolContext } from '../tools/contract';
import { ToolError } from '../tools/toolError';
import { IgnoreRules } from '../workspace/ignoreRules';
import { protectedReason, secretReasons } from '../workspace/pathRules';
import { isWithin } from '../workspace/workspace';
import type { ResolvedPath } from '../workspace/workspace';

export interface SearchScope {
  readonly target: ResolvedPath;
  /** Canonical absolute directory searched (the parent directory when the target is a file). */
  readonly dir: string;
  /** The file's name when the target is one file. */
  readonly file: string | undefined;
  /** Rules for paths below `dir`; `base` is `dir` relative to the rules' root. */
  readonly rules: IgnoreRules;
  readonly rulesRoot: string;
  readonly base: string;
  /** How a path relative to `dir` is shown: workspace-relative inside, absolute outside. */
  display(relative: string): string;
  /** Whether a path relative to `dir`, listed by ripgrep, survives the ignore rules. */
  visible(relative: string): boolean;
  /**
   * Whether a found file may be shown. Secret-like files (.env, keys, credentials) are left
   * out of searches, and counted, unless the search was aimed at a secret-like place, which
   * the gate asked about: a search must not show what a read would have asked for.
   */
  searchable(relative: string): boolean;
  /** How many found files `searchable` left out for being secret-like. */
  secretsLeftOut(): number;
  /** How many it left out for being protected (only a content search leaves them out). */
  protectedLeftOut(): number;
}

/**
 * Resolves `path` for a search. `not_found` when it is missing; a file only where
 * `allowFile`. `content`: the search shows what files hold (grep), so protected files
 * (.vscode/, MCP config, Peon's config, workflows), which a read asks for, are left out too.
 */
export function openScope(ctx: ToolContext, input: string | undefined, allowFile: boolean, content = false): SearchScope {
  const target = ctx.workspace.resolve(input ?? '.');
  if (!target.exists) throw new ToolError('not_found', `${target.display} does not exist. Check the path with list or glob.`);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target.canonical);
  } catch (error) {
    throw new ToolError('io_error', `Cannot read ${target.display}: ${(error as Error).message}`);
  }
  const isFile = !stat.isDirectory();
  if (isFile && !allowFile) throw new ToolError('invalid_input', `${target.display} is a file; path must name a directory.`);
  const dir = isFile ? path.dirname(target.canonical) : target.canonical;
  const file = isFile ? path.basename(target.canonical) : undefined;
  const folder = target.folder;
  // Inside the workspace, the folder's rules with their nesting; a directory that is itself
  // ignored (or outside) was named on purpose (and approved): only rules found below it apply.
  const own = folder !== undefined && !target.ignored;
  const rulesRoot = own ? folder.root : dir;
  const rules = own ? folder.ignore : new IgnoreRules(dir);
  const base = own ? toSlash(path.relative(folder.root, dir)) : '';
  const prefix = folder ? toSlash(path.relative(folder.root, dir)) : undefined;
  const named = folder && ctx.workspace.folders.length > 1 ? `${folder.name}/` : '';
  const checkers = new Map<string, (name: string, isDirectory: boolean) => boolean>();
  const ignoredIn = (dir: string, name: string, isDirectory: boolean): boolean => {
    let check = checkers.get(dir);
    if (!check) checkers.set(dir, (check = rules.forDirectory(dir)));
    return check(name, isDirectory);
  };
  const dirVerdicts = new Map<string, boolean>([[base, true]]);
  const dirVisible = (rel: string): boolean => {
    const known = dirVerdicts.get(rel);
    if (known !== undefined) return known;
    const slash = rel.lastIndexOf('/');
    const parent = slash === -1 ? '' : rel.slice(0, slash);
    const verdict = dirVisible(parent) && !ignoredIn(parent, rel.slice(slash + 1), true);
    dirVerdicts.set(rel, verdict);
    return verdict;
  };
  const allowSecrets = target.secretReasons.length > 0;
  const allowProtected = !content || target.protectedReason !== undefined;
  const home = ctx.workspace.home;
  const leftOut = new Set<string>();
  const protectedOut = new Set<string>();
  const isProtected = (absolute: string): boolean =>
    protectedReason(folder ? toSlash(path.relative(folder.root, absolute)) : undefined, isWithin(home, absolute) ? toSlash(path.relative(home, absolute)) : undefined) !== undefined;
  return {
    target,
    dir,
    file,
    rules,
    rulesRoot,
    base,
    searchable(relative) {
      const absolute = path.join(dir, relative);
      if (!allowSecrets && secretReasons(toSlash(absolute).split('/')).length > 0) {
        leftOut.add(relative);
        return false;
      }
      if (!allowProtected && isProtected(absolute)) {
        protectedOut.add(relative);
        return false;
      }
      return true;
    },
    secretsLeftOut: () => leftOut.size,
    protectedLeftOut: () => protectedOut.size,
    display: (relative) =>
      prefix === undefined ? path.join(dir, relative) : named + (prefix === '' ? relative : `${prefix}/${relative}`),
    visible(relative) {
      const full = base === '' ? relative : `${base}/${relative}`;
      const slash = full.lastIndexOf('/');
      const parent = slash === -1 ? '' : full.slice(0, slash);
      if (full.split('/').includes('.git')) return false;
      return dirVisible(parent) && !ignoredIn(parent, full.slice(slash + 1), false);
    },
  };
}

const toSlash = (p: string): string => p.split(path.sep).join('/');

/**
 * Glob semantics shared by glob's pattern and grep's include (and by `rg -g`): a pattern
 * without '/' matches a file name at any depth; one with '/' matches the path relative to
 * the searched directory. `*` and `?` stay within a segment, `**` crosses them, `{a,b}`
 * and `[abc]` work, dotfiles match.
 */
export function globMatcher(pattern: string): (relative: string) => boolean {
  const { glob, anchored } = normalizeGlob(pattern);
  const isMatch = picomatch(glob, { dot: true, basename: !anchored });
  return (relative) => isMatch(relative); // one argument: picomatch's second asks for a result object

}

function normalizeGlob(pattern: string): { glob: string; anchored: boolean } {
  return { glob: pattern.replace(/^(\.\/|\/)+/, ''), anchored: pattern.includes('/') };
}

/**
 * The same glob for `rg -g`, or undefined where ripgrep's glob syntax could read it
 * differently (extglobs, escapes, negation, an unclosed brace): then ripgrep lists
 * everything and globMatcher alone filters.
 */
export function ripgrepGlob(pattern: string): string | undefined {
  if (/[\\!]|[@+*?]\(/.test(pattern) || /\{[^}]*$/.test(pattern)) return undefined;
  const { glob, anchored } = normalizeGlob(pattern);
  return anchored && !glob.includes('/') ? `/${glob}` : glob;
}

/** Rejects glob patterns that try to leave the searched directory. */
export function checkGlob(pattern: string, what: string): void {
  if (pattern.split('/').includes('..')) {
    throw new ToolError('invalid_input', `${what} ${JSON.stringify(pattern)} contains "..": patterns match below path. Set path to the directory instead.`);
  }
}

