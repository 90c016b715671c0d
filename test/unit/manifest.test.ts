import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, test } from 'vitest';

const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const extensionSource = fs.readFileSync('src/extension/extension.ts', 'utf8');

describe('package.json', () => {
  test('targets VS Code 1.99 (Node 20 extension host) with matching API types', () => {
    expect(manifest.engines.vscode).toBe('^1.99.0');
    expect(manifest.devDependencies['@types/vscode']).toMatch(/^1\.99\.\d+$/);
  });

  // VS Code 1.99's extension host runs Node 20.18; the tools run on the Node 20 we declare.
  const EXTENSION_HOST_NODE = '20.18.2';
  const engines = (name: string): { version: string; node: string } => {
    const pkg = JSON.parse(fs.readFileSync(`node_modules/${name}/package.json`, 'utf8'));
    return { version: pkg.version, node: pkg.engines?.node ?? '*' };
  };

  test("runtime dependencies run in VS Code 1.99's extension host (Node 20.18)", () => {
    for (const name of Object.keys(manifest.dependencies)) {
      const { version, node } = engines(name);
      expect(semver.satisfies(EXTENSION_HOST_NODE, node), `${name}@${version} needs Node ${node}`).toBe(true);
    }
  });

  test('development dependencies run on the Node 20 this repository declares', () => {
    expect(manifest.engines.node).toBe('>=20.19');
    for (const name of Object.keys(manifest.devDependencies)) {
      const { version, node } = engines(name);
      expect(semver.intersects(node, '>=20.19 <21'), `${name}@${version} needs Node ${node}`).toBe(true);
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
