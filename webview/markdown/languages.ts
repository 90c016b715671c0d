// The languages the code-block highlighter colours, by the names a fence uses for them
// (```ts, ```bash, …). In the initial bundle, so a block in any other language (```text,
// ```console output) never loads the highlighter (highlight/highlight.ts).
const ALIASES = {
  javascript: ['js', 'javascript', 'mjs', 'cjs', 'node', 'es6', 'jsx'],
  typescript: ['ts', 'typescript', 'mts', 'cts', 'tsx'],
  json: ['json', 'jsonc', 'json5', 'jsonl'],
  python: ['py', 'python', 'python3', 'py3', 'gyp'],
  css: ['css'],
  scss: ['scss'],
  less: ['less'],
  html: ['html', 'htm', 'xhtml', 'vue', 'svelte'],
  xml: ['xml', 'svg', 'plist', 'xsl', 'csproj'],
  rust: ['rs', 'rust'],
  go: ['go', 'golang'],
  java: ['java'],
  cpp: ['c', 'h', 'cpp', 'c++', 'cc', 'cxx', 'hpp', 'hh'],
  csharp: ['cs', 'csharp', 'c#'],
  kotlin: ['kt', 'kts', 'kotlin'],
  yaml: ['yaml', 'yml'],
  toml: ['toml'],
  shell: ['sh', 'bash', 'shell', 'zsh', 'shellscript', 'console', 'terminal'],
  powershell: ['ps1', 'powershell', 'pwsh'],
  diff: ['diff', 'patch'],
  sql: ['sql', 'mysql', 'postgres', 'postgresql', 'sqlite', 'psql'],
  dockerfile: ['dockerfile', 'docker', 'containerfile'],
  ruby: ['rb', 'ruby'],
  swift: ['swift'],
} as const;

export type Language = keyof typeof ALIASES;

const byAlias = new Map<string, Language>(Object.entries(ALIASES).flatMap(([language, aliases]) => aliases.map((alias) => [alias, language as Language])));

/** The fence's language as written, for the block's label: its info string's first word (```ts title=x → "ts"). */
export const fenceLabel = (info: string | undefined): string => (info ?? '').trim().split(/\s/)[0] ?? '';

/** The language the highlighter knows a fence by (```TS, ```ts:src/a.ts, ```{.python}), or undefined. */
export function languageOf(info: string | undefined): Language | undefined {
  const name = fenceLabel(info).toLowerCase().replace(/^\{?\.?/, '').split(/[:}]/)[0] ?? '';
  return byAlias.get(name);
}
