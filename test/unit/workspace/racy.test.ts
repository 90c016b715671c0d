// Git's racy-git rule as the scans apply it (racy.ts): an entry looked at within the clock's
// granularity of its last change is looked at again. A ctime in whole seconds comes from a
// file system that keeps no fraction (ext4 with 128-byte inodes, ext3, HFS+, FAT): there a
// change two seconds on can still leave the same ctime.
import { expect, test } from 'vitest';
import { racy } from '../../../src/core/workspace/racy';

test('fine-grained ctimes are trusted 50 ms on; whole-second ones only two seconds on', () => {
  const now = 1_765_000_000_123.456;
  expect(racy(now - 10.5, now)).toBe(true);
  expect(racy(now - 49.9, now)).toBe(true);
  expect(racy(now - 60.25, now)).toBe(false);
  const second = Math.floor(now / 1000) * 1000; // this second, as a coarse file system keeps it
  expect(racy(second, now)).toBe(true);
  expect(racy(second - 1000, now)).toBe(true);
  expect(racy(second - 3000, now)).toBe(false);
  // A ctime after the look (changed meanwhile) is racy whatever its grain.
  expect(racy(now + 5.5, now)).toBe(true);
  expect(racy(second + 1000, now)).toBe(true);
});
