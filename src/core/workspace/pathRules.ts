// Which paths are secret-like (reading them needs approval) and which are protected
// (changing them always asks). Both are name heuristics on canonical paths: a
// visibility aid, not a confidentiality boundary (an OS sandbox is that).

const lower = (s: string): string => s.toLowerCase();

const SECRET_BASENAMES = [
  /^\.env($|\.)/, /\.pem$/, /\.key$/, /^id_(rsa|dsa|ecdsa|ed25519)/, /^\.netrc$/, /^_netrc$/, /^\.npmrc$/, /^\.pypirc$/,
  /^\.git-credentials$/, /secret/, /credential/, /^\.htpasswd$/, /\.(p12|pfx|keystore|jks|kdbx)$/, /^\.pgpass$/,
];
const SECRET_DIRS = ['.ssh', '.aws', '.gnupg', '.kube', '.azure'];
const SECRET_SUFFIXES = ['.docker/config.json', '.config/gcloud', '.config/gh/hosts.yml'];

/** `segments`: the path split on '/', any prefix (absolute or workspace-relative). */
export function secretReasons(segments: readonly string[]): string[] {
  const parts = segments.filter(Boolean).map(lower);
  const reasons: string[] = [];
  const base = parts[parts.length - 1] ?? '';
  if (SECRET_BASENAMES.some((re) => re.test(base))) reasons.push(`${base} looks like a secret`);
  const dir = parts.slice(0, -1).find((p) => SECRET_DIRS.includes(p));
  if (dir) reasons.push(`it is inside ${dir}/`);
  else if (SECRET_DIRS.includes(base)) reasons.push(`${base}/ holds credentials`);
  const joined = parts.join('/');
  const suffix = SECRET_SUFFIXES.find((s) => joined.endsWith(s) || joined.includes(`${s}/`));
  if (suffix) reasons.push(`it is a credentials file (${suffix})`);
  return reasons;
}

/** Workspace-relative protected paths: config the agent could use to run code or loosen its own rules. */
const PROTECTED_IN_WORKSPACE: readonly [RegExp, string][] = [
  [/(^|\/)\.vscode(\/|$)/, 'VS Code workspace configuration'],
  [/(^|\/)\.git(\/|$)/, 'git internals (hooks, config)'],
  [/^\.peon\/(?!plans\/|memory\/|todos\.json$)/, 'Peon configuration'],
  [/^\.peon$/, 'Peon configuration'],
  [/^(\.mcp\.json|\.cursor\/mcp\.json)$/, 'MCP server configuration'],
  [/^\.github\/workflows(\/|$)/, 'CI workflows'],
  [/^\.husky(\/|$)/, 'git hooks'],
  [/^\.(claude|agents)\/skills(\/|$)/, 'agent skills'],
  [/^\.gitmodules$/, 'git submodule configuration'],
];

/** Home-relative protected paths: shell profiles and Peon's user configuration. */
const PROTECTED_IN_HOME: readonly [RegExp, string][] = [
  [/^\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|kshrc|cshrc|tcshrc)$/, 'a shell profile'],
  [/^\.config\/fish\/(config\.fish|conf\.d\/)/, 'a shell profile'],
  [/^\.peon(\/|$)/, 'Peon user configuration and skills'],
  [/^\.gitconfig$/, 'git user configuration'],
  [/^\.ssh(\/|$)/, 'SSH configuration'],
];

export function protectedReason(relativeToWorkspace: string | undefined, relativeToHome: string | undefined): string | undefined {
  if (relativeToWorkspace !== undefined) {
    const rel = lower(relativeToWorkspace);
    for (const [re, why] of PROTECTED_IN_WORKSPACE) if (re.test(rel)) return why;
  }
  if (relativeToHome !== undefined) {
    const rel = lower(relativeToHome);
    for (const [re, why] of PROTECTED_IN_HOME) if (re.test(rel)) return why;
  }
  return undefined;
}
