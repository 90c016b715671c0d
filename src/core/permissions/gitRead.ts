// Whether a git command on the read-only list may really run without asking (gate review
// F4, F5): the repository's config must start no program, `rev:path` names a path from
// the repository's top (as git reads it), an object named by id must be a commit, and a
// command that prints file contents (a diff, a patch, `show`, a pickaxe search) may only
// print paths a read would not ask for: the gate lists them first, with git itself.
import path from 'node:path';
import fs from 'node:fs';
import { gitSplit } from './destructive';
import { configObjection, findRepository, GitInspectError, listPaths, objectTypes, remoteCredentials, type Repository } from './gitInspect';

/** Why reading an absolute path would ask, or undefined. */
export type AbsoluteCheck = (absolute: string) => string | undefined;

/** Options of log, show, diff and blame whose value is the next word. */
const SEPARATE_VALUE = new Set([
  '-n', '--max-count', '--skip', '--since', '--after', '--until', '--before', '--author', '--committer', '--grep', '--grep-reflog', '--min-parents', '--max-parents',
  '-S', '-G', '-L', '-O', '--find-object', '--diff-filter', '--src-prefix', '--dst-prefix', '--line-prefix', '--encoding', '--date', '-U', '--unified', '--inter-hunk-context',
  '--word-diff-regex', '--color-moved-ws', '-I', '--ignore-matching-lines', '--anchored', '--exclude', '--since-as-filter', '--rotate-to', '--skip-to',
  '--output-indicator-new', '--output-indicator-old', '--output-indicator-context', '--contents', '--ignore-rev', '--ignore-revs-file',
]);
const PATCH = /^(-p|-u|--patch|--patch-with-stat|--patch-with-raw|-U.*|--unified(=.*)?|--word-diff.*|--color-words.*|--cc|-c|--dd|--remerge-diff|--binary|--full-diff|-W|--function-context|--check|--text|-a|-m|--diff-merges.*)$/;
const PICKAXE = /^(-S|-G|--find-object|-L|--pickaxe-)/;
const NAMES_ONLY = /^(--stat.*|--numstat|--shortstat|--name-only|--name-status|--raw|--summary|--dirstat.*|--compact-summary|-s|--no-patch|--quiet)$/;
/** Flags that choose which commits a log walks: kept in the listing, so it covers what the log shows. */
const WALKS = /^(--all|--branches(=.*)?|--tags(=.*)?|--remotes(=.*)?|--glob=.*|--reflog|--follow|--cached|--staged|--merge-base)$/;

/** Whether `git sub rest` prints file contents (or tells which files hold a string). */
function printsContent(sub: string, rest: readonly string[]): boolean {
  const options = rest.filter((a) => a.startsWith('-'));
  if (options.some((o) => PICKAXE.test(o))) return true;
  switch (sub) {
    case 'diff':
    case 'show':
      return !options.some((o) => NAMES_ONLY.test(o)) || options.some((o) => PATCH.test(o));
    case 'log':
      return options.some((o) => PATCH.test(o));
    case 'status':
      return options.some((o) => /^(-v+|--verbose)$/.test(o));
    default:
      return false;
  }
}

/** The path a `rev:path` (or `:path`, `:2:path`) word names, absolute; undefined for other words. */
function revPath(word: string, repo: Repository, cwd: string): string | undefined {
  if (word.startsWith('-')) return undefined;
  const at = word.indexOf(':');
  if (at < 0) return undefined;
  let rest = word.slice(at + 1);
  if (at === 0 && rest.startsWith('/')) return undefined; // `:/message`: a commit found by its message
  if (at === 0 && /^[0-3]:/.test(rest)) rest = rest.slice(2);
  // git reads the path from the repository's top, unless it starts with ./ or ../
  return rest.startsWith('./') || rest.startsWith('../') ? path.resolve(cwd, rest) : path.join(repo.top, rest);
}

/** The revisions a range expression names (`a..b`, `a...b`, `^a`, `a^!`); an empty side is HEAD. */
function rangeSides(word: string): string[] {
  const bare = word.replace(/^\^/, '').replace(/\^[!@]$|\^-\d*$/, '');
  const sides = bare.includes('...') ? bare.split('...') : bare.split('..');
  return sides.map((s) => s || 'HEAD');
}

interface Parsed {
  readonly sub: string;
  readonly flags: string[];
  readonly words: string[];
  readonly values: string[];
  readonly paths: string[];
  readonly dashed: boolean;
}

function parse(args: readonly string[]): Parsed {
  const { rest: [sub = '', ...rest] } = gitSplit(args);
  const flags: string[] = [];
  const words: string[] = [];
  const values: string[] = [];
  const end = rest.indexOf('--');
  const before = end < 0 ? rest : rest.slice(0, end);
  for (let i = 0; i < before.length; i++) {
    const a = before[i]!;
    if (a.startsWith('-') && a.length > 1) {
      flags.push(a);
      if (SEPARATE_VALUE.has(a) && i + 1 < before.length) values.push(before[++i]!);
    } else words.push(a);
  }
  return { sub, flags, words, values, paths: end < 0 ? [] : rest.slice(end + 1), dashed: end >= 0 };
}

/**
 * Why the whitelisted `git args`, run in `cwd`, must ask after all, or undefined. `check`
 * says why reading an absolute path would ask.
 */
export async function whyGitReadAsks(args: readonly string[], cwd: string, check: AbsoluteCheck, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const repo = await findRepository(cwd, env);
    if (!repo) return undefined; // no repository: git only says so
    const config = await configObjection(repo, cwd, env);
    if (config) return config;
    const parsed = parse(args);
    if (parsed.sub === 'remote' && parsed.flags.some((f) => f === '-v' || f === '--verbose')) {
      const leak = await remoteCredentials(cwd, env);
      if (leak) return leak;
    }
    // `HEAD:path` words, wherever they stand, name a path from the repository's top.
    for (const word of [...parsed.words, ...parsed.values, ...parsed.paths]) {
      const named = revPath(word, repo, cwd);
      const why = named === undefined ? undefined : check(named);
      if (why) return `${word} names ${why}`;
    }
    if (!printsContent(parsed.sub, [...parsed.flags, ...parsed.words])) return undefined;
    return await contentObjection(parsed, repo, cwd, check, env);
  } catch (error) {
    if (error instanceof GitInspectError) return `Peon could not check what git would print: ${error.message}`;
    throw error;
  }
}

async function contentObjection(parsed: Parsed, repo: Repository, cwd: string, check: AbsoluteCheck, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const revs: string[] = [];
  const pathspecs = [...parsed.paths];
  let blobsByPath = 0;
  const candidates = [...parsed.words.map((w) => ({ w, value: false })), ...parsed.values.map((w) => ({ w, value: true }))];
  for (const { w, value } of candidates) {
    if (revPath(w, repo, cwd) !== undefined) {
      blobsByPath++; // checked above, and all that is shown of it
      continue;
    }
    const types = await objectTypes(cwd, rangeSides(w), env);
    if (types.every((t) => t === 'commit')) revs.push(w);
    else if (types.some((t) => t === 'blob' || t === 'tree')) return `${w} names a git object by id, whose content Peon cannot check`;
    else if (value) continue; // an option's value, not a revision
    else if (!parsed.dashed && fs.existsSync(path.resolve(cwd, w))) pathspecs.push(w);
    else return `Peon cannot tell whether ${w} is a revision, a path or an option's value, so what git would print cannot be checked`;
  }
  const walk = parsed.flags.filter((f) => WALKS.test(f));
  const limit = pathspecs.length > 0 ? ['--', ...pathspecs] : ['--'];
  const listings: string[][] = [];
  switch (parsed.sub) {
    case 'diff':
      listings.push(['diff', '--name-only', '-z', '--no-renames', '--no-relative', '--no-ext-diff', '--no-textconv', ...walk, ...revs, ...limit]);
      break;
    case 'show':
      if (revs.length > 0 || blobsByPath === 0) listings.push(['show', '--name-only', '-z', '--format=', '--no-renames', '--no-relative', '-m', ...(revs.length > 0 ? revs.map((r) => (/\.\.|^\^|\^[!@-]/.test(r) ? r : `${r}^{commit}`)) : ['HEAD']), ...limit]);
      break;
    case 'log':
      listings.push(['log', '--name-only', '-z', '--format=', '--no-renames', '--no-relative', '-m', ...walk, ...revs, ...limit]);
      break;
    default: // status -v: staged and unstaged changes
      listings.push(['diff', '--name-only', '-z', '--no-renames', '--no-relative', ...limit], ['diff', '--cached', '--name-only', '-z', '--no-renames', '--no-relative', ...limit]);
  }
  for (const listing of listings) {
    const names = await listPaths(cwd, listing, env);
    if (names === undefined) return `Peon could not list the files git ${parsed.sub} would print`;
    for (const name of names) {
      const why = check(path.join(repo.top, name));
      if (why) return `git ${parsed.sub} would print the content of ${name}: ${why}`;
    }
  }
  return undefined;
}
