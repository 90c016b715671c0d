// Pattern rules of peon.permission.rules (DESIGN.md §5): `{ "bash": { "npm test": "allow",
// "curl *": "deny" } }` matches commands segment by segment; `{ "write": { "src/**":
// "allow" } }` matches the paths a file tool touches, as the workspace shows them.
import picomatch from 'picomatch';
import { hostKey } from '../web/hostPolicy';
import type { PermissionMode } from './gate';

export interface PatternRule {
  readonly pattern: string;
  readonly mode: PermissionMode;
  /** Which setting and scope it came from, for the card. */
  readonly source: string;
}

const cache = new Map<string, RegExp>();

/**
 * A command pattern: the segment's words joined by single spaces, `*` any run of
 * characters; a trailing ` *` also matches nothing (`npm run *` matches `npm run`).
 */
export function commandMatches(pattern: string, segment: string): boolean {
  let regex = cache.get(pattern);
  if (!regex) {
    const normal = pattern.trim().replace(/\s+/g, ' ');
    const open = normal.endsWith(' *');
    const body = (open ? normal.slice(0, -2) : normal).split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
    regex = new RegExp(`^${body}${open ? '( .*)?' : ''}$`, 's');
    cache.set(pattern, regex);
  }
  return regex.test(segment.trim().replace(/\s+/g, ' '));
}

/** A path glob against a path as the workspace shows it (relative inside, absolute outside). */
export function pathMatches(pattern: string, display: string): boolean {
  return picomatch.isMatch(display, pattern, { dot: true });
}

/**
 * A host glob (`*.python.org`, `docs.example.org`, `[::1]`) against a request's host, both
 * compared as hosts are (hostKey: case, a trailing dot, brackets, the IP's spelling).
 */
export function hostMatches(pattern: string, host: string): boolean {
  return picomatch.isMatch(hostKey(host), hostKey(pattern), { nocase: true, dot: true });
}

const STRICTNESS: Readonly<Record<PermissionMode, number>> = { allow: 0, 'semi-ask': 1, 'semi-judge': 1, ask: 2, deny: 3 };

/** Among the rules that match, the strictest: deny beats ask beats allow. */
export function strictestMatch(rules: readonly PatternRule[], matches: (pattern: string) => boolean): PatternRule | undefined {
  let best: PatternRule | undefined;
  for (const rule of rules) if (matches(rule.pattern) && (!best || STRICTNESS[rule.mode] > STRICTNESS[best.mode])) best = rule;
  return best;
}
