// Where tree-sitter-bash and bash itself could read one line differently (SECURITY.md
// rule 2: what is checked is what runs). bash splits words only on unescaped spaces and
// tabs and its metacharacters `|&;()<>`, and starts a comment only where a word starts;
// the grammar also skips `\v`, `\f` and a backslash before a blank. So every character
// between the grammar's tokens must be a blank bash agrees is one, and every comment
// the grammar found must start where bash starts a word. Anything else asks.
import type { Node } from '@vscode/tree-sitter-wasm';
import { unquotedText } from './unquote';

/** C0 controls (and DEL) other than TAB and the line breaks, which are judged elsewhere. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;
/** Where bash starts a new word: after one of these tokens, a comment may follow directly. */
const WORD_START_AFTER = new Set([';', '&', '&&', '|', '||', '|&', '(', ')', '<', '>', '>>', '&>', '&>>', '>|', '<>', '<&', '>&', ';;', '\n']);
/** `{name}>`: a named-descriptor redirection, which assigns the descriptor's number to `name`. */
const NAMED_FD = /\{([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\}(?=[<>])/;

const codePoint = (ch: string): string => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

function leaves(node: Node, out: Node[]): Node[] {
  if (node.childCount === 0) out.push(node);
  else for (const child of node.children) if (child) leaves(child, out);
  return out;
}

const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

/** The text of the first pair of a command's words that touch, or undefined. */
function adjacentWords(node: Node): string | undefined {
  if (node.type === 'command') {
    const words = node.namedChildren.filter((c): c is Node => c !== null && !REDIRECTS.has(c.type) && c.type !== 'comment');
    for (let i = 1; i < words.length; i++) if (words[i - 1]!.endIndex === words[i]!.startIndex) return `${words[i - 1]!.text}${words[i]!.text}`;
  }
  for (const child of node.namedChildren) {
    const found = child ? adjacentWords(child) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** Reasons the grammar's reading of `command` (parsed as `root`) cannot be vouched for; empty when it can. */
export function readingIssues(command: string, root: Node): string[] {
  const issues: string[] = [];
  const control = CONTROL.exec(command);
  if (control) issues.push(`has the control character ${codePoint(control[0])}, which bash and the parser may read differently`);
  const named = NAMED_FD.exec(command);
  if (named) issues.push(`assigns a file descriptor number to the variable ${named[1]} ({${named[1]}}> redirection)`);
  const tokens = leaves(root, []).filter((n) => n.endIndex > n.startIndex).sort((a, b) => a.startIndex - b.startIndex);
  let at = 0;
  let previous: Node | undefined;
  let unread = false;
  for (const token of tokens) {
    if (token.startIndex < at) continue; // nested tokens inside one already counted
    const gap = command.slice(at, token.startIndex);
    if (/[^ \t\n]/.test(gap)) {
      issues.push(`has ${JSON.stringify(gap)} between words, which bash does not read as a blank`);
      unread = true;
      break;
    }
    // An anonymous token holds exactly its own symbol; one that holds more (`-p$` read as `$`) hides text.
    if (!token.isNamed && token.text !== token.type) {
      issues.push(`has ${JSON.stringify(token.text)}, which the parser reads as ${JSON.stringify(token.type)}`);
      unread = true;
      break;
    }
    // A word holds no blank bash would split on (`} {` read as one word).
    if (token.type === 'word' && /[ \t]/.test(unquotedText(token.text))) {
      issues.push(`has ${JSON.stringify(token.text)}, which the parser reads as one word and bash as several`);
      unread = true;
      break;
    }
    if (token.type === 'comment') {
      const startsWord = token.startIndex === 0 || gap.length > 0 || (previous !== undefined && !previous.isNamed && WORD_START_AFTER.has(previous.type));
      if (!startsWord) {
        issues.push(`has a # that bash may not read as the start of a comment: ${JSON.stringify(command.slice(Math.max(0, token.startIndex - 10), token.startIndex + 10))}`);
        unread = true;
        break;
      }
    }
    at = token.endIndex;
    previous = token;
  }
  // Two words the grammar read as separate arguments with nothing between them are one word to bash (`ech`ls`o`, `-n` + U+2029).
  const joined = adjacentWords(root);
  if (joined) issues.push(`has ${JSON.stringify(joined)}, which the parser splits into two words where bash reads one`);
  const tail = command.slice(at);
  if (!unread && /[^ \t\n]/.test(tail)) issues.push(`ends with ${JSON.stringify(tail.slice(0, 40))}, which the parser did not read`);
  return issues;
}
