import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { webProxy } from '../../src/extension/panelConversation';
import { readSettings } from '../../src/extension/settings';

suite('settings scopes in the real host', () => {
  teardown(async () => {
    await vscode.workspace.getConfiguration('peon').update('model.provider', undefined, vscode.ConfigurationTarget.Global);
  });

  test('VS Code refuses to write a machine-scoped setting to workspace settings', async () => {
    await assert.rejects(
      Promise.resolve(
        vscode.workspace.getConfiguration('peon').update('model.baseUrl', 'http://127.0.0.1:9/', vscode.ConfigurationTarget.Workspace),
      ),
      /This setting can be written only into User settings/,
    );
    assert.equal(readSettings().values['peon.model.baseUrl'], undefined);
  });

  test('a user-scope value is read and validated', async () => {
    await vscode.workspace.getConfiguration('peon').update('model.provider', 'openai', vscode.ConfigurationTarget.Global);
    assert.equal(readSettings().values['peon.model.provider'], 'openai');
  });

  test('writing a permission rule to user settings (Always allow) keeps the model settings as they were', async () => {
    const peon = vscode.workspace.getConfiguration('peon');
    await peon.update('model.provider', 'openai', vscode.ConfigurationTarget.Global);
    await peon.update('model.id', 'm', vscode.ConfigurationTarget.Global);
    try {
      await vscode.workspace.getConfiguration('peon').update('permission.rules', { bash: { 'npm test': 'allow' } }, vscode.ConfigurationTarget.Global);
      const settings = readSettings();
      assert.deepEqual(settings.layers.user['peon.permission.rules'], { bash: { 'npm test': 'allow' } });
      assert.equal(settings.values['peon.model.provider'], 'openai', JSON.stringify(settings.layers));
      assert.equal(settings.values['peon.model.id'], 'm');
    } finally {
      await peon.update('permission.rules', undefined, vscode.ConfigurationTarget.Global);
      await peon.update('model.id', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test("webfetch's proxy is VS Code's http.proxy and http.noProxy from user settings", async () => {
    const http = vscode.workspace.getConfiguration('http');
    await http.update('proxy', 'http://127.0.0.1:3128', vscode.ConfigurationTarget.Global);
    await http.update('noProxy', ['docs.internal'], vscode.ConfigurationTarget.Global);
    try {
      assert.deepEqual(webProxy(), { https: 'http://127.0.0.1:3128', http: 'http://127.0.0.1:3128', noProxy: ['docs.internal'] });
    } finally {
      await http.update('proxy', undefined, vscode.ConfigurationTarget.Global);
      await http.update('noProxy', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.equal(webProxy(), undefined);
  });

  test('an invalid user value is ignored with a warning', async () => {
    await vscode.workspace.getConfiguration('peon').update('model.provider', 'mystery', vscode.ConfigurationTarget.Global);
    const settings = readSettings();
    assert.equal(settings.values['peon.model.provider'], undefined);
    assert.match(settings.warnings.join('\n'), /peon\.model\.provider has an invalid value/);
  });
});

suite('a workspace settings file cannot set user-scope-only settings', () => {
  test('peon.model.* in .vscode/settings.json is ignored while an ordinary setting there applies', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suite runs with a workspace folder open');
    const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
    const content = {
      'editor.tabSize': 7,
      'peon.model.provider': 'anthropic',
      'peon.model.baseUrl': 'http://127.0.0.1:9/',
      // A project must not open the user's network to webfetch, redirect its searches or route its requests.
      'peon.web.allowedHosts': ['127.0.0.1:9', 'localhost'],
      'peon.web.search.endpoint': 'http://127.0.0.1:9/html/',
      'http.proxy': 'http://127.0.0.1:9',
    };
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify(content)));
    try {
      const deadline = Date.now() + 10_000;
      while (vscode.workspace.getConfiguration('editor').get('tabSize') !== 7) {
        assert.ok(Date.now() < deadline, 'VS Code picked up the workspace settings file');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const settings = readSettings();
      assert.equal(settings.values['peon.model.provider'], undefined);
      assert.equal(settings.values['peon.model.baseUrl'], undefined);
      assert.deepEqual(settings.values['peon.web.allowedHosts'], []);
      assert.equal(settings.values['peon.web.search.endpoint'], 'https://html.duckduckgo.com/html/');
      assert.equal(webProxy(), undefined);
    } finally {
      await vscode.workspace.fs.delete(file);
    }
  });
});
