// The grep tool's pattern syntax is Go's regexp (RE2). One hand-written scan checks it
// and writes it twice: for ripgrep (Rust regex syntax, same meaning) and as a JS RegExp
// for the pure-Node fallback. Both match one line at a time with ripgrep's default,
// Unicode-aware semantics (`\w`, `\d`, `\s`, `\b` are Unicode; `.` matches anything but
// a newline), so the two backends find the same lines.
//
// Bytes that are not valid UTF-8 reach the JS side as lone surrogates (U+DC80..U+DCFF,
// see lineBlocks.ts); ripgrep never matches such bytes with `.`, a negated class or a
// property, so no JS class here matches a surrogate either (`--\p{Cs}` / `^...\p{Cs}`).
import { ToolError } from '../tools/toolError';

export interface Re2Pattern {
  /** For `rg -e`: Rust regex syntax. */
  readonly rust: string;
  /** For `new RegExp(js, 'sv' + (ignoreCase ? 'i' : ''))`, tested against one line (without its newline). */
  readonly js: string;
  readonly ignoreCase: boolean;
}

export interface LineMatcher {
  /** Tests one line. */
  readonly line: RegExp;
  /** Multi-line variant: true for a block of lines whenever `line` is true for one of them (a prefilter). */
  readonly block: RegExp;
}

const WORD = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}'; // Rust's Unicode \w (UTS#18 Annex C)
const CS = '\\p{Cs}';
const PERL: Readonly<Record<string, string>> = {
  d: '\\p{Nd}',
  D: `[^\\p{Nd}${CS}]`,
  s: '\\p{White_Space}',
  S: `[^\\p{White_Space}${CS}]`,
  w: `[${WORD}]`,
  W: `[^${WORD}${CS}]`,
};
const W = `[${WORD}]`;
const BOUNDARY: Readonly<Record<string, string>> = {
  b: `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`,
  B: `(?:(?<=${W})(?=${W})|(?<!${W})(?!${W}))`,
};
// ASCII classes as lo/hi character pairs: '09AZ' is 0-9 and A-Z.
const POSIX: Readonly<Record<string, string>> = {
  alnum: '09AZaz', alpha: 'AZaz', ascii: '\x00\x7f', blank: '\t\t  ', cntrl: '\x00\x1f\x7f\x7f', digit: '09', graph: '!~',
  lower: 'az', print: ' ~', punct: '!/:@[`{~', space: '\t\r  ', upper: 'AZ', word: '09AZaz__', xdigit: '09AFaf',
};
const CATEGORIES = new Set(
  'C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '),
);
const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { a: 7, f: 12, t: 9, r: 13, v: 11 };
const MAX_REPEAT = 1000; // Go's limit

const isAlnum = (cp: number): boolean => (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
// Go: a backslash before any ASCII character that is not a letter or digit means that character.
const isEscapableAscii = (cp: number): boolean => cp < 0x80 && !isAlnum(cp);
const hex = (cp: number): string => cp.toString(16).toUpperCase();
// Every ASCII character that is not a letter or digit is written as a code point escape:
// never a syntax character in either dialect, inside or outside a class.
const rustChar = (cp: number): string => (isAlnum(cp) || cp > 0x7f ? String.fromCodePoint(cp) : `\\x{${hex(cp)}}`);
const jsChar = (cp: number): string => (isAlnum(cp) || cp > 0x7f ? String.fromCodePoint(cp) : `\\u{${hex(cp)}}`);

type Escape =
  | { kind: 'char'; cp: number }
  | { kind: 'class'; rust: string; js: string }
  | { kind: 'assert'; rust: string; js: string }
  | { kind: 'quote' };

interface Mark {
  rust: number;
  js: number;
}

function isScript(name: string): boolean {
  try {
    return new RegExp(`\\p{Script=${name}}`, 'u').source !== '';
  } catch {
    return false;
  }
}

class Scanner {
  private i = 0;
  private readonly cps: number[];
  private readonly rust: string[] = [];
  private readonly js: string[] = [];
  private readonly groups: Mark[] = [];
  private readonly names = new Set<string>();
  /** What a following quantifier applies to. */
  private last: (Mark & { kind: 'atom' | 'assert' | 'repeat' }) | null = null;
  private started = false;
  ignoreCase = false;

  constructor(private readonly source: string) {
    this.cps = Array.from(source, (ch) => ch.codePointAt(0)!);
  }

  private fail(what: string, hint: string, at = this.i): never {
    throw new ToolError('invalid_input', `The grep pattern ${JSON.stringify(this.source)} is not supported: ${what} (at offset ${at}). ${hint}`, {
      offset: at,
    });
  }

  private peek(offset = 0): number | undefined {
    return this.cps[this.i + offset];
  }

  private lookingAt(text: string): boolean {
    return String.fromCodePoint(...this.cps.slice(this.i, this.i + text.length)) === text;
  }

  scan(): Re2Pattern {
    while (this.i < this.cps.length) this.token();
    if (this.groups.length > 0) this.fail('missing closing )', 'Balance the parentheses.');
    return { rust: (this.ignoreCase ? '(?i)' : '') + this.rust.join(''), js: this.js.join(''), ignoreCase: this.ignoreCase };
  }

  private emit(rust: string, js: string, kind: 'atom' | 'assert' = 'atom'): void {
    this.last = { rust: this.rust.length, js: this.js.length, kind };
    this.rust.push(rust);
    this.js.push(js);
    this.started = true;
  }

  private literal(cp: number): void {
    if (cp === 0x0a) this.fail('a newline', 'grep matches one line at a time; search for each line separately.');
    if (cp >= 0xd800 && cp <= 0xdfff) this.fail('an unpaired surrogate', 'Use valid Unicode text.');
    this.emit(rustChar(cp), jsChar(cp));
  }

  private token(): void {
    const cp = this.peek()!;
    const ch = String.fromCodePoint(cp);
    if (ch === '(') return this.openGroup();
    if (ch === ')') return this.closeGroup();
    if (ch === '[') return this.characterClass();
    if (ch === '\\') return this.escapeOutsideClass();
    if (ch === '*' || ch === '+' || ch === '?') return this.repeat(ch, 1);
    if (ch === '{') {
      const counted = /^\{(\d+)(,(\d*))?\}/.exec(String.fromCodePoint(...this.cps.slice(this.i, this.i + 24)));
      if (counted) return this.repeat(counted[0], counted[0].length, counted);
    }
    this.i++;
    if (ch === '|') this.open('|');
    else if (ch === '.') this.emit('.', `[^${CS}]`);
    else if (ch === '^' || ch === '$') this.emit(ch, ch, 'assert');
    else this.literal(cp);
  }

  private repeat(op: string, length: number, counted?: RegExpExecArray): void {
    if (!this.last) this.fail(`missing argument to repetition operator ${op}`, 'Escape it (\\' + op[0] + ') to match it literally.');
    if (this.last.kind === 'repeat') {
      this.fail(`nested repetition operator ${op}`, 'Possessive (a*+) and doubled quantifiers are not supported; use one quantifier, optionally lazy (a*?).');
    }
    if (counted) {
      const min = Number(counted[1]);
      const max = counted[2] === undefined ? min : counted[3] === '' ? Infinity : Number(counted[3]);
      if (min > MAX_REPEAT || (max !== Infinity && (max > MAX_REPEAT || max < min))) {
        this.fail(`invalid repeat count ${op}`, `Counts go up to ${MAX_REPEAT} and the minimum may not exceed the maximum.`);
      }
    }
    this.i += length;
    let text = op;
    if (this.peek() === 0x3f) {
      text += '?';
      this.i++;
    }
    if (this.last.kind === 'assert') {
      // JS refuses to repeat an assertion directly; a group is the same thing.
      const atom = this.js.splice(this.last.js).join('');
      this.js.push(`(?:${atom})`);
    }
    this.rust.push(text);
    this.js.push(text);
    this.last = { ...this.last, kind: 'repeat' };
  }

  /** Emits what opens an alternative or a group: nothing to repeat right after it. */
  private open(text: string, group = text !== '|'): void {
    if (group) this.groups.push({ rust: this.rust.length, js: this.js.length });
    this.rust.push(text);
    this.js.push(text);
    this.last = null;
    this.started = true;
  }

  private openGroup(): void {
    const at = this.i;
    this.i++;
    let text = '(';
    if (this.peek() === 0x3f) {
      this.i++;
      if (this.lookingAt(':')) {
        this.i++;
        text = '(?:';
      } else if (this.lookingAt('P<') || (this.lookingAt('<') && !this.lookingAt('<=') && !this.lookingAt('<!'))) {
        this.i += this.lookingAt('P<') ? 2 : 1;
        const close = this.cps.indexOf(0x3e, this.i);
        const name = close === -1 ? '' : String.fromCodePoint(...this.cps.slice(this.i, close));
        if (!/^[A-Za-z0-9_]+$/.test(name)) this.fail('an invalid capture group name', 'Names use letters, digits and underscores: (?P<name>...).', at);
        if (this.names.has(name)) this.fail(`a duplicate capture group name ${name}`, 'Give each group its own name.', at);
        this.names.add(name);
        this.i = close + 1; // the name does not matter for grep: both dialects get a plain group
      } else if (this.lookingAt('=') || this.lookingAt('!') || this.lookingAt('<=') || this.lookingAt('<!')) {
        const behind = this.lookingAt('<');
        this.fail(
          `${behind ? 'lookbehind' : 'lookahead'} (?${behind ? '<' : ''}${String.fromCodePoint(this.peek(behind ? 1 : 0)!)}...)`,
          'RE2 has no lookaround. Match the surrounding text as part of the pattern instead, or search for the simpler pattern and check the results.',
          at,
        );
      } else if (this.lookingAt('>')) {
        this.fail('an atomic group (?>...)', 'RE2 never backtracks, so a plain group (?:...) does the same job.', at);
      } else if (this.lookingAt('P=')) {
        this.fail('a backreference (?P=name)', 'RE2 has no backreferences; search for the repeated text itself.', at);
      } else if (this.lookingAt('#')) {
        this.fail('a comment group (?#...)', 'Remove the comment.', at);
      } else {
        return this.flags(at);
      }
    }
    this.open(text);
  }

  /** `(?flags)` or `(?flags:...)`. Only `i` changes anything when each line is matched on its own. */
  private flags(at: number): void {
    const end = this.cps.findIndex((cp, k) => k >= this.i && (cp === 0x29 || cp === 0x3a));
    const text = end === -1 ? '' : String.fromCodePoint(...this.cps.slice(this.i, end));
    if (!/^[imsU]*(-[imsU]*)?$/.test(text) || text === '' || text.endsWith('-')) {
      this.fail(`unsupported group syntax (?${text}`, 'Groups are (...), (?:...) and (?P<name>...); flags are i, m, s, as in (?i).', at);
    }
    const [on = '', off = ''] = text.split('-');
    if (on.includes('U')) this.fail('the ungreedy flag (?U)', 'Use lazy quantifiers such as .*? instead.', at);
    const scoped = this.cps[end] === 0x3a;
    const caseChange = on.includes('i') ? true : off.includes('i') ? false : undefined;
    this.i = end + 1;
    if (caseChange !== undefined && caseChange !== this.ignoreCase) {
      if (scoped || this.started) {
        this.fail('a case-insensitivity flag after the start of the pattern', 'Put (?i) at the very start to make the whole pattern case-insensitive.', at);
      }
      this.ignoreCase = caseChange;
    }
    if (scoped) this.open('(?:');
  }

  private closeGroup(): void {
    const open = this.groups.pop();
    if (!open) this.fail('unexpected )', 'Escape it as \\) to match a parenthesis.');
    this.i++;
    this.rust.push(')');
    this.js.push(')');
    this.last = { ...open, kind: 'atom' };
    this.started = true;
  }

  private escapeOutsideClass(): void {
    const e = this.escape(false);
    if (e.kind === 'char') this.literal(e.cp);
    else if (e.kind === 'class') this.emit(e.rust, e.js);
    else if (e.kind === 'assert') this.emit(e.rust, e.js, 'assert');
    else {
      while (this.i < this.cps.length && !this.lookingAt('\\E')) this.literal(this.cps[this.i++]!);
      if (this.lookingAt('\\E')) this.i += 2;
    }
  }

  private escape(inClass: boolean): Escape {
    const at = this.i;
    this.i++;
    const cp = this.peek();
    if (cp === undefined) this.fail('a trailing backslash', 'Escape a backslash as \\\\.', at);
    this.i++;
    const c = String.fromCodePoint(cp);
    if (isEscapableAscii(cp)) return { kind: 'char', cp };
    if (c === '0') {
      let digits = '0';
      while (digits.length < 3 && /[0-7]/.test(String.fromCodePoint(this.peek() ?? 0x20))) digits += String.fromCodePoint(this.cps[this.i++]!);
      return { kind: 'char', cp: parseInt(digits, 8) };
    }
    if (/[1-9]/.test(c)) this.fail(`a backreference \\${c}`, 'RE2 has no backreferences; search for the repeated text itself. Write character codes as \\x{41}.', at);
    if (c === 'n') this.fail('a newline \\n', 'grep matches one line at a time; search for each line separately.', at);
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) return { kind: 'char', cp: simple };
    if (c === 'x') return { kind: 'char', cp: this.hexEscape(at) };
    const perl = PERL[c];
    if (perl) return { kind: 'class', rust: `\\${c}`, js: perl };
    if (c === 'p' || c === 'P') return this.unicodeClass(c === 'P', at);
    if (!inClass) {
      if (c === 'A') return { kind: 'assert', rust: '\\A', js: '^' };
      if (c === 'z') return { kind: 'assert', rust: '\\z', js: '$' };
      if (c === 'b' || c === 'B') return { kind: 'assert', rust: `\\${c}`, js: BOUNDARY[c]! };
      if (c === 'Q') return { kind: 'quote' };
    }
    if (c === 'k' || c === 'g') this.fail(`a backreference \\${c}`, 'RE2 has no backreferences; search for the repeated text itself.', at);
    if (c === 'u' || c === 'U') this.fail(`the escape \\${c}`, 'Write a code point as \\x{00E9}.', at);
    if (c === 'Z') this.fail('the escape \\Z', 'Use \\z or $ for the end of the line.', at);
    this.fail(`the escape \\${c}${inClass ? ' inside [...]' : ''}`, 'Escape only punctuation; see the RE2 syntax (\\d \\w \\s \\b \\pL \\x{41} \\Q...\\E).', at);
  }

  private hexEscape(at: number): number {
    const braced = this.peek() === 0x7b;
    const end = braced ? this.cps.indexOf(0x7d, this.i) : this.i + 2;
    const digits = end === -1 || end > this.cps.length ? '' : String.fromCodePoint(...this.cps.slice(braced ? this.i + 1 : this.i, end));
    const value = /^[0-9A-Fa-f]{1,8}$/.test(digits) ? parseInt(digits, 16) : NaN;
    if (!(value <= 0x10ffff) || (value >= 0xd800 && value <= 0xdfff)) this.fail('an invalid \\x escape', 'Write \\x41 or \\x{1F600}.', at);
    this.i = braced ? end + 1 : end;
    return value;
  }

  private unicodeClass(negatedEscape: boolean, at: number): Escape {
    let name: string;
    if (this.peek() === 0x7b) {
      const close = this.cps.indexOf(0x7d, this.i);
      name = close === -1 ? '' : String.fromCodePoint(...this.cps.slice(this.i + 1, close));
      this.i = close + 1;
    } else {
      name = this.peek() === undefined ? '' : String.fromCodePoint(this.cps[this.i++]!);
    }
    let negated = negatedEscape;
    if (name.startsWith('^')) {
      negated = !negated;
      name = name.slice(1);
    }
    const known = /^[A-Za-z_]+$/.test(name) && (name === 'Any' || CATEGORIES.has(name) || isScript(name));
    if (!known) this.fail(`an unknown Unicode class \\p{${name}}`, 'Use a general category (L, Lu, Nd, ...) or a script name (Greek, Han, ...).', at);
    const jsName = name === 'Any' || CATEGORIES.has(name) ? name : `Script=${name}`;
    const js = negated ? `[^\\p{${jsName}}${CS}]` : `[\\p{${jsName}}--${CS}]`;
    return { kind: 'class', rust: `${negated ? '\\P' : '\\p'}{${name}}`, js };
  }

  private characterClass(): void {
    const at = this.i;
    this.i++;
    const negated = this.peek() === 0x5e;
    if (negated) this.i++;
    const rust: string[] = [];
    const js: string[] = [];
    for (let first = true; ; first = false) {
      const cp = this.peek();
      if (cp === undefined) this.fail('missing closing ]', 'Close the character class, or escape [ as \\[.', at);
      if (cp === 0x5d && !first) break;
      if (cp === 0x5b && this.peek(1) === 0x3a && this.posix(rust, js)) continue;
      const lo = this.classAtom();
      if (typeof lo !== 'number') {
        rust.push(lo.rust);
        js.push(lo.js);
        continue;
      }
      if (this.peek() === 0x2d && this.peek(1) !== undefined && this.peek(1) !== 0x5d) {
        this.i++;
        const hi = this.classAtom();
        if (typeof hi !== 'number' || hi < lo) this.fail('an invalid character class range', 'Ranges go from a lower to a higher character, like a-z.', at);
        rust.push(`${rustChar(lo)}-${rustChar(hi)}`);
        js.push(`${jsChar(lo)}-${jsChar(hi)}`);
      } else {
        rust.push(rustChar(lo));
        js.push(jsChar(lo));
      }
    }
    this.i++;
    const items = js.join('');
    this.emit(`[${negated ? '^' : ''}${rust.join('')}]`, negated ? `[^${items}${CS}]` : `[[${items}]--${CS}]`);
  }

  /** `[:alpha:]` inside a class; false when the text is not of that form (then `[` is literal). */
  private posix(rust: string[], js: string[]): boolean {
    const match = /^\[:(\^?)([a-z]*):\]/.exec(String.fromCodePoint(...this.cps.slice(this.i, this.i + 16)));
    if (!match) return false;
    const pairs = POSIX[match[2]!];
    if (!pairs) this.fail(`an unknown POSIX class [:${match[2]}:]`, `Known classes: ${Object.keys(POSIX).join(', ')}.`);
    this.i += match[0].length;
    rust.push(`[:${match[1]}${match[2]}:]`);
    const set = pairs.replace(/[^]{2}/g, (pair) => `${jsChar(pair.charCodeAt(0))}-${jsChar(pair.charCodeAt(1))}`);
    js.push(match[1] ? `[^${set}${CS}]` : `[${set}]`);
    return true;
  }

  private classAtom(): number | { rust: string; js: string } {
    const cp = this.peek()!;
    if (cp !== 0x5c) {
      this.i++;
      if (cp === 0x0a) this.fail('a newline', 'grep matches one line at a time.', this.i - 1);
      return cp;
    }
    const e = this.escape(true);
    if (e.kind === 'char' && e.cp === 0x0a) this.fail('a newline', 'grep matches one line at a time.');
    if (e.kind === 'char') return e.cp;
    if (e.kind === 'class') return e;
    return this.fail('an assertion inside [...]', 'Move it outside the character class.');
  }
}

/** Checks a Go/RE2 pattern and translates it; throws `invalid_input` with a hint when it is outside the syntax. */
export function parseRe2(pattern: string): Re2Pattern {
  return new Scanner(pattern).scan();
}

/** JS RegExps for the Node fallback, with ripgrep's semantics for one line at a time. */
export function lineMatcher(pattern: Re2Pattern): LineMatcher {
  const flags = pattern.ignoreCase ? 'isv' : 'sv';
  try {
    return { line: new RegExp(pattern.js, flags), block: new RegExp(pattern.js, `m${flags}`) };
  } catch (error) {
    throw new ToolError('invalid_input', `The grep pattern could not be compiled: ${(error as Error).message}`);
  }
}
