// Which paths are secret-like (reading them needs approval) and which are protected
// (changing them always asks). Both are name heuristics on canonical paths: a
// visibility aid, not a confidentiality boundary (an OS sandbox is that).

const lower = (s: string): string => s.toLowerCase();

const SECRET_BASENAMES = [
  /^\.env($|\.)/, /\.env$/, /^\.?(access[_-]?|auth[_-]?|api[_-]?|refresh[_-]?)?tokens?(\.(json|txt|ya?ml|toml))?$/, /[_-]tokens?$/, /\.pem$/, /\.key$/, /^id_(rsa|dsa|ecdsa|ed25519)/, /^\.netrc$/, /^_netrc$/, /^\.npmrc$/, /^\.pypirc$/,
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
  const dir = parts.slice(0, -1).find((p) => SECRET_DIRS.includes(p) || /secret|credential/.test(p));
  if (dir) reasons.push(`it is inside ${dir}/`);
  else if (SECRET_DIRS.includes(base)) reasons.push(`${base}/ holds credentials`);
  // A tool's own token under ~/.config (`gh`, `hub`, cloud CLIs): `~/.config/<tool>/token.json`.
  const config = parts.lastIndexOf('.config');
  if (config >= 0 && config < parts.length - 1 && /token/.test(base) && !reasons.some((r) => r.startsWith(base))) reasons.push(`${base} looks like a token a tool keeps in ~/.config`);
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
  [/(^|\/)\.envrc$/, 'direnv runs it on entering the folder'],
  [/^\.devcontainer(\/|$)/, 'dev container configuration, run when the folder opens in a container'],
  [/(^|\/)[^/]+\.code-workspace$/, 'a VS Code workspace file: its settings and tasks apply when it is opened'],
];

/** Home-relative protected paths: what a login shell, git or an editor loads, and Peon's and VS Code's user configuration. */
const PROTECTED_IN_HOME: readonly [RegExp, string][] = [
  [/^\.(bashrc|bash_profile|bash_login|bash_logout|bash_aliases|profile|zshrc|zshenv|zprofile|zlogin|kshrc|cshrc|tcshrc|pam_environment|xprofile|xsessionrc|envrc|direnvrc)$/, 'a shell profile'],
  [/^\.config\/fish\/(config\.fish|conf\.d\/)/, 'a shell profile'],
  [/^\.cargo\/(env|config(\.toml)?)$/, 'sourced by the shell profile, or run by cargo'],
  [/^\.config\/git(\/|$)/, 'git user configuration'],
  [/^(\.local\/bin|bin)(\/|$)/, 'a folder on PATH'],
  [/^\.config\/(autostart|systemd|environment\.d|direnv)(\/|$)/, 'run when you log in'],
  [/^(\.config\/(code|code - insiders|vscodium|cursor|code-server)|\.vscode(-server|-insiders)?|\.local\/share\/code-server|library\/application support\/(code|code - insiders|vscodium|cursor))(\/|$)/, 'VS Code user settings and extensions'],
  [/^(\.vimrc|\.config\/nvim\/|\.emacs$|\.emacs\.d\/)/, 'an editor configuration that runs code'],
  [/^\.peon(\/|$)/, 'Peon user configuration and skills'],
  [/^\.(claude|agents)\/skills(\/|$)/, 'agent skills'],
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
