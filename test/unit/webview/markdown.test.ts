import { describe, expect, test } from 'vitest';
import type { Tokens } from 'marked';
import { fileRefsIn, wholeFileRef } from '../../../webview/markdown/fileRefs';
import { fenceLabel, languageOf } from '../../../webview/markdown/languages';
import { codeClosed, decodeEntities, headingTag, lexMarkdown, listDigits, safeHref } from '../../../webview/markdown/markdown';

describe('links in model output (SECURITY.md: inert unless http(s) or mailto)', () => {
  test.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['http://example.com', 'http://example.com/'],
    ['mailto:someone@example.com', 'mailto:someone@example.com'],
    ['  https://example.com/padded  ', 'https://example.com/padded'],
  ])('%s becomes a link', (href, expected) => {
    expect(safeHref(href)).toBe(expected);
  });

  test.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%22%7D',
    'vscode://vscode.git/clone?url=x',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    '/relative/path',
    'relative',
    '#anchor',
    '',
  ])('%s stays inert', (href) => {
    expect(safeHref(href)).toBeUndefined();
  });
});

describe('character references', () => {
  test('named and numeric references decode; unknown ones stay as written', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &#60; &#x3C; &quot;q&quot; &nbsp;')).toBe('a & b <c> < < "q" \u00a0');
    expect(decodeEntities('&notanentity; & &#xD800; &#99999999;')).toBe('&notanentity; & \ufffd &#99999999;');
  });
});

describe('lexing', () => {
  test('raw HTML is a token of its own, never parsed into elements', () => {
    const tokens = lexMarkdown('<img src=x onerror=alert(1)>\n\ntext <b>bold</b>');
    expect(tokens[0]).toMatchObject({ type: 'html', text: '<img src=x onerror=alert(1)>' });
    const inline = (tokens.find((t) => t.type === 'paragraph') as { tokens: { type: string }[] }).tokens;
    expect(inline.map((t) => t.type)).toEqual(['text', 'html', 'text', 'html']);
  });

  test('an unfinished stream (open fence, half a table) still lexes', () => {
    expect(lexMarkdown('```js\nconst a =')[0]).toMatchObject({ type: 'code', text: 'const a =' });
    expect(lexMarkdown('| a | b |\n|--').length).toBeGreaterThan(0);
  });

  test('headings are clamped to h3–h6 inside the panel', () => {
    expect([1, 2, 3, 4, 5, 6].map(headingTag)).toEqual(['h3', 'h4', 'h5', 'h6', 'h6', 'h6']);
  });
});

describe('code blocks', () => {
  const code = (text: string) => lexMarkdown(text).find((t) => t.type === 'code') as Tokens.Code;

  test('a block is closed once its closing fence has arrived, not while it streams', () => {
    expect(codeClosed(code('```ts\nconst a = 1;\n```'))).toBe(true);
    expect(codeClosed(code('~~~~\na\n~~~~~\n\nafter'))).toBe(true);
    expect(codeClosed(code('    indented\n    code'))).toBe(true);
    expect(codeClosed(code('```ts\nconst a ='))).toBe(false);
    expect(codeClosed(code('```ts\nconst a = 1;\n``'))).toBe(false);
    expect(codeClosed(code('````\na\n```'))).toBe(false);
    expect(codeClosed(code('```'))).toBe(false);
  });

  test.each([
    ['ts', 'ts', 'typescript'],
    ['TypeScript', 'TypeScript', 'typescript'],
    ['tsx title="a.tsx"', 'tsx', 'typescript'],
    ['ts:src/a.ts', 'ts:src/a.ts', 'typescript'],
    ['{.python}', '{.python}', 'python'],
    ['bash', 'bash', 'shell'],
    ['c++', 'c++', 'cpp'],
    ['text', 'text', undefined],
    ['', '', undefined],
  ])('```%s is labelled %j and highlighted as %s', (info, label, language) => {
    expect(fenceLabel(info)).toBe(label);
    expect(languageOf(info)).toBe(language);
  });
});

describe('ordered lists', () => {
  const list = (text: string) => lexMarkdown(text)[0] as Tokens.List;
  test('leave room for their widest number', () => {
    expect(listDigits(list('1. a\n2. b'))).toBe(1);
    expect(listDigits(list(Array.from({ length: 27 }, (_, i) => `${i + 1}. x`).join('\n')))).toBe(2);
    expect(listDigits(list('98. a\n99. b\n100. c'))).toBe(3);
    expect(listDigits(list('0. a'))).toBe(1);
  });
});

describe('file names in answers', () => {
  test('become file tokens when lexed: in text, a code span, a relative link; not in a link\'s text or a web link', () => {
    const [para] = lexMarkdown('In src/a.ts:3 and `lib/b.js`, [the c](c/d.md#L2); [see e/f.js](https://example.com/e/f.js).') as { tokens: { type: string; file?: unknown; tokens?: { type: string }[] }[] }[];
    expect(para!.tokens.map((t) => t.type)).toEqual(['text', 'file', 'text', 'file', 'text', 'file', 'text', 'link', 'text']);
    expect(para!.tokens.filter((t) => t.type === 'file').map((t) => [t.file, t.tokens!.map((c) => c.type)])).toEqual([
      [{ path: 'src/a.ts', line: 3, text: 'src/a.ts:3' }, ['text']],
      [{ path: 'lib/b.js', text: 'lib/b.js' }, ['codespan']],
      [{ path: 'c/d.md', line: 2, text: 'c/d.md#L2' }, ['text']],
    ]);
    const list = lexMarkdown('- see x/y.ts:1\n- | no |')[0] as unknown as { items: { tokens: { tokens: { type: string }[] }[] }[] };
    expect(list.items[0]!.tokens[0]!.tokens.map((t) => t.type)).toEqual(['text', 'file']);
  });

  test.each([
    ['src/app.ts:42', { path: 'src/app.ts', line: 42 }],
    ['src/app.ts:42:7', { path: 'src/app.ts', line: 42 }],
    ['src/app.ts:42-50', { path: 'src/app.ts', line: 42 }],
    ['src/app.ts#L12', { path: 'src/app.ts', line: 12 }],
    ['./lib/a.js', { path: './lib/a.js' }],
    ['../../up/b.ts', { path: '../../up/b.ts' }],
    ['.github/workflows/ci.yml:3', { path: '.github/workflows/ci.yml', line: 3 }],
    ['.eslintrc.json', { path: '.eslintrc.json' }],
    ['package.json', { path: 'package.json' }],
    ['/abs/path/file.py:3', { path: '/abs/path/file.py', line: 3 }],
  ])('%s (all of a code span or link) names a file', (text, ref) => {
    expect(wholeFileRef(text)).toEqual({ ...ref, text });
  });

  test.each(['npm run build', '1.5', 'src/', 'a.ts b.ts', 'https://example.com/a.js', 'javascript:alert(1)', 'vscode://x/y.js'])('%s names none', (text) => {
    expect(wholeFileRef(text)).toBeUndefined();
  });

  test('line 0 is no line', () => {
    expect(wholeFileRef('a.ts:0')).toEqual({ path: 'a.ts', text: 'a.ts:0' });
  });

  test('in prose, a name counts when it has a folder or a line', () => {
    expect(fileRefsIn('See src/app.ts:42, lib/util.js and index.js:7. Not Node.js, e.g. or 1.5.')).toEqual([
      'See ',
      { path: 'src/app.ts', line: 42, text: 'src/app.ts:42' },
      ', ',
      { path: 'lib/util.js', text: 'lib/util.js' },
      ' and ',
      { path: 'index.js', line: 7, text: 'index.js:7' },
      '. Not Node.js, e.g. or 1.5.',
    ]);
    // Inside a URL nothing is a name (a bare host/path is only a guess: the host looks it up).
    expect(fileRefsIn('open https://example.com/a/b.js now')).toBeUndefined();
    expect(fileRefsIn('no names here, Node.js or e.g. not')).toBeUndefined();
  });
});
