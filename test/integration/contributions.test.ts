import * as assert from 'node:assert/strict';
import { peonExtension } from './peon';

interface Manifest {
  activationEvents?: string[];
  contributes: {
    viewsContainers: { activitybar: { id: string; title: string; icon: string }[] };
    views: Record<string, { type?: string; id: string }[]>;
    configuration: { properties: Record<string, { scope?: string }> };
  };
  capabilities: { untrustedWorkspaces: { supported: boolean | string } };
}

suite('contributions as VS Code loaded them', () => {
  const manifest = (): Manifest => peonExtension().packageJSON as Manifest;

  test('an activity-bar container "Peon" holds the chat webview view', () => {
    const container = manifest().contributes.viewsContainers.activitybar.find((c) => c.id === 'peon');
    assert.equal(container?.title, 'Peon');
    const views = manifest().contributes.views['peon'] ?? [];
    assert.deepEqual(
      views.map((v) => [v.id, v.type]),
      [['peon.chatView', 'webview']],
    );
  });

  test('activation is lazy: no "*" and no startup events', () => {
    for (const event of manifest().activationEvents ?? []) {
      assert.ok(event !== '*' && event !== 'onStartupFinished', `eager activation event ${event}`);
    }
  });

  test('untrusted workspaces get limited support', () => {
    assert.equal(manifest().capabilities.untrustedWorkspaces.supported, 'limited');
  });

  test('model endpoint settings are machine-scoped', () => {
    const properties = manifest().contributes.configuration.properties;
    for (const key of ['peon.model.provider', 'peon.model.id', 'peon.model.baseUrl']) {
      assert.equal(properties[key]?.scope, 'machine', key);
    }
  });
});
