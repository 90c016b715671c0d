// What of a repository a sandboxed command may not change, because git runs what it
// names (DESIGN.md §9): the `.git` entry; for a worktree's `.git` file, the git folder it
// names and that folder's common folder (the `.bare` layout); the hooks folder
// `core.hooksPath` names; and every config file an `include.path` or `includeIf` pulls
// in — wherever they are inside the workspace. What does not exist yet is returned as
// absent, so the sandbox can cover it before the command runs (it cannot be created
// then) and look for it after.
import fs from 'node:fs';
import path from 'node:path';

/** Paths in code-unit order (localeCompare's collation costs a millisecond over the hundreds a command has). */
export const byPath = (a: { readonly path: string }, b: { readonly path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

export interface Absent {
  readonly path: string;
  /** A folder (hooks, a git folder) or a file (a config). */
  readonly dir: boolean;
  /** Only looked for after the command, not covered while it runs (nothing reads it before the person acts). */
  readonly later?: boolean;
}

export interface GitProtection {
  /** Existing paths, at their real location, to bind read-only. */
  readonly protect: string[];
  readonly absent: Absent[];
}

const MAX_INCLUDES = 32;

/**
 * The `core.hooksPath` values the person's own git configuration sets for every
 * repository: the global and system files (and what they include), and the
 * GIT_CONFIG_KEY_n variables. A relative one (`.githooks`) names a folder in each
 * repository's work tree, which a command could otherwise fill with hooks.
 */
export function personHooksPaths(env: NodeJS.ProcessEnv, home: string | undefined): string[] {
  const out: string[] = [];
  const xdg = env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : home ? path.join(home, '.config') : undefined;
  const files = [
    ...(env.GIT_CONFIG_GLOBAL ? [env.GIT_CONFIG_GLOBAL] : [...(xdg ? [path.join(xdg, 'git', 'config')] : []), ...(home ? [path.join(home, '.gitconfig')] : [])]),
    ...(env.GIT_CONFIG_NOSYSTEM ? [] : [env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig']),
  ];
  const read = new Set<string>();
  while (files.length > 0 && read.size < MAX_INCLUDES) {
    const file = files.shift()!;
    if (read.has(file)) continue;
    read.add(file);
    const text = readText(file);
    if (text === undefined) continue;
    for (const { section, key, value } of configEntries(text)) {
      if (section === 'core' && key === 'hookspath') out.push(expandHome(value, home));
      if ((section === 'include' || section === 'includeif') && key === 'path') files.push(path.resolve(path.dirname(file), expandHome(value, home)));
    }
  }
  const count = Number(env.GIT_CONFIG_COUNT ?? 0);
  for (let i = 0; i < Math.min(count, 100); i++) if (env[`GIT_CONFIG_KEY_${i}`]?.toLowerCase() === 'core.hookspath') out.push(expandHome(env[`GIT_CONFIG_VALUE_${i}`] ?? '', home));
  return out.filter((p) => p !== '');
}

/** What `entries` (`.git` folders or files found in the workspace) need protected; `hooksPaths`: the person's own (personHooksPaths). */
export function gitProtection(entries: readonly string[], home: string | undefined, hooksPaths: readonly string[] = []): GitProtection {
  const protect = new Set<string>();
  const absent = new Map<string, Absent>();
  const note = (target: string, dir: boolean): void => {
    const real = realOf(target);
    if (real) protect.add(real);
    else absent.set(target, { path: target, dir });
  };
  for (const entry of entries) {
    const worktree = path.dirname(entry);
    note(entry, true);
    for (const hooks of hooksPaths) note(path.resolve(worktree, hooks), true);
    const gitDirs = [entry];
    const gitFile = readText(entry);
    if (gitFile !== undefined) {
      const named = /^gitdir:\s*(.+?)\s*$/m.exec(gitFile)?.[1];
      if (named) gitDirs[0] = path.resolve(worktree, named);
    }
    const common = readText(path.join(gitDirs[0]!, 'commondir'))?.trim();
    if (common) gitDirs.push(path.resolve(gitDirs[0]!, common));
    const configs: string[] = [];
    for (const gitDir of gitDirs) {
      if (gitDir !== entry) note(gitDir, true);
      configs.push(path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree'));
    }
    const read = new Set<string>();
    while (configs.length > 0 && read.size < MAX_INCLUDES) {
      const config = configs.shift()!;
      if (read.has(config)) continue;
      read.add(config);
      const text = readText(config);
      if (text === undefined) continue;
      for (const { section, key, value } of configEntries(text)) {
        const expanded = expandHome(value, home);
        if (section === 'core' && key === 'hookspath') note(path.resolve(worktree, expanded), true);
        if ((section === 'include' || section === 'includeif') && key === 'path') {
          const included = path.resolve(path.dirname(config), expanded);
          note(included, false);
          configs.push(included);
        }
      }
    }
  }
  return { protect: [...protect].sort(), absent: [...absent.values()].sort(byPath) };
}

/** `[section "sub"]` headers and `key = value` lines of a git config: enough to find what it names. */
export function configEntries(text: string): { section: string; key: string; value: string }[] {
  const out: { section: string; key: string; value: string }[] = [];
  let section = '';
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      line = header[2]!.trim(); // `[core] hooksPath = x` on one line
      if (line === '') continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!entry) continue;
    const value = entry[2]!.replace(/\s[#;].*$/, '').trim().replace(/^"(.*)"$/, '$1');
    out.push({ section, key: entry[1]!.toLowerCase(), value });
  }
  return out;
}

function expandHome(value: string, home: string | undefined): string {
  return home && (value === '~' || value.startsWith('~/')) ? path.join(home, value.slice(1)) : value;
}

function realOf(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/** A regular file's text (a `.git` file, a config), or undefined for a folder or nothing. */
function readText(p: string): string | undefined {
  try {
    return fs.statSync(p).isFile() ? fs.readFileSync(p, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
