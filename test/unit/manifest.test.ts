import fs from 'node:fs';
import { describe, expect, test } from 'vitest';

const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const extensionSource = fs.readFileSync('src/extension/extension.ts', 'utf8');

describe('package.json', () => {
  test('targets VS Code 1.99 (Node 20 extension host) with matching API types', () => {
    expect(manifest.engines.vscode).toBe('^1.99.0');
    expect(manifest.devDependencies['@types/vscode']).toMatch(/^1\.99\.\d+$/);
  });

  test('every dependency can run on Node 20', () => {
    const satisfiesNode20 = (range: string | undefined): boolean => {
      if (!range) return true;
      return range.split('||').some((alt) => {
        const a = alt.trim();
        if (/^\^?20(\.|$)/.test(a) || a === '*' || /^20\.x/.test(a)) return true;
        const min = /^>=?\s*(\d+)/.exec(a);
        return min !== null && Number(min[1]) <= 20;
      });
    };
    const all = { ...manifest.dependencies, ...manifest.devDependencies } as Record<string, string>;
    for (const name of Object.keys(all)) {
      const pkg = JSON.parse(fs.readFileSync(`node_modules/${name}/package.json`, 'utf8'));
      expect(satisfiesNode20(pkg.engines?.node), `${name}@${pkg.version} engines.node=${pkg.engines?.node}`).toBe(true);
    }
  });

  test('the CLI is exposed as bin.peon', () => {
    expect(manifest.bin).toEqual({ peon: './dist/cli.js' });
    expect(manifest.main).toBe('./dist/extension.js');
  });

  test('activation is lazy: VS Code derives it from the view and the commands', () => {
    expect(manifest.activationEvents).toEqual([]);
  });

  test('untrusted workspaces: limited support', () => {
    expect(manifest.capabilities.untrustedWorkspaces.supported).toBe('limited');
    expect(manifest.capabilities.untrustedWorkspaces.description).toMatch(/read-only/);
  });

  test('an activity-bar container "Peon" holds the chat webview view', () => {
    expect(manifest.contributes.viewsContainers.activitybar).toEqual([{ id: 'peon', title: 'Peon', icon: 'media/peon.svg' }]);
    expect(fs.existsSync('media/peon.svg')).toBe(true);
    expect(manifest.contributes.views.peon).toEqual([expect.objectContaining({ type: 'webview', id: 'peon.chatView' })]);
  });

  test('the contributed commands and the registered ones are the same set', () => {
    const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
    const registered = [...extensionSource.matchAll(/registerCommand\('([^']+)'/g)].map((m) => m[1]).sort();
    expect(contributed).toEqual(registered);
    expect(contributed).toEqual(expect.arrayContaining(['peon.focusChat', 'peon.newChat', 'peon.stop']));
    for (const c of manifest.contributes.commands) expect(c.category).toBe('Peon');
  });

  test('settings that redirect a model are never settable from a workspace', () => {
    const properties = manifest.contributes.configuration.properties as Record<string, { scope: string }>;
    for (const [key, { scope }] of Object.entries(properties)) {
      expect(['application', 'machine', 'window', 'resource'], key).toContain(scope);
      if (key.startsWith('peon.model.')) expect(['application', 'machine'], key).toContain(scope);
    }
  });
});
