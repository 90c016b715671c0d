import { describe, expect, test } from 'vitest';
import { outputPieces } from '../../../webview/transcript/outputLinks';
import { speakable, StreamSpeech } from '../../../webview/transcript/speech';

// The transcript's pure text helpers: which names in a tool's output become links, and
// what a screen reader is given to say.
describe('file links in tool output', () => {
  test('`path:line` (and a column) anywhere in a line; the rest stays text', () => {
    expect(outputPieces('src/a.js:12:const x = 1;')).toEqual([{ text: 'src/a.js:12', path: 'src/a.js', line: 12 }, { text: ':const x = 1;' }]);
    expect(outputPieces('    at Object.<anonymous> (test/index.test.js:12:5)')).toEqual([
      { text: '    at Object.<anonymous> (' },
      { text: 'test/index.test.js:12:5', path: 'test/index.test.js', line: 12 },
      { text: ')' },
    ]);
    expect(outputPieces('/abs/path/x.ts:3 and ./rel.md:40')).toEqual([
      { text: '/abs/path/x.ts:3', path: '/abs/path/x.ts', line: 3 },
      { text: ' and ' },
      { text: './rel.md:40', path: './rel.md', line: 40 },
    ]);
  });

  test('no link without a file extension and a line, inside a URL, or for a time of day', () => {
    for (const line of ['exit code 1', 'at 12:30', 'see https://example.org/a.js:80', 'Makefile:3', '', 'ratio 1.5:2']) {
      expect(outputPieces(line)).toEqual([{ text: line }]);
    }
  });

  test("a glob's one-path lines link whole, when asked", () => {
    expect(outputPieces('src/index.ts', true)).toEqual([{ text: 'src/index.ts', path: 'src/index.ts' }]);
    expect(outputPieces('(12 files, newest first)', true)).toEqual([{ text: '(12 files, newest first)' }]);
    expect(outputPieces('src/index.ts')).toEqual([{ text: 'src/index.ts' }]);
  });
});

describe('what a screen reader is given', () => {
  test('Markdown marks are not read out; link texts are, their URLs not', () => {
    expect(speakable('## Plan\n\n- **read** `index.js`\n- see [the docs](https://x.org/y)\n\n```ts\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |')).toBe('Plan read index.js see the docs const a = 1; a b 1 2');
  });

  test('a streaming message is said in whole sentences; the rest when it ends; history is not said', () => {
    const speech = new StreamSpeech();
    speech.skip('old', 'Said before.');
    expect(speech.take('m1', 'First one. Second', false)).toBe('First one.');
    expect(speech.take('m1', 'First one. Second', false)).toBe('');
    expect(speech.take('m1', 'First one. Second half: done', false)).toBe(' Second half:');
    expect(speech.take('m1', 'First one. Second half: done', true)).toBe(' done');
    // A long stretch without a sentence end (a code block) is said as it is.
    const code = 'x'.repeat(700);
    expect(speech.take('m2', code, false)).toBe(code);
  });
});
