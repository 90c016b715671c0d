// .gitignore (nested ones too, plus .git/info/exclude) and .peonignore, with git's
// semantics: a path is ignored when a rule matches it or any directory above it.
import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export const IGNORE_FILES = ['.gitignore', '.peonignore'] as const;

export class IgnoreRules {
  private readonly cache = new Map<string, Ignore | null>();

  constructor(private readonly root: string) {}

  /** The rules declared in one directory (workspace-relative, '' for the root), or null. */
  rulesIn(relativeDir: string): Ignore | null {
    const cached = this.cache.get(relativeDir);
    if (cached !== undefined) return cached;
    const dir = path.join(this.root, relativeDir);
    const sources = IGNORE_FILES.map((name) => path.join(dir, name));
    if (relativeDir === '') sources.unshift(path.join(this.root, '.git', 'info', 'exclude'));
    let rules: Ignore | null = null;
    for (const file of sources) {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      rules ??= ignore();
      rules.add(text);
    }
    this.cache.set(relativeDir, rules);
    return rules;
  }

  /**
   * Whether a workspace-relative path ('/'-separated) is ignored. Checks every directory
   * on the way down, as git does: nothing under an ignored directory can be re-included.
   */
  isIgnored(relative: string, isDirectory: boolean): boolean {
    if (relative === '') return false;
    const parts = relative.split('/');
    for (let depth = 1; depth <= parts.length; depth++) {
      if (this.decide(parts.slice(0, depth), depth < parts.length || isDirectory)) return true;
    }
    return false;
  }

  /** For walkers that descend one directory at a time: `name` in `relativeDir`, whose parents are not ignored. */
  isEntryIgnored(relativeDir: string, name: string, isDirectory: boolean): boolean {
    return this.decide(relativeDir === '' ? [name] : [...relativeDir.split('/'), name], isDirectory);
  }

  /** One path's own verdict: rules files nearer the path override farther ones (negation included). */
  private decide(parts: readonly string[], isDirectory: boolean): boolean {
    if (parts[0] === '.git') return true;
    let ignored = false;
    for (let base = 0; base < parts.length; base++) {
      const rules = this.rulesIn(parts.slice(0, base).join('/'));
      if (!rules) continue;
      const verdict = rules.test(parts.slice(base).join('/') + (isDirectory ? '/' : ''));
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }
}
