// Whether a git command on the read-only list may really run without asking (gate review
// F4, F5): the repository's config must start no program, `rev:path` names a path from
// the repository's top (as git reads it), an object named by id must be a commit, and a
// command that prints file contents (a diff, a patch, `show`, a pickaxe search) may only
// print paths a read would not ask for: the gate lists them first, with git itself, from
// the same revisions, walk options and pathspecs. An option Peon does not know asks.
import fs from 'node:fs';
import path from 'node:path';
import { gitSplit, isLong } from './commandOptions';
import { configObjection, configValue, findRepository, GitInspectError, listPaths, objectTypes, remoteCredentials, type Repository } from './gitInspect';

/** Why reading an absolute path would ask, or undefined. */
export type AbsoluteCheck = (absolute: string) => string | undefined;

/** Options of log, show, diff and blame whose value is the next word. */
const SEPARATE_VALUE = new Set([
  '-n', '--max-count', '--skip', '--since', '--after', '--until', '--before', '--author', '--committer', '--grep', '--grep-reflog', '--min-parents', '--max-parents',
  '-S', '-G', '-L', '-O', '--find-object', '--diff-filter', '--src-prefix', '--dst-prefix', '--line-prefix', '--encoding', '--date', '-U', '--unified', '--inter-hunk-context',
  '--word-diff-regex', '--color-moved-ws', '-I', '--ignore-matching-lines', '--anchored', '--exclude', '--since-as-filter', '--rotate-to', '--skip-to',
  '--output-indicator-new', '--output-indicator-old', '--output-indicator-context', '--contents', '--ignore-rev', '--ignore-revs-file',
]);

/**
 * Options that change only how the output looks, or narrow what it shows (dropping them
 * from the listing lists more, never less). The listing adds its own format.
 */
const SHAPE = new RegExp(
  '^(' +
    [
      '-p', '-u', '--patch', '-s', '--no-patch', '--patch-with-stat', '--patch-with-raw', '-U\\d*', '--unified(=\\d+)?', '--stat(-[a-z]+)?(=.*)?', '--numstat', '--shortstat',
      '--dirstat(-by-file)?(=.*)?', '--cumulative', '--summary', '--compact-summary', '--name-only', '--name-status', '--raw', '-z', '--oneline', '--format=.*', '--pretty(=.*)?',
      '--abbrev(=\\d+)?', '--abbrev-commit', '--no-abbrev(-commit)?', '--decorate(=.*)?', '--no-decorate', '--source', '--graph', '--color(=.*)?', '--no-color', '--color-moved(=.*)?',
      '--no-color-moved(-ws)?', '--color-moved-ws=.*', '--word-diff(=.*)?', '--color-words(=.*)?', '--word-diff-regex=.*', '-w', '-b', '--ignore-(all-space|space-change|space-at-eol|cr-at-eol|blank-lines)',
      '--minimal', '--patience', '--histogram', '--anchored=.*', '--diff-algorithm=.*', '--(no-)?indent-heuristic', '--date=.*', '--relative-date', '--reverse', '--topo-order',
      '--date-order', '--author-date-order', '--no-renames', '-M\\d*%?', '--find-renames(=.*)?', '-B[\\d/%]*',
      '--break-rewrites(=.*)?', '-D', '--irreversible-delete', '-l\\d+', '--full-index', '--binary', '--text', '-a', '--no-prefix', '--default-prefix', '--(src|dst|line)-prefix=.*',
      '--no-ext-diff', '--no-textconv', '--ita-(in)?visible-in-index', '-W', '--function-context', '--inter-hunk-context=\\d+', '--exit-code', '--quiet', '--check', '--parents',
      '--children', '--left-right', '--cherry-mark', '--show-linear-break(=.*)?', '--(no-)?expand-tabs(=\\d+)?', '--encoding=.*', '--no-notes',
      '--(no-)?(use-)?mailmap', '--log-size', '--full-history', '--simplify-(merges|by-decoration)', '--sparse', '--dense', '--ancestry-path(=.*)?', '--no-walk(=.*)?',
      '--first-parent', '--(no-)?merges', '--(min|max)-parents=\\d+', '--no-(min|max)-parents', '-n\\d+', '-\\d+', '--max-count=\\d+', '--skip=\\d+',
      '--(since|after|until|before|since-as-filter)=.*', '--(author|committer|grep|grep-reflog)=.*', '--all-match', '--invert-grep', '-i', '--regexp-ignore-case',
      '--basic-regexp', '-E', '--extended-regexp', '-F', '--fixed-strings', '-P', '--perl-regexp', '--(left|right)-only', '--cherry(-pick)?', '--not',
      '--ignore-missing', '-R', '--(no-)?relative(=.*)?', '--diff-filter=.*', '-S.*', '-G.*', '--pickaxe-(all|regex)', '--find-object=.*', '-L.*', '--ignore-submodules(=.*)?',
      '--output-indicator-(new|old|context)=.*', '--(rotate|skip)-to=.*', '--ws-error-highlight=.*', '-m', '--cc', '-c', '--dd', '--remerge-diff', '--diff-merges=.*',
      '--no-diff-merges', '--combined-all-paths', '-t', '-r', '--root', '--no-commit-id', '--always', '--pickaxe-all',
    ].join('|') +
    ')$',
);
/** Options that choose which commits or trees are shown: the listing keeps them. */
const WALKS = /^(--all|--branches(=.*)?|--tags(=.*)?|--remotes(=.*)?|--glob=.*|--exclude=.*|--reflog|-g|--walk-reflogs|--do-walk|--boundary|--full-diff|--follow|--cached|--staged|--merge-base)$/;
/** `git status` options: with -v it prints staged (and with -vv unstaged) diffs, listed from the pathspecs alone. */
const STATUS_SHAPE = /^(-v+|--v[a-z]*|-s|--short|-b|--branch|--porcelain(=.*)?|--long|-u.*|--untracked-files(=.*)?|--ignored(=.*)?|--ignore-submodules(=.*)?|-z|--(no-)?column(=.*)?|--(no-)?ahead-behind|--(no-)?renames|--find-renames(=.*)?|--show-stash)$/;
const PICKAXE = /^(-S|-G|--find-object|-L|--pickaxe-)/;
const NAMES_ONLY = /^(--stat.*|--numstat|--shortstat|--name-only|--name-status|--raw|--summary|--dirstat.*|--compact-summary|-s|--no-patch|--quiet)$/;
const PATCH = /^(-p|-u|--patch|--patch-with-stat|--patch-with-raw|-U.*|--unified(=.*)?|--word-diff.*|--color-words.*|--cc|-c|--dd|--remerge-diff|--binary|--full-diff|-W|--function-context|--check|--text|-a|-m|--diff-merges.*)$/;

/** Whether `git sub` with `flags` prints file contents (or tells which files hold a string). */
function printsContent(sub: string, flags: readonly string[]): boolean {
  if (flags.some((o) => PICKAXE.test(o))) return true;
  switch (sub) {
    case 'diff':
    case 'show':
      return !flags.some((o) => NAMES_ONLY.test(o)) || flags.some((o) => PATCH.test(o));
    case 'log':
      return flags.some((o) => PATCH.test(o) || o === '--do-walk');
    case 'status':
      // parse-options takes any unique prefix: --verb, --ve.
      return flags.some((o) => /^-v+$/.test(o) || isLong(o, 'verbose', 1));
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
    const parsed = parse(args);
    const repo = await findRepository(cwd, env);
    // Outside a repository, `git diff a b` is `git diff --no-index a b`: any two paths, recursively.
    if (!repo) return parsed.sub === 'diff' ? 'outside a git repository, git diff compares any files it is given, folders recursively' : undefined;
    const config = await configObjection(repo, cwd, env);
    if (config) return config;
    if (parsed.sub === 'remote' && parsed.flags.some((f) => f === '-v' || isLong(f, 'verbose', 1))) {
      const leak = await remoteCredentials(cwd, env);
      if (leak) return leak;
    }
    // `HEAD:path` words, wherever they stand, name a path from the repository's top.
    for (const word of [...parsed.words, ...parsed.values, ...parsed.paths]) {
      const named = revPath(word, repo, cwd);
      const why = named === undefined ? undefined : check(named);
      if (why) return `${word} names ${why}`;
    }
    if (!printsContent(parsed.sub, parsed.flags)) return undefined;
    return await contentObjection(parsed, repo, cwd, check, env);
  } catch (error) {
    if (error instanceof GitInspectError) return `Peon could not check what git would print: ${error.message}`;
    throw error;
  }
}

async function contentObjection(parsed: Parsed, repo: Repository, cwd: string, check: AbsoluteCheck, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const known = (f: string): boolean => (parsed.sub === 'status' ? STATUS_SHAPE.test(f) : SHAPE.test(f) || WALKS.test(f) || SEPARATE_VALUE.has(f));
  const unknown = parsed.flags.find((f) => !known(f));
  if (unknown) return `git ${parsed.sub} ${unknown} is an option Peon does not know, so what it would print cannot be checked`;
  if ((await configValue(cwd, 'diff.submodule', env)) === 'diff') return 'diff.submodule=diff makes git print the files of submodules, which Peon does not list';
  // Copy detection shows the lines of a source the listing does not name (it did not change).
  if (/^cop(y|ies)$/i.test((await configValue(cwd, 'diff.renames', env)) ?? '')) return 'diff.renames=copies makes git show lines of files a copy came from, which Peon does not list';
  const revs: string[] = [];
  const pathspecs = [...parsed.paths];
  let blobsByPath = 0;
  const candidates = [...parsed.words.map((w) => ({ w, value: false })), ...parsed.values.map((w) => ({ w, value: true }))];
  for (const { w, value } of candidates) {
    if (revPath(w, repo, cwd) !== undefined) {
      // A blob by path was checked above, and is all that is shown of it; a tree shows every file in it.
      if ((await objectTypes(cwd, [w], env, false))[0] !== 'blob') return `${w} names a folder of a commit (or nothing Peon can check), whose files git would print`;
      blobsByPath++;
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
  const limit = ['--', ...pathspecs];
  const names = ['--name-only', '-z', '--no-renames', '--no-relative', '--no-ext-diff', '--no-textconv'];
  const listings: string[][] = [];
  switch (parsed.sub) {
    case 'diff':
      listings.push(['diff', ...names, ...walk, ...revs, ...limit]);
      break;
    case 'show':
      if (revs.length > 0 || blobsByPath === 0) listings.push(['show', ...names, '--format=', '-m', ...walk, ...(revs.length > 0 ? revs.map((r) => (/\.\.|^\^|\^[!@-]/.test(r) ? r : `${r}^{commit}`)) : ['HEAD']), ...limit]);
      break;
    case 'log':
      listings.push(['log', ...names, '--format=', '-m', ...walk, ...revs, ...limit]);
      break;
    default: // status -v: staged and unstaged changes
      listings.push(['diff', ...names, ...limit], ['diff', '--cached', ...names, ...limit]);
  }
  for (const listing of listings) {
    const found = await listPaths(cwd, listing, env);
    if (found === undefined) return `Peon could not list the files git ${parsed.sub} would print`;
    for (const name of found) {
      const why = check(path.join(repo.top, name));
      if (why) return `git ${parsed.sub} would print the content of ${name}: ${why}`;
    }
  }
  return undefined;
}
