// A command line split into every simple command it runs (DESIGN.md §5): through
// `&&`, `||`, `;`, `|`, `&`, newlines, subshells, groups, and into command and process
// substitutions. Each segment carries its words when they are plain literals, and the
// reasons the parser cannot vouch for it (a redirection, an expansion, an assignment,
// a here-document, a command that runs other commands). Judging happens elsewhere
// (permissions/commandJudge.ts); this only says what is there.
import os from 'node:os';
import type { Node } from '@vscode/tree-sitter-wasm';
import { parseBash } from './bashParser';
import { RUNNERS, SHELLS, unwrap, WRAPPER_NAMES } from './commandWords';
import { readingIssues } from './readingCheck';
import { unquotedText } from './unquote';

export interface ShellSegment {
  /** The segment as written. */
  readonly text: string;
  /** Its words after quote removal, when every word is a literal (no expansion, no glob). */
  readonly argv: readonly string[] | undefined;
  /** The command word as written (quotes removed when literal), even when other words are not literal. */
  readonly name?: string | undefined;
  /** Why this segment cannot be judged from its words alone; empty when it can. */
  readonly issues: readonly string[];
  /** The files its redirections write (`> f`, `>> f`, `&> f`, `<> f`): a name, or undefined when it is not literal. */
  readonly writes: readonly (string | undefined)[];
}

export interface CommandAnalysis {
  /** False when there is no parser, or the line does not parse cleanly. */
  readonly parsed: boolean;
  readonly segments: readonly ShellSegment[];
  /** Reasons about the line as a whole (several lines, control structures, parse errors). */
  readonly issues: readonly string[];
}

/** Commands that run other commands or code: what they run is not in their words. */
export const RUNS_OTHERS: ReadonlySet<string> = new Set([...WRAPPER_NAMES, ...SHELLS, 'eval', 'source', '.', ...RUNNERS]);
/** Builtins that change what a later name runs: `hash -p`, `alias`, `enable`, `shopt -s expand_aliases`. */
const RENAMES = new Set(['hash', 'alias', 'enable', 'shopt', 'unalias', 'set']);

/** Redirections that only join or drop output, never touch a file. */
const HARMLESS_REDIRECT = /^(\d?>&\d|\d?>&-|&?\d?>>?\s*\/dev\/null)$/;

const GLOB = /[*?[]/;
/** `{a,b}`, `{1..9}`, `{a,{b}}`: bash expands them into several words; tree-sitter keeps one. Tested on the unquoted text. */
const BRACES = /\{.*(,|\.\.).*\}/s;

function unescapeWord(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}

interface Words {
  argv: string[] | undefined;
  issues: string[];
}

/** The literal value of one word node, or why it has none; nested commands are collected into `nested`. */
function literal(node: Node, nested: ShellSegment[], issues: string[]): string | undefined {
  switch (node.type) {
    case 'word':
    case 'command_name': {
      if (node.type === 'command_name') {
        const inner = node.namedChildren[0];
        if (inner && inner.type !== 'word') return literal(inner, nested, issues);
      }
      const text = node.text;
      const unescaped = text.replace(/\\./gs, '');
      if (GLOB.test(unescaped)) issues.push(`expands the glob ${text}`);
      // `~` and `~/x` are the home folder; `~+`, `~-`, `~user` are other folders bash knows.
      if (text === '~' || text.startsWith('~/')) return os.homedir() + unescapeWord(text.slice(1));
      // `~user`, `~+`; and bash expands a tilde after `=` (`a=~/x`) in an argument too.
      if (text.startsWith('~') || /[=:]~/.test(unescaped)) {
        issues.push(`expands the tilde ${text}`);
        return undefined;
      }
      return unescapeWord(text);
    }
    case 'number':
      return node.text;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string': {
      // A `$` the grammar keeps as a token of its own (`"$"`, `-p$""`) is a piece of text it may drop.
      if (node.children.some((c, i) => c !== null && !c.isNamed && !(c.type === '"' && (i === 0 || i === node.childCount - 1)))) {
        issues.push(`has ${node.text}, which the parser reads in pieces`);
        return undefined;
      }
      for (const part of node.namedChildren) {
        if (part && part.type !== 'string_content') {
          literal(part, nested, issues);
          return undefined;
        }
      }
      // The value from the text itself: a string of blanks alone has no content node.
      return node.text.slice(1, -1).replace(/\\([$`"\\\n])/g, '$1');
    }
    case 'concatenation': {
      if (node.children.some((c) => c !== null && !c.isNamed)) {
        issues.push(`has ${node.text}, which the parser reads in pieces`);
        return undefined;
      }
      let value = '';
      for (const part of node.namedChildren) {
        if (!part) continue;
        const v = literal(part, nested, issues);
        if (v === undefined) return undefined;
        value += v;
      }
      return value;
    }
    case 'simple_expansion':
    case 'expansion':
      issues.push(`expands ${node.text}`);
      collect(node, nested, issues); // `${x:-$(rm -rf ~)}` runs what it holds
      return undefined;
    case 'command_substitution':
      issues.push(`runs the command substitution ${node.text}`);
      collect(node, nested, issues);
      return undefined;
    case 'process_substitution':
      issues.push(`runs the process substitution ${node.text}`);
      collect(node, nested, issues);
      return undefined;
    case 'arithmetic_expansion':
      issues.push(`expands the arithmetic ${node.text}`);
      collect(node, nested, issues);
      return undefined;
    case 'ansi_c_string':
      issues.push(`has a $'…' string, whose escapes can hide characters: ${node.text}`);
      return undefined;
    case 'brace_expression':
      issues.push(`expands the braces ${node.text}`);
      return undefined;
    default:
      issues.push(`has ${node.type.replace(/_/g, ' ')} ${node.text}`);
      collect(node, nested, issues);
      return undefined;
  }
}

function commandSegment(node: Node, nested: ShellSegment[]): ShellSegment {
  const issues: string[] = [];
  const writes: (string | undefined)[] = [];
  const words: Words = { argv: [], issues };
  for (const child of node.children) {
    if (!child) continue;
    if (child.type === 'variable_assignment') {
      issues.push(`sets ${child.text} for the command`);
      collect(child, nested, issues);
    } else if (isRedirect(child)) {
      redirectIssue(child, issues, nested, writes);
    } else if (child.type === 'comment') {
      continue;
    } else if (!child.isNamed) {
      // `==`, `=~`, a lone `$`: the grammar reads an operator where bash has a word.
      issues.push(`has ${child.text}, which the parser reads as an operator, not a word`);
      words.argv = undefined;
    } else {
      // Brace expansion, wherever the grammar split the word: checked on its unquoted text.
      if (BRACES.test(unquotedText(child.text))) issues.push(`expands the braces ${child.text}`);
      const value = literal(child, nested, issues);
      if (value === undefined) words.argv = undefined;
      else words.argv?.push(value);
    }
  }
  const nameNode = node.childForFieldName('name');
  const name = words.argv?.[0] ?? (nameNode ? literal(nameNode, [], []) ?? nameNode.text : undefined);
  const base = name?.split('/').pop() ?? name;
  if (base !== undefined && RUNS_OTHERS.has(base)) issues.push(`${name} runs other commands, which are not in its words`);
  if (base !== undefined && RENAMES.has(base)) issues.push(`${name} changes what later command names run`);
  return { text: node.text, argv: words.argv, name, issues, writes };
}

const isRedirect = (node: Node): boolean => node.type === 'file_redirect' || node.type === 'heredoc_redirect' || node.type === 'herestring_redirect';

/** Operators that open their target for writing; `>&` does too unless its target is a descriptor (`2>&1`, `>&-`). */
const WRITING = new Set(['>', '>>', '&>', '&>>', '>|', '<>', '>&']);

function redirectIssue(node: Node, issues: string[], nested: ShellSegment[], writes: (string | undefined)[]): void {
  if (node.type === 'heredoc_redirect') issues.push('reads a here-document');
  else if (node.type === 'herestring_redirect') issues.push(`reads the here-string ${node.text}`);
  else if (!HARMLESS_REDIRECT.test(node.text.replace(/\s+/g, ' ').trim())) issues.push(`redirects: ${node.text}`);
  if (node.type === 'file_redirect') {
    const op = node.children.find((c) => c !== null && !c.isNamed)?.type;
    const target = node.childForFieldName('destination') ?? node.namedChildren.filter((c): c is Node => c !== null && c.type !== 'file_descriptor').at(-1);
    const descriptor = target !== undefined && /^(\d+|-)$/.test(target.text);
    if (op !== undefined && WRITING.has(op) && target && !(op === '>&' && descriptor)) writes.push(literal(target, [], []));
  }
  collect(node, nested, issues);
}

const CONTROL = new Set(['if_statement', 'while_statement', 'for_statement', 'c_style_for_statement', 'case_statement', 'function_definition', 'test_command']);

/** Walks `node`, appending the simple commands it runs (in order) to `out`. */
function collect(node: Node, out: ShellSegment[], lineIssues: string[]): void {
  for (const child of node.namedChildren) {
    if (!child) continue;
    switch (child.type) {
      case 'command': {
        const nested: ShellSegment[] = [];
        out.push(commandSegment(child, nested));
        out.push(...nested);
        break;
      }
      case 'redirected_statement': {
        const body: ShellSegment[] = [];
        const issues: string[] = [];
        const writes: (string | undefined)[] = [];
        const nested: ShellSegment[] = [];
        for (const part of child.namedChildren) {
          if (!part) continue;
          if (isRedirect(part)) redirectIssue(part, issues, nested, writes);
          else collect({ namedChildren: [part] } as unknown as Node, body, lineIssues);
        }
        // A redirection applies to what it follows: every command of its body carries it.
        out.push(...body.map((s) => ({ ...s, issues: [...s.issues, ...issues], writes: [...s.writes, ...writes] })), ...nested);
        break;
      }
      case 'variable_assignment':
      case 'declaration_command':
      case 'unset_command':
        out.push({ text: child.text, argv: undefined, name: undefined, issues: [`changes the shell's variables: ${child.text}`], writes: [] });
        collect(child, out, lineIssues);
        break;
      case 'comment':
        break;
      default:
        if (CONTROL.has(child.type)) lineIssues.push(`has a ${child.type.replace(/_(statement|definition|command)$/, '').replace(/_/g, ' ')} construct, judged only as a whole`);
        if (child.type === 'ERROR' || child.isMissing) lineIssues.push(`does not parse as bash near ${JSON.stringify(child.text.slice(0, 40))}`);
        collect(child, out, lineIssues);
    }
  }
}

/** The script a segment hands to a shell (`sudo bash -c SCRIPT`, `eval WORDS`), when its words are literal. */
function scriptOf(segment: ShellSegment): string | undefined {
  const argv = segment.argv && unwrap(segment.argv);
  if (!argv || argv.length < 2) return undefined;
  if (argv[0] === 'eval') return argv.slice(1).join(' ');
  if (!SHELLS.has(argv[0]!)) return undefined;
  const at = argv.findIndex((a, i) => i > 0 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
  if (at < 0) return undefined;
  // `bash -c -e 'script'`, `bash -c -- 'script'`: the first word that is not an option.
  return argv.slice(at + 1).find((a) => !a.startsWith('-'));
}

async function analyze(command: string, depth: number): Promise<CommandAnalysis> {
  const tree = await parseBash(command);
  if (!tree) return { parsed: false, segments: [], issues: ['no bash parser could be loaded, so the command cannot be judged'] };
  const segments: ShellSegment[] = [];
  const issues: string[] = [];
  let parsed: boolean;
  try {
    collect(tree.rootNode, segments, issues);
    issues.push(...readingIssues(command, tree.rootNode));
    parsed = !tree.rootNode.hasError;
    if (!parsed && !issues.some((i) => i.startsWith('does not parse'))) issues.push('does not parse cleanly as bash');
  } finally {
    tree.delete();
  }
  // A backslash-newline joins words in bash but splits them for the grammar: never vouched for.
  if (/\r|\n/.test(command.trim())) issues.push('spans several lines');
  if (segments.length === 0 && issues.length === 0) issues.push('runs no command Peon can see');
  // What `bash -c` or `eval` will run is judged too (deny rules, destructive commands), a few levels deep.
  for (const segment of [...segments]) {
    const script = scriptOf(segment);
    if (script === undefined) continue;
    if (depth >= 3) {
      issues.push('nests shells too deeply to judge');
      continue;
    }
    const inner = await analyze(script, depth + 1);
    segments.push(...inner.segments);
    issues.push(...inner.issues.map((i) => `runs a script that ${i}`));
    parsed &&= inner.parsed;
  }
  return { parsed, segments, issues };
}

/** Every simple command of `command`, and what keeps each (or the line) from being vouched for. */
export function analyzeCommand(command: string): Promise<CommandAnalysis> {
  return analyze(command, 0);
}
