// The composer's `@` picker as pure functions (webview/filePicker.ts).
import { expect, test } from 'vitest';
import { atToken, nameAndFolder, pickPath } from '../../../webview/filePicker';

test('an @ at the start or after whitespace opens a token up to the caret; one inside a word does not', () => {
  expect(atToken('@', 1)).toEqual({ start: 0, end: 1, query: '' });
  expect(atToken('look at @src/ind', 16)).toEqual({ start: 8, end: 16, query: 'src/ind' });
  expect(atToken('look at @src/index.js please', 12)).toEqual({ start: 8, end: 21, query: 'src' });
  expect(atToken('mail me@example.com', 19)).toBeUndefined();
  expect(atToken('no at here', 5)).toBeUndefined();
  expect(atToken('@a.js and more', 14)).toBeUndefined();
  expect(atToken(`@${'x'.repeat(201)}`, 202)).toBeUndefined();
});

test('picking replaces the token with @path and a space, the caret after it', () => {
  expect(pickPath('explain @ind', atToken('explain @ind', 12)!, 'src/index.js')).toEqual({ text: 'explain @src/index.js ', caret: 22 });
  expect(pickPath('see @ind and more', atToken('see @ind and more', 8)!, 'index.js')).toEqual({ text: 'see @index.js and more', caret: 14 });
});

test('a path reads as its name and its folder', () => {
  expect(nameAndFolder('src/lib/a.ts')).toEqual({ name: 'a.ts', folder: 'src/lib' });
  expect(nameAndFolder('src/lib/')).toEqual({ name: 'lib/', folder: 'src' });
  expect(nameAndFolder('index.js')).toEqual({ name: 'index.js', folder: '' });
});
