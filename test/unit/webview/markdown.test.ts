import { describe, expect, test } from 'vitest';
import { decodeEntities, headingTag, lexMarkdown, safeHref } from '../../../webview/markdown/markdown';

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
