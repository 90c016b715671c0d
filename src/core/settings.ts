// Every `peon.*` setting, declared once. package.json's `contributes.configuration`
// is derived from this table (`npm run manifest`), and a unit test fails when the two drift.
import * as z from 'zod';
import { parseAllowedHost } from './web/hostPolicy';

/**
 * VS Code setting scopes. `machine` and `application` cannot be set by a workspace:
 * anything that loosens permissions, redirects a model endpoint or swaps an
 * executable uses one of them, so a cloned repository cannot change it.
 */
export type SettingScope = 'application' | 'machine' | 'window' | 'resource';

export interface SettingSpec {
  readonly schema: z.ZodType;
  readonly scope: SettingScope;
  readonly description: string;
  readonly default?: unknown;
  readonly enumDescriptions?: readonly string[];
  /**
   * `tighten`: user and workspace values are combined by src/core/permissions/rules.ts,
   * where the workspace may only add ask/deny; resolveSettings leaves such keys alone.
   */
  readonly merge?: 'tighten';
}

/** A delegated agent's argument vector: user or machine scope only (a project may not swap the program). */
function agentCommand(tool: string, argv: readonly string[]) {
  return {
    schema: z.array(z.string().min(1)).min(1),
    scope: 'machine' as const,
    default: argv,
    description: `The executable and fixed arguments of ${tool}; the prompt is appended as one argument. Read from user settings only.`,
  };
}

export const PERMISSION_MODE_VALUES = ['allow', 'ask', 'deny', 'semi-ask', 'semi-judge'] as const;
const permissionMode = z.enum(PERMISSION_MODE_VALUES);

export const PROVIDERS = ['anthropic', 'openai', 'vscode-lm'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const SETTINGS = {
  'peon.model.provider': {
    schema: z.enum(PROVIDERS),
    scope: 'machine',
    description: 'Which model API Peon talks to. Read from user settings only.',
    enumDescriptions: [
      'Anthropic Messages API; the key is kept in SecretStorage, never in settings.',
      'An OpenAI-compatible Chat Completions server: OpenAI, Ollama, LM Studio, vLLM, OpenRouter, llama.cpp.',
      "VS Code's Language Model API (for example GitHub Copilot's models): no key needed.",
    ],
  },
  'peon.model.id': {
    schema: z.string().trim().min(1).max(200),
    scope: 'machine',
    description: 'The model name as the provider spells it. Read from user settings only.',
  },
  'peon.model.baseUrl': {
    schema: z.url({ protocol: /^https?$/ }),
    scope: 'machine',
    description:
      'Base URL of the model API, for OpenAI-compatible servers and proxies. Read from user settings only: a workspace could otherwise send your API key to a server of its choosing.',
  },
  'peon.model.price': {
    schema: z
      .object({
        input: z.number().min(0).max(10_000),
        output: z.number().min(0).max(10_000),
        cacheRead: z.number().min(0).max(10_000).optional(),
        cacheWrite: z.number().min(0).max(10_000).optional(),
      })
      .strict(),
    scope: 'machine',
    description:
      'What the model costs you, in USD per million tokens (`{"input": 3, "output": 15}`; cache reads and writes default to the input price). Without it Peon shows the list price of the official Anthropic and OpenAI endpoints, and no cost for any other. Read from user settings only.',
  },
  'peon.compaction.threshold': {
    schema: z.number().min(0.3).max(0.95),
    scope: 'window',
    default: 0.8,
    description: 'How full the context window may get (a share of it, 0.3–0.95) before older turns are summarised into one message.',
  },
  'peon.bash.defaultTimeoutSeconds': {
    schema: z.number().int().min(1).max(86_400),
    scope: 'window',
    default: 40,
    description: 'How long a bash command may run when the call names no timeout (seconds).',
  },
  'peon.bash.maxTimeoutSeconds': {
    schema: z.number().int().min(1).max(86_400),
    scope: 'machine',
    default: 600,
    description: 'The longest a bash command may run (seconds): a call may only ask for less. Read from user settings only.',
  },
  'peon.sandbox.mode': {
    schema: z.enum(['workspace-write', 'read-only', 'off']),
    scope: 'machine',
    default: 'workspace-write',
    description: 'How bash commands run (Linux, with bubblewrap). Read from user settings only.',
    enumDescriptions: [
      'In a sandbox: writes only in the workspace folders and a private /tmp; your credentials (~/.ssh, ~/.aws, …) and secret variables hidden; no network.',
      'In a sandbox that writes nowhere but its private /tmp.',
      'Not sandboxed: every command asks, on a red card, each time.',
    ],
  },
  'peon.sandbox.network': {
    schema: z.boolean(),
    scope: 'machine',
    default: false,
    description: 'Give sandboxed commands the network (the card says "network ON"). Read from user settings only.',
  },
  'peon.sandbox.required': {
    schema: z.boolean(),
    scope: 'machine',
    default: false,
    description: 'Refuse to run a command when the sandbox cannot be had (instead of asking on a red card). Read from user settings only.',
  },
  'peon.checkpoints.maxFileMB': {
    schema: z.number().min(0).max(1024),
    scope: 'window',
    default: 5,
    description: 'Checkpoints keep the content of files up to this size (MB) before and after each step, so the step can be reverted; a larger file is recorded by its hash only and cannot be restored.',
  },
  'peon.checkpoints.maxStorageMB': {
    schema: z.number().min(16).max(1_000_000),
    scope: 'window',
    default: 1024,
    description: "How much space (MB) the workspace's checkpoints may take in Peon's storage; above it the oldest steps' contents are dropped first.",
  },
  // Each agent's own sandbox on for its commands, where its CLI has one (DESIGN.md §9).
  'peon.agents.claude.command': agentCommand('agent_claude', ['claude', '-p', '--settings', '{"sandbox":{"enabled":true}}']),
  // `--`: a prompt like "help" or "review" is a prompt, not a codex subcommand
  'peon.agents.codex.command': agentCommand('agent_codex', ['codex', 'exec', '--sandbox', 'workspace-write', '--']),
  'peon.agents.pi.command': agentCommand('agent_pi', ['pi', '-p']),
  'peon.subagents.maxDepth': {
    schema: z.number().int().min(1).max(5),
    scope: 'machine',
    default: 2,
    description: 'How deep subagents may nest: 1 lets the main agent start subagents but not theirs. Read from user settings only.',
  },
  'peon.subagents.maxConcurrent': {
    schema: z.number().int().min(1).max(16),
    scope: 'machine',
    default: 3,
    description: 'How many subagents may run at once: a background task past it waits (pending), a foreground one is refused. Read from user settings only.',
  },
  'peon.subagents.maxTurns': {
    schema: z.number().int().min(1).max(500),
    scope: 'machine',
    default: 40,
    description: 'The model turns one task may take before it is stopped with what it has. Read from user settings only.',
  },
  'peon.subagents.maxTokens': {
    schema: z.number().int().min(1000).max(100_000_000),
    scope: 'machine',
    default: 1_000_000,
    description: 'The tokens one task may use (input, output, cache reads and writes, as the provider counts them) before it is stopped with what it has. Read from user settings only.',
  },
  'peon.subagents.maxSeconds': {
    schema: z.number().int().min(1).max(86_400),
    scope: 'machine',
    default: 1200,
    description: 'How long one task may run (seconds, waiting for approvals included) before it is stopped with what it has. Read from user settings only.',
  },
  'peon.subagents.sessionTokens': {
    schema: z.number().int().min(1000).max(1_000_000_000),
    scope: 'machine',
    default: 5_000_000,
    description: "The tokens all of a chat's subagents together may use: past it, running ones stop with what they have and no new one starts. Read from user settings only.",
  },
  'peon.skills.maxSkills': {
    schema: z.number().int().min(0).max(1000),
    scope: 'machine',
    default: 100,
    description: 'How many skills a session takes, at most; the ones past it are listed as skipped. Read from user settings only (a repository cannot hide your skills).',
  },
  'peon.skills.maxSkillBytes': {
    schema: z.number().int().min(1024).max(10_485_760),
    scope: 'machine',
    default: 65_536,
    description: "How much of a skill's SKILL.md read_skill and loadskill give the model (bytes); the rest is cut, and the result says so. A SKILL.md over four times this (at least 1 MiB) is skipped. Read from user settings only.",
  },
  'peon.skills.roots': {
    schema: z.array(z.string().min(1).max(4096)).max(50),
    scope: 'machine',
    default: [],
    description: 'More folders of skills (each holding `<name>/SKILL.md`), besides `~/.peon/skills` and the workspace\'s `.peon/skills`. `~` is your home folder. Read from user settings only.',
  },
  'peon.skills.crossTool': {
    schema: z.boolean(),
    scope: 'machine',
    default: true,
    description: "Also take skills from `.claude/skills` and `.agents/skills` (in your home folder and the workspace), so a repository's Agent Skills work unchanged. Read from user settings only.",
  },
  'peon.skills.promptChars': {
    schema: z.number().int().min(500).max(100_000),
    scope: 'machine',
    default: 8000,
    description: 'How much of the system prompt the skill list may take (characters). Past it, the skills most relevant to the message keep their descriptions and the rest are listed by name only. Read from user settings only.',
  },
  'peon.memory.enabled': {
    schema: z.boolean(),
    scope: 'window',
    default: true,
    description: 'Memory under `.peon/memory/`: mem-search and mem-read, "Remember this" on a message, and session summaries (at compaction and when a chat is closed).',
  },
  'peon.memory.maxResults': {
    schema: z.number().int().min(1).max(10),
    scope: 'window',
    default: 5,
    description: 'How many entries mem-search returns when the call names no limit (1–10).',
  },
  'peon.memory.relevanceGate': {
    schema: z.enum(['auto', 'decision', 'llm', 'score', 'off']),
    scope: 'window',
    default: 'auto',
    description: 'Which mem-search results reach the model.',
    enumDescriptions: [
      '`score`, then `llm` when more entries pass than the limit.',
      'Only decisions and curated facts (curated files, observations of kind decision), ranked by score.',
      "The best candidates by score go to the conversation's model with the query; only those it names relevant are returned. Any failure falls back to `score`.",
      'Only entries whose normalised score (0–1) reaches peon.memory.minScore.',
      'Every entry with a positive score, best first.',
    ],
  },
  'peon.memory.minScore': {
    schema: z.number().min(0).max(1),
    scope: 'window',
    default: 0.3,
    description: "The `score` gate's threshold: the share (0–1) of the query's weight an entry must match.",
  },
  'peon.mcp.servers': {
    schema: z.record(z.string().min(1).max(200), z.record(z.string(), z.unknown())),
    scope: 'machine',
    default: {},
    description:
      'Your MCP servers, in the shape of VS Code\'s mcp.json `servers`: `{"name": {"type": "stdio", "command": "npx", "args": [...], "env": {...}, "envFile": "...", "cwd": "..."}}` or `{"type": "http", "url": "...", "headers": {...}}`. Their tools are named `<name>__<tool>`. A workspace\'s `.vscode/mcp.json` and `.mcp.json` add its own servers, which start only once you approve them. Read from user settings only.',
  },
  'peon.mcp.timeoutSeconds': {
    schema: z.number().int().min(1).max(3600),
    scope: 'machine',
    default: 60,
    description: 'How long one MCP tool call may take (seconds), not counting time on its approval card. Read from user settings only.',
  },
  'peon.mcp.startTimeoutSeconds': {
    schema: z.number().int().min(1).max(600),
    scope: 'machine',
    default: 30,
    description: "How long an MCP server may take to start and answer `initialize` (seconds; a first `npx` run downloads). Read from user settings only.",
  },
  'peon.mcp.maxMessageMB': {
    schema: z.number().int().min(1).max(512),
    scope: 'machine',
    default: 16,
    description: 'The largest message a stdio MCP server may send (MB): past it, that call fails as too large and the server is restarted. Read from user settings only.',
  },
  'peon.mcp.maxTools': {
    schema: z.number().int().min(1).max(1000),
    scope: 'machine',
    default: 64,
    description: "How many MCP tools may be enabled before the panel warns that they cost context on every request (each tool's description and schema is sent with it). Read from user settings only.",
  },
  'peon.permission.default': {
    schema: permissionMode,
    scope: 'window',
    merge: 'tighten',
    description:
      'The mode for tools without a built-in default (delegated agents, MCP tools). A workspace may only tighten it (ask, deny).',
  },
  'peon.permission.judge': {
    schema: z.boolean(),
    scope: 'machine',
    default: false,
    description:
      'Let the model judge commands that would ask only because they are not on the read-only list: one it classifies as clearly safe runs without asking. Off by default; an unsafe or unclear answer, an error or a timeout asks. Redirections, substitutions, destructive commands, secret-like or outside paths and ask/deny rules always ask. Read from user settings only.',
  },
  'peon.permission.rules': {
    schema: z.record(z.string(), z.union([permissionMode, z.record(z.string(), permissionMode)])),
    scope: 'window',
    merge: 'tighten',
    description:
      'Per-tool modes (`{"write": "ask", "delete": "deny"}`) or pattern rules: command patterns for bash, judged segment by segment (`{"bash": {"npm test": "allow", "npm run *": "allow", "curl *": "deny"}}`), path globs for file tools (`{"write": {"src/**": "allow"}}`), host globs for webfetch and websearch (`{"webfetch": {"*.python.org": "allow"}}`). Among matching rules deny beats ask beats allow; destructive commands and protected paths always ask. A workspace may only add ask or deny; its allow is ignored.',
  },
  'peon.web.allowedHosts': {
    schema: z.array(z.string().refine((entry) => parseAllowedHost(entry) !== undefined, 'a host or host:port, such as "localhost:8080" or "docs.internal"')).max(500),
    scope: 'machine',
    default: [],
    description:
      'Hosts webfetch and websearch may reach although they are on this machine or a private network (`"localhost:8080"`, `"wiki.corp.internal"`, `"[::1]:3000"`): each exactly as written, no subdomains or wildcards; without a port, every port. Everything else private, loopback, link-local or metadata is refused. Read from user settings only.',
  },
  'peon.web.search.endpoint': {
    schema: z.url({ protocol: /^https?$/ }),
    scope: 'machine',
    default: 'https://html.duckduckgo.com/html/',
    description: "Where websearch sends its query: DuckDuckGo's HTML endpoint, or another server that serves the same page. Read from user settings only.",
  },
  'peon.web.timeoutSeconds': {
    schema: z.number().int().min(1).max(600),
    scope: 'window',
    default: 30,
    description: 'How long one webfetch or websearch request may take, redirects and body included (seconds).',
  },
} as const satisfies Record<string, SettingSpec>;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValues = { [K in SettingKey]?: z.infer<(typeof SETTINGS)[K]['schema']> };

/** Settings that only user or machine scope may set; a workspace value is ignored. */
export function isUserScopeOnly(key: SettingKey): boolean {
  const scope = SETTINGS[key].scope as SettingScope;
  return scope === 'machine' || scope === 'application';
}

/** The values as VS Code (`inspect`) or the CLI's `--config` and `.vscode/settings.json` give them. */
export interface SettingLayers {
  readonly user: Readonly<Record<string, unknown>>;
  readonly workspace: Readonly<Record<string, unknown>>;
}

export interface ResolvedSettings {
  readonly values: SettingValues;
  /** One line per ignored value, written for the user. */
  readonly warnings: readonly string[];
}

export function resolveSettings(layers: SettingLayers): ResolvedSettings {
  const values: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const spec: SettingSpec = SETTINGS[key];
    if (spec.merge === 'tighten') continue;
    let raw = layers.user[key];
    if (layers.workspace[key] !== undefined) {
      if (isUserScopeOnly(key)) warnings.push(`${key} is ignored in workspace settings; set it in your user settings.`);
      else raw = layers.workspace[key];
    }
    if (raw === undefined) raw = spec.default;
    if (raw === undefined) continue;
    const parsed = spec.schema.safeParse(raw);
    if (parsed.success) values[key] = parsed.data;
    else warnings.push(`${key} has an invalid value and is ignored: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
  }
  return { values: values as SettingValues, warnings };
}

/** The `contributes.configuration.properties` object for package.json. */
export function settingsManifest(): Record<string, Record<string, unknown>> {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [key, spec] of Object.entries(SETTINGS) as [SettingKey, SettingSpec][]) {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(spec.schema) as Record<string, unknown>;
    properties[key] = {
      ...schema,
      ...(spec.default !== undefined ? { default: spec.default } : {}),
      ...(spec.enumDescriptions ? { enumDescriptions: spec.enumDescriptions } : {}),
      scope: spec.scope,
      markdownDescription: spec.description,
    };
  }
  return properties;
}
