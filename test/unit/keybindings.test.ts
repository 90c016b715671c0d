// Peon's keybindings take no chord VS Code binds by default (VS Code 1.99 on Linux,
// macOS and Windows, as test/vscode/defaultKeybindings.mjs read them from the pinned
// code-server's "Default Keyboard Shortcuts"): neither the same chord nor one that
// starts or ends a default sequence ("ctrl+k" would take every "ctrl+k …").
import fs from 'node:fs';
import { expect, test } from 'vitest';
import { normalizeKey } from '../vscode/defaultKeybindings.mjs';

const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const defaults = JSON.parse(fs.readFileSync('test/fixtures/vscode-keybindings.json', 'utf8')) as Record<'linux' | 'mac' | 'win', string[]>;
type Binding = { command: string; key: string; mac?: string; linux?: string; win?: string };
const bindings: Binding[] = manifest.contributes.keybindings ?? [];

test('the defaults were read for each platform', () => {
  for (const platform of ['linux', 'mac', 'win'] as const) expect(defaults[platform].length).toBeGreaterThan(300);
  // A chord known to be VS Code's on each platform: the check would catch it.
  expect(defaults.linux).toContain(normalizeKey('ctrl+shift+k'));
  expect(defaults.mac).toContain(normalizeKey('shift+cmd+k'));
  expect(defaults.win).toContain(normalizeKey('ctrl+alt+i'));
});

test('Add Selection to Chat has a keybinding in the editor', () => {
  expect(bindings).toContainEqual(expect.objectContaining({ command: 'peon.addSelectionToChat', when: 'editorTextFocus' }));
});

test.each(['linux', 'mac', 'win'] as const)("Peon's keybindings clash with none of VS Code's defaults on %s", (platform) => {
  for (const binding of bindings) {
    const key = normalizeKey(binding[platform] ?? binding.key);
    const clashes = defaults[platform].filter((d) => d === key || d.startsWith(`${key} `) || key.startsWith(`${d} `));
    expect(clashes, `${binding.command} (${key})`).toEqual([]);
  }
});
