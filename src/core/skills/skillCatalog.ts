// Skill discovery (DESIGN.md §4 "read_skill and loadskill"): once, when a session
// starts, at most `maxSkills` valid `<root>/<name>/SKILL.md` become a name → canonical
// path map. The person's own roots come first (~/.peon/skills, the roots in their
// settings, then ~/.claude/skills and ~/.agents/skills), then each workspace folder's
// (.peon/skills, .claude/skills, .agents/skills): a repository cannot shadow a skill of
// the person's. Every skill passed over is listed with its reason, never silently; a
// restricted (untrusted) workspace contributes none. Reading a skill checks again that
// its file still resolves inside the root it was found under.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from '../tools/toolError';
import { openedPath } from '../workspace/safeRead';
import { isWithin } from '../workspace/workspace';
import { parseSkill, type SkillMeta } from './skillFile';

export type SkillScope = 'user' | 'workspace';

export interface Skill extends SkillMeta {
  /** The root it was found under, canonical. */
  readonly root: string;
  /** Its SKILL.md as found (root/name/SKILL.md) and as it resolved. */
  readonly file: string;
  readonly canonical: string;
  /** Where it came from, for cards and warnings (`.peon/skills/x/SKILL.md`, `~/.peon/skills/x/SKILL.md`). */
  readonly source: string;
  readonly scope: SkillScope;
}

export interface SkillProblem {
  /** The file or folder, as shown to the person. */
  readonly source: string;
  readonly reason: string;
}

export interface DiscoveryOptions {
  /** The workspace folders' roots (canonical or not). */
  readonly workspaceRoots: readonly string[];
  readonly home: string;
  /** peon.skills.roots: more folders of the person's (user settings only). */
  readonly userRoots?: readonly string[];
  /** peon.skills.crossTool: also .claude/skills and .agents/skills (default on). */
  readonly crossTool?: boolean;
  /** Restricted Mode (an untrusted workspace) loads no skill from the workspace. */
  readonly trusted: boolean;
  readonly maxSkills: number;
  readonly maxSkillBytes: number;
}

export interface SkillContent {
  readonly skill: Skill;
  /** SKILL.md as read (at most maxSkillBytes, cut at a character boundary). */
  readonly text: string;
  /** The text after the front matter. */
  readonly body: string;
  /** Of the whole file, as it is on disk now. */
  readonly sha256: string;
  readonly bytes: number;
  readonly truncated: boolean;
}

/** Folders of one root kind, in the order they are searched. */
const OWN_ROOT = path.join('.peon', 'skills');
const CROSS_TOOL_ROOTS = [path.join('.claude', 'skills'), path.join('.agents', 'skills')];
/** The largest SKILL.md read at all (hashed whole), at least: past max(4 × maxSkillBytes, this) it is refused. */
const MIN_FILE_CAP = 1024 * 1024;
/** A root's folders looked at, at most (the Agent Skills guide's 2,000). */
const MAX_DIRECTORIES = 2000;

interface Root {
  readonly dir: string;
  readonly scope: SkillScope;
  /** How the person knows it (`~/.peon/skills`, `.claude/skills`). */
  readonly label: string;
}

function rootsOf(options: DiscoveryOptions): Root[] {
  const home = (dir: string): Root => ({ dir: path.join(options.home, dir), scope: 'user', label: `~/${dir.split(path.sep).join('/')}` });
  const crossTool = options.crossTool ?? true;
  const roots: Root[] = [home(OWN_ROOT)];
  for (const dir of options.userRoots ?? []) roots.push({ dir: path.resolve(dir.replace(/^~(?=$|[\\/])/, options.home)), scope: 'user', label: dir });
  if (crossTool) roots.push(...CROSS_TOOL_ROOTS.map(home));
  const several = options.workspaceRoots.length > 1;
  for (const ws of options.workspaceRoots) {
    for (const dir of [OWN_ROOT, ...(crossTool ? CROSS_TOOL_ROOTS : [])]) {
      const rel = dir.split(path.sep).join('/');
      roots.push({ dir: path.join(ws, dir), scope: 'workspace', label: several ? `${path.basename(ws)}/${rel}` : rel });
    }
  }
  return roots;
}

const realpath = (p: string): string | undefined => {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
};

/** At most `max` bytes of a file as UTF-8 (cut at a character boundary), its size and the hash of all of it. */
function readBounded(file: string, max: number, within: string): { text: string; bytes: number; sha256: string; truncated: boolean } {
  // Never opened unless it is a regular file (a FIFO would block the host), and opened without waiting either way.
  const before = fs.statSync(file);
  if (!before.isFile()) throw new ToolError('invalid_input', `${file} is not a regular file.`);
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  try {
    // What was opened, not what the name meant a moment ago: a folder on the way swapped for a link is caught here.
    const opened = openedPath(fd);
    if (opened !== undefined && !isWithin(within, opened)) throw new ToolError('permission_denied', `${file} resolved outside its root while it was opened.`);
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new ToolError('invalid_input', `${file} is not a regular file.`);
    // Another name of the same file may be anywhere (~/.aws/credentials): a skill is one file with one name.
    if (stat.nlink > 1) throw new ToolError('permission_denied', `${file} has ${stat.nlink} hard links, and another may be outside its root; a skill's SKILL.md must have one name.`);
    const cap = Math.max(4 * max, MIN_FILE_CAP);
    if (stat.size > cap) throw new ToolError('too_large', `${file} is ${stat.size} bytes, more than a skill may be (${cap}: four times peon.skills.maxSkillBytes).`);
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let kept = 0;
    let total = 0;
    const chunk = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      hash.update(chunk.subarray(0, n));
      total += n;
      if (kept < max) {
        const take = Math.min(n, max - kept);
        head.push(Buffer.from(chunk.subarray(0, take)));
        kept += take;
      }
    }
    let bytes = Buffer.concat(head);
    const truncated = total > kept;
    // Never end inside a character: drop a partial UTF-8 sequence at the cut.
    if (truncated) {
      let end = bytes.length;
      while (end > 0 && bytes.length - end < 3 && (bytes[end - 1]! & 0xc0) === 0x80) end--;
      if (end > 0 && bytes[end - 1]! >= 0xc0) end--;
      bytes = bytes.subarray(0, end);
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new ToolError('not_utf8', `${file} is not valid UTF-8.`);
    }
    return { text, bytes: total, sha256: hash.digest('hex'), truncated };
  } finally {
    fs.closeSync(fd);
  }
}

export class SkillCatalog {
  private readonly byName = new Map<string, Skill>();
  readonly problems: SkillProblem[] = [];

  private constructor(private readonly maxSkillBytes: number) {}

  static empty(): SkillCatalog {
    return new SkillCatalog(0);
  }

  static discover(options: DiscoveryOptions): SkillCatalog {
    const catalog = new SkillCatalog(options.maxSkillBytes);
    const seen = new Set<string>();
    for (const root of rootsOf(options)) {
      const canonicalRoot = realpath(root.dir);
      if (!canonicalRoot || seen.has(canonicalRoot)) continue;
      seen.add(canonicalRoot);
      if (root.scope === 'workspace' && !options.trusted) {
        catalog.problems.push({ source: root.label, reason: 'not loaded: the workspace is not trusted (Restricted Mode)' });
        continue;
      }
      catalog.scan(root, canonicalRoot, options.maxSkills);
    }
    return catalog;
  }

  private scan(root: Root, canonicalRoot: string, maxSkills: number): void {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(root.dir, { withFileTypes: true });
    } catch (error) {
      this.problems.push({ source: root.label, reason: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (entries.length > MAX_DIRECTORIES) {
      this.problems.push({ source: root.label, reason: `holds ${entries.length} entries; only the first ${MAX_DIRECTORIES} were looked at` });
      entries = entries.slice(0, MAX_DIRECTORIES);
    }
    for (const entry of entries) {
      if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
      const source = `${root.label}/${entry.name}/SKILL.md`;
      const file = path.join(root.dir, entry.name, 'SKILL.md');
      if (!fs.existsSync(file)) {
        if (entry.isDirectory() && !fs.existsSync(path.join(root.dir, entry.name, 'skill.md'))) continue; // a folder of something else
        this.problems.push({ source, reason: fs.existsSync(path.join(root.dir, entry.name, 'skill.md')) ? 'the file must be named SKILL.md' : 'not found (a dangling link?)' });
        continue;
      }
      const canonical = realpath(file);
      if (!canonical || !isWithin(canonicalRoot, canonical)) {
        this.problems.push({ source, reason: `resolves outside ${root.label}; a skill's files must stay in its root` });
        continue;
      }
      let read;
      try {
        read = readBounded(canonical, this.maxSkillBytes, canonicalRoot);
      } catch (error) {
        this.problems.push({ source, reason: error instanceof Error ? error.message : String(error) });
        continue;
      }
      const parsed = parseSkill(read.text, entry.name);
      if (!parsed.ok) {
        this.problems.push({ source, reason: parsed.reason });
        continue;
      }
      const already = this.byName.get(parsed.meta.name);
      if (already) {
        this.problems.push({ source, reason: `"${parsed.meta.name}" is already defined by ${already.source}` });
        continue;
      }
      if (this.byName.size >= maxSkills) {
        this.problems.push({ source, reason: `not loaded: peon.skills.maxSkills (${maxSkills}) reached` });
        continue;
      }
      this.byName.set(parsed.meta.name, { ...parsed.meta, root: canonicalRoot, file, canonical, source, scope: root.scope });
    }
  }

  get size(): number {
    return this.byName.size;
  }

  list(): Skill[] {
    return [...this.byName.values()];
  }

  get(name: string): Skill | undefined {
    return this.byName.get(name);
  }

  /** The problems as warning lines ("Skill .claude/skills/x/SKILL.md skipped: …"). */
  get warnings(): string[] {
    return this.problems.map((p) => `Skill ${p.source} skipped: ${p.reason}.`);
  }

  /**
   * A skill's SKILL.md, read again: only a name from the map, and only while its file
   * still resolves inside the root it was found under (swapped for a link out: refused).
   */
  read(name: string): SkillContent {
    const skill = this.byName.get(name);
    if (!skill) {
      const known = this.list().map((s) => s.name);
      throw new ToolError('not_found', `There is no skill "${name}". ${known.length ? `Skills: ${known.slice(0, 50).join(', ')}${known.length > 50 ? ', …' : ''}.` : 'No skills were found in this session.'}`);
    }
    const canonical = realpath(skill.file);
    if (!canonical) throw new ToolError('not_found', `The skill "${name}" is gone: ${skill.source} no longer exists.`);
    if (!isWithin(skill.root, canonical) || realpath(path.dirname(path.dirname(skill.file))) !== skill.root) {
      throw new ToolError('permission_denied', `The skill "${name}" now resolves outside its root (${skill.source} → ${canonical}), so it is not read.`);
    }
    const read = readBounded(canonical, this.maxSkillBytes, skill.root);
    // Still the skill it was: a file swapped for something else (a credentials file) is not one.
    const parsed = parseSkill(read.text, path.basename(path.dirname(skill.file)));
    if (!parsed.ok) throw new ToolError('invalid_input', `The skill "${name}" is no longer a valid skill (${skill.source}: ${parsed.reason}), so it is not read.`);
    return { skill, text: read.text, body: parsed.body, sha256: read.sha256, bytes: read.bytes, truncated: read.truncated };
  }
}
