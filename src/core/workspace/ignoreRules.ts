// .gitignore (nested ones too, plus .git/info/exclude) and .peonignore, with git's
// semantics: a path is ignored when a rule matches it or any directory above it.
import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export const IGNORE_FILES = ['.gitignore', '.peonignore'] as const;

export class IgnoreRules {
  private readonly cache = new Map<string, Ignore | null>();

  constructor(private readonly root: string) {}

  /** Forget every rules file read: one of them changed. */
  clear(): void {
    this.cache.clear();
  }

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
      const dir = parts.slice(0, depth - 1).join('/');
      if (this.isEntryIgnored(dir, parts[depth - 1]!, depth < parts.length || isDirectory)) return true;
    }
    return false;
  }

  /** One entry of `relativeDir` (whose parents are not ignored): see `forDirectory`. */
  isEntryIgnored(relativeDir: string, name: string, isDirectory: boolean): boolean {
    return this.forDirectory(relativeDir)(name, isDirectory);
  }

  /**
   * The verdict for the entries of one directory, with the rules files that apply (its
   * own and its ancestors') looked up once, for walkers. A nearer rules file overrides a
   * farther one, negation included. `hasOwnRulesFile: false` skips reading the
   * directory's own (absent) rules files.
   */
  forDirectory(relativeDir: string, hasOwnRulesFile = true): (name: string, isDirectory: boolean) => boolean {
    const parts = relativeDir === '' ? [] : relativeDir.split('/');
    if (parts[0] === '.git') return () => true;
    const applicable: { rules: Ignore; offset: number }[] = [];
    const deepest = hasOwnRulesFile || relativeDir === '' ? parts.length : parts.length - 1;
    for (let depth = 0; depth <= deepest; depth++) {
      const base = parts.slice(0, depth).join('/');
      const rules = this.rulesIn(base);
      if (rules) applicable.push({ rules, offset: base === '' ? 0 : base.length + 1 });
    }
    return (name, isDirectory) => {
      if (relativeDir === '' && name === '.git') return true;
      const probe = (relativeDir === '' ? name : `${relativeDir}/${name}`) + (isDirectory ? '/' : '');
      let ignored = false;
      for (const { rules, offset } of applicable) {
        const verdict = rules.test(probe.slice(offset));
        if (verdict.ignored) ignored = true;
        else if (verdict.unignored) ignored = false;
      }
      return ignored;
    };
  }
}
