// Command lines for the gate's differential test: read-only commands the gate may run
// without asking, commands it must never run without asking, joined by bash's
// separators and sprinkled with what has split the parser from bash before (control
// characters, escapes, comments, quotes, named descriptors, substitutions, here-docs,
// Unicode spaces). A fixed seed: every run tests the same commands.

/** mulberry32: small, fast and deterministic. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const READ_ONLY = ['ls', 'ls -la', 'ls sub', 'cat README.md', 'echo hi', 'echo "a b"', "echo 'x y'", 'pwd', 'head -n 1 README.md', 'wc -l README.md', 'true', 'false', 'git status', 'date +%s', 'cd sub', 'cat sub/notes.txt', 'echo a#b', 'tail -n 2 README.md'];
const HARMFUL = ['rm -rf victim', 'touch pwned', 'echo pwned >> log.txt', 'printf x', 'eval ls', 'bash -c ls', 'exec ls', 'command ls', 'type ls', 'read x', 'export A=1', 'curl http://127.0.0.1:9/', 'source README.md', 'hash -p ./x ls'];
const SEPARATORS = [' ', '\t', ';', ' ; ', '&&', ' && ', '||', ' || ', '|', ' | ', '&', ' & ', '\n', '\r\n', ';;', '|&', ' &>/dev/null ', ' 2>&1 ', ' >/dev/null; '];
const UNICODE_SPACES = ['\u00a0', '\u2028', '\u2029', '\u3000', '\ufeff', '\u0085', '\u200b', '\u2000', '\u1680', '\u205f'];
/** Every C0 control but NUL (an argument cannot hold one), and DEL. */
const CONTROLS = [...Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)), '\x7f'];
const TRICKS = [
  ...CONTROLS,
  ...UNICODE_SPACES,
  '#', ' #', '\\ ', '\\', '\\#', '"', "'", '$', '`', '!', '(', ')', '{ ', ' }', '*', '?', '[a]', '~', '%', '=',
  '{PATH}>/dev/null ', '{HOME}>/dev/null ', '{x}<README.md ', '{fd}>&2 ', '>/dev/null', '2>&1', '>out.txt', '>>out.txt', '<README.md', '<>rw.txt',
  '$(ls)', '`ls`', '<(ls)', '$((1))', '${x}', '$x', "$'\\x3b'", "$'\\n'", '\\\n', '<<EOF\nx\nEOF\n', '<<<x', 'a=1 ', 'PATH=10 ', '\\v', '\\f',
];

const pick = <T>(r: () => number, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

/** `count` command lines from `seed`. */
export function generateCommands(seed: number, count: number): string[] {
  const r = random(seed);
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    const segments = 1 + Math.floor(r() * 3);
    let line = '';
    for (let s = 0; s < segments; s++) {
      if (s > 0) line += pick(r, SEPARATORS);
      line += r() < 0.7 ? pick(r, READ_ONLY) : pick(r, HARMFUL);
    }
    // Tricks go anywhere: inside words, between them, at either end.
    const tricks = Math.floor(r() * 4);
    for (let t = 0; t < tricks; t++) {
      const at = Math.floor(r() * (line.length + 1));
      line = line.slice(0, at) + pick(r, TRICKS) + line.slice(at);
    }
    out.push(line);
  }
  return out;
}
