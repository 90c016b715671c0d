import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { SETTINGS, isUserScopeOnly, resolveSettings, settingsManifest, type SettingKey } from '../../src/core/settings';
import { modelStatusOf } from '../../src/core/modelStatus';

const none = {};
/** What resolveSettings gives with nothing set: the declared defaults. */
const DEFAULTS = resolveSettings({ user: {}, workspace: {} }).values;

describe('resolveSettings', () => {
  test('reads valid user values', () => {
    const { values, warnings } = resolveSettings({
      user: { 'peon.model.provider': 'anthropic', 'peon.model.id': ' claude-sonnet ', 'peon.model.baseUrl': 'http://127.0.0.1:11434/v1' },
      workspace: none,
    });
    expect(values).toEqual({ ...DEFAULTS, 'peon.model.provider': 'anthropic', 'peon.model.id': 'claude-sonnet', 'peon.model.baseUrl': 'http://127.0.0.1:11434/v1' });
    expect(warnings).toEqual([]);
  });

  test('a workspace can never set a user-scope-only setting, and is told so', () => {
    const { values, warnings } = resolveSettings({
      user: { 'peon.model.baseUrl': 'https://api.example.test/v1' },
      workspace: { 'peon.model.baseUrl': 'https://attacker.example.test/v1', 'peon.model.provider': 'openai' },
    });
    expect(values).toEqual({ ...DEFAULTS, 'peon.model.baseUrl': 'https://api.example.test/v1' });
    expect(warnings).toEqual([
      'peon.model.provider is ignored in workspace settings; set it in your user settings.',
      'peon.model.baseUrl is ignored in workspace settings; set it in your user settings.',
    ]);
  });

  test.each([
    ['peon.model.provider', 'mystery'],
    ['peon.model.provider', 1],
    ['peon.model.id', ''],
    ['peon.model.id', ['gpt']],
    ['peon.model.baseUrl', 'file:///etc/passwd'],
    ['peon.model.baseUrl', 'not a url'],
  ])('an invalid %s (%j) is ignored with a warning, never coerced', (key, value) => {
    const { values, warnings } = resolveSettings({ user: { [key]: value }, workspace: none });
    expect(values).toEqual(DEFAULTS);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^${key.replace(/\./g, '\\.')} has an invalid value and is ignored`));
  });

  test('every model endpoint setting is user-scope only', () => {
    for (const key of Object.keys(SETTINGS) as SettingKey[]) {
      if (key.startsWith('peon.model.')) expect(isUserScopeOnly(key), key).toBe(true);
    }
  });
});

test('package.json contributes exactly the settings declared in src/core/settings.ts', () => {
  const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
  expect(manifest.contributes.configuration.properties).toEqual(settingsManifest());
});

describe('model status', () => {
  test('nothing configured', () => {
    expect(modelStatusOf({})).toEqual({ state: 'unconfigured' });
  });

  test('configured', () => {
    expect(modelStatusOf({ 'peon.model.provider': 'openai', 'peon.model.id': 'qwen3' })).toEqual({ state: 'configured', provider: 'openai', model: 'qwen3' });
  });
});

test('the defaults are the declared ones: no judge model, compaction at 80%, bash timeouts, the agents\' argument vectors, the web\'s, the subagents\' bounds, skills, memory and MCP', () => {
  expect(DEFAULTS).toEqual({
    'peon.compaction.threshold': 0.8,
    'peon.permission.judge': false,
    'peon.bash.defaultTimeoutSeconds': 40,
    'peon.bash.maxTimeoutSeconds': 600,
    'peon.agents.claude.command': ['claude', '-p', '--settings', '{"sandbox":{"enabled":true}}'],
    'peon.agents.codex.command': ['codex', 'exec', '--sandbox', 'workspace-write', '--'],
    'peon.sandbox.mode': 'workspace-write',
    'peon.sandbox.network': false,
    'peon.sandbox.required': false,
    'peon.checkpoints.maxFileMB': 5,
    'peon.checkpoints.maxStorageMB': 1024,
    'peon.agents.pi.command': ['pi', '-p'],
    'peon.web.allowedHosts': [],
    'peon.web.search.endpoint': 'https://html.duckduckgo.com/html/',
    'peon.web.timeoutSeconds': 30,
    'peon.subagents.maxDepth': 2,
    'peon.subagents.maxConcurrent': 3,
    'peon.subagents.maxTurns': 40,
    'peon.subagents.maxTokens': 1_000_000,
    'peon.subagents.maxSeconds': 1200,
    'peon.subagents.sessionTokens': 5_000_000,
    'peon.skills.maxSkills': 100,
    'peon.skills.maxSkillBytes': 65_536,
    'peon.skills.roots': [],
    'peon.skills.crossTool': true,
    'peon.skills.promptChars': 8000,
    'peon.memory.enabled': true,
    'peon.memory.maxResults': 5,
    'peon.memory.relevanceGate': 'auto',
    'peon.memory.minScore': 0.3,
    'peon.mcp.servers': {},
    'peon.mcp.timeoutSeconds': 60,
    'peon.mcp.startTimeoutSeconds': 30,
    'peon.mcp.maxMessageMB': 16,
    'peon.mcp.maxTools': 64,
  });
});
