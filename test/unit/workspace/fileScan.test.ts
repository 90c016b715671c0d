import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { forgetDigest, identityOf, scanLines } from '../../../src/core/workspace/fileScan';
import { tempDir } from '../tools/toolTestContext';

async function scan(file: string, from: number, count: number) {
  const handle = await fs.promises.open(file, 'r');
  try {
    const identity = identityOf(await handle.stat({ bigint: true }));
    const r = await scanLines(file, handle, identity, from, count);
    return { ...r, selected: r.selected.map((b) => b.toString('utf8')) };
  } finally {
    await handle.close();
  }
}

/** The same answer computed the obvious way, from the whole file in memory. */
function expected(content: string, from: number, count: number) {
  const parts = content.split('\n');
  const lines = content === '' ? 0 : content.endsWith('\n') ? parts.length - 1 : parts.length;
  const all = parts.slice(0, lines).map((l) => l.replace(/\r$/, ''));
  return { sha256: createHash('sha256').update(content).digest('hex'), lines, selected: all.slice(from - 1, from - 1 + count) };
}

describe('scanLines: one streamed pass, the same answer as reading it all', () => {
  const cases: [string, string][] = [
    ['empty', ''],
    ['one line, no newline', 'abc'],
    ['only newlines', '\n\n\n'],
    ['CRLF', 'a\r\nb\r\n'],
    // 1 MiB chunks: lines that straddle the boundary, and a boundary right at a newline
    ['lines across chunk boundaries', Array.from({ length: 40_000 }, (_, i) => `${i}:${'é'.repeat(i % 97)}`).join('\n')],
    ['a 3 MiB line', `start\n${'x'.repeat(3 * 1024 * 1024)}\nend\n`],
    ['newline exactly at the chunk end', `${'y'.repeat(1024 * 1024 - 1)}\nnext\n`],
  ];

  for (const [name, content] of cases) {
    test(name, async () => {
      const file = path.join(tempDir(), 'f.txt');
      fs.writeFileSync(file, content);
      const total = expected(content, 1, Number.MAX_SAFE_INTEGER).lines;
      for (const [from, count] of [[1, 2000], [1, 1], [2, 3], [Math.max(1, total - 1), 5], [total + 5, 10]] as const) {
        forgetDigest(file);
        const cold = await scan(file, from, count);
        const want = expected(content, from, count);
        expect({ sha256: cold.sha256, lines: cold.lines, selected: cold.selected }).toEqual(want);
        // Second pass: the digest is cached and reading stops after the range; same answer.
        const warm = await scan(file, from, count);
        expect({ sha256: warm.sha256, lines: warm.lines, selected: warm.selected }).toEqual(want);
      }
    });
  }

  test('a changed file is hashed again (identity: inode, size, mtime)', async () => {
    const file = path.join(tempDir(), 'f.txt');
    fs.writeFileSync(file, 'one\n');
    const first = await scan(file, 1, 10);
    fs.writeFileSync(file, 'two\n');
    const second = await scan(file, 1, 10);
    expect(second.sha256).not.toBe(first.sha256);
    expect(second.selected).toEqual(['two']);
  });
});
