// The environment variables a sandboxed command does not get (DESIGN.md §9): credentials
// by their conventional names, URLs that carry a password, the agent sockets that hand
// out keys, and the handles of the desktop session (X11, D-Bus), which would let a
// command act outside the sandbox.

const SECRET_NAME = /(^|_)(TOKEN|SECRET|SECRETS|PASS|API_?KEYS?|ACCESS_?KEY|SECRET_?KEY|PRIVATE_?KEY|SESSION_?KEY|CREDENTIALS?|AUTH|AUTH_?TOKEN|COOKIE|KEY|KEYS|PAT|PWD|DSN)$|PASSWORD$|PASSWD$|PASSPHRASE$/;
/** A credential word anywhere in the name (`GITHUB_TOKEN_FOR_CI`, `CI_JOB_JWT_V2`, `SLACK_WEBHOOK_URL`, `SENTRY_DSN_URL`, `HTTP_AUTHORIZATION`). */
const SECRET_WORD = /(^|_)(TOKEN|TOKENS|SECRET|SECRETS|JWT|PASSWORD|PASSWD|PASSPHRASE|WEBHOOK|WEBHOOKS|APIKEY|APIKEYS|API_KEY|API_KEYS|DSN|AUTHORIZATION|CONNECTIONSTRING|CONNECTIONSTRINGS|CONNECTION_STRING|CREDENTIALS|CREDS)(_|$)/;
const SECRET_PREFIX = /^(AWS|AZURE|ARM_CLIENT|GOOGLE_APPLICATION|GCP_SA|DIGITALOCEAN|HCLOUD|VAULT|OP_SESSION|TWINE|PYPI)_/;
/** Bundler's credentials for a gem server (`BUNDLE_GEMS__EXAMPLE__COM`: the host's dots as `__`), not its settings (`BUNDLE_PATH`). */
const BUNDLER_CREDENTIAL = /^BUNDLE_[A-Z0-9_]*__[A-Z0-9]/;
const SECRET_EXACT = new Set(['SSH_AUTH_SOCK', 'SSH_AGENT_PID', 'GPG_AGENT_INFO', 'GNUPGHOME', 'KRB5CCNAME', 'NETRC', 'DOCKER_AUTH_CONFIG', 'NPM_CONFIG__AUTH', 'GIT_ASKPASS_TOKEN', 'XAUTHORITY', 'DBUS_SESSION_BUS_ADDRESS']);
/** The shell's own: never a secret, whatever the patterns say. */
const NEVER = new Set(['PWD', 'OLDPWD']);
/** `scheme://user:password@host`: a connection string with its password in it. */
const CREDENTIAL_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/@\s:]*:[^/@\s]+@/i;
/** `https://ghp_…@host`: a token as the URL's user name (a plain `git@` is not one). */
const TOKEN_USER_URL = /^[a-z][a-z0-9+.-]*:\/\/[A-Za-z0-9_\-.~%]{20,}@/i;
/**
 * A value that carries a credential whatever the variable is called: a connection string
 * with its password or account key (`Server=…;Password=…`, Azure's `AccountKey=`), an
 * HTTP authorization header (`GIT_CONFIG_PARAMETERS` with an extraHeader), a bearer token,
 * a private key.
 */
const CREDENTIAL_VALUE = /(^|[;\s'"])(password|pwd|accountkey|sharedaccesskey|sharedaccesssignature)\s*=|authorization\s*:|\bbearer\s+[A-Za-z0-9._~+/-]{8,}|-----BEGIN [A-Z ]*PRIVATE KEY-----/i;

/** A credential word at the very end, however the name is joined (`githubToken`, `ClientSecret`, `DB_CREDS`). */
const SECRET_END = /(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|APIKEY|CREDENTIALS?|CREDS)$/;

export function isSecretVariable(name: string, value?: string): boolean {
  // `GITHUB-TOKEN`, `Authentication__Google__ClientSecret`: any separator counts as `_`.
  const upper = name.toUpperCase().replace(/[^A-Z0-9_/]/g, '_');
  if (NEVER.has(upper)) return false;
  return SECRET_EXACT.has(upper) || SECRET_NAME.test(upper) || SECRET_WORD.test(upper) || SECRET_END.test(upper) || SECRET_PREFIX.test(upper) || BUNDLER_CREDENTIAL.test(upper) || upper.startsWith('NPM_CONFIG_//') || (value !== undefined && (CREDENTIAL_URL.test(value) || TOKEN_USER_URL.test(value) || CREDENTIAL_VALUE.test(value)));
}

/** The names in `env` a sandboxed command does not get, sorted. */
export function secretVariables(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((name) => isSecretVariable(name, env[name]))
    .sort();
}

/**
 * Variables that move a credential file or folder away from where SECRET_LOCATIONS
 * looks (`KUBECONFIG=/srv/k/config`, `GNUPGHOME`): removing the variable is not enough,
 * what it names is hidden too. `KUBECONFIG` may list several, `:`-separated.
 */
const CREDENTIAL_PATHS = ['GOOGLE_APPLICATION_CREDENTIALS', 'KUBECONFIG', 'AWS_SHARED_CREDENTIALS_FILE', 'AWS_CONFIG_FILE', 'DOCKER_CONFIG', 'GNUPGHOME', 'CLOUDSDK_CONFIG', 'GH_CONFIG_DIR', 'AZURE_CONFIG_DIR', 'NPM_CONFIG_USERCONFIG', 'PGPASSFILE', 'NETRC', 'PASSWORD_STORE_DIR', 'VAULT_CONFIG_PATH', 'TF_CLI_CONFIG_FILE', 'BUNDLE_USER_CONFIG'];

/** Where the XDG variables move the home folder's `.config`, `.cache`, `.local/share` and `.local/state`. */
const XDG_HOMES: readonly (readonly [string, string])[] = [
  ['XDG_CONFIG_HOME', '.config/'],
  ['XDG_CACHE_HOME', '.cache/'],
  ['XDG_DATA_HOME', '.local/share/'],
  ['XDG_STATE_HOME', '.local/state/'],
];

/**
 * The absolute paths those variables name (whatever their case: npm reads
 * `npm_config_userconfig` as well as `NPM_CONFIG_USERCONFIG`); and the secret locations
 * under `~/.config`, `~/.cache`, `~/.local/share` and `~/.local/state` where the XDG
 * variables move them.
 */
export function credentialPaths(env: NodeJS.ProcessEnv, locations: readonly string[]): string[] {
  const out: string[] = [];
  for (const [variable, prefix] of XDG_HOMES) {
    const dir = env[variable];
    if (dir?.startsWith('/')) for (const rel of locations) if (rel.startsWith(prefix)) out.push(`${dir.replace(/\/+$/, '')}/${rel.slice(prefix.length)}`);
  }
  const byName = new Map<string, string[]>();
  for (const [name, value] of Object.entries(env)) if (value !== undefined) byName.set(name.toUpperCase(), [...(byName.get(name.toUpperCase()) ?? []), value]);
  for (const name of CREDENTIAL_PATHS) for (const value of byName.get(name) ?? []) for (const p of value.split(':')) if (p.startsWith('/')) out.push(p);
  return out;
}
