// The environment variables a sandboxed command does not get (DESIGN.md §9): credentials
// by their conventional names, URLs that carry a password, the agent sockets that hand
// out keys, and the handles of the desktop session (X11, D-Bus), which would let a
// command act outside the sandbox.

const SECRET_NAME = /(^|_)(TOKEN|SECRET|SECRETS|PASS|API_?KEY|ACCESS_?KEY|SECRET_?KEY|PRIVATE_?KEY|SESSION_?KEY|CREDENTIALS?|AUTH|AUTH_?TOKEN|COOKIE|KEY|PAT|PWD)$|PASSWORD$|PASSWD$/;
const SECRET_PREFIX = /^(AWS|AZURE|ARM_CLIENT|GOOGLE_APPLICATION|GCP_SA|DIGITALOCEAN|HCLOUD|VAULT|OP_SESSION|TWINE|PYPI)_/;
const SECRET_EXACT = new Set(['SSH_AUTH_SOCK', 'SSH_AGENT_PID', 'GPG_AGENT_INFO', 'GNUPGHOME', 'KRB5CCNAME', 'NETRC', 'DOCKER_AUTH_CONFIG', 'NPM_CONFIG__AUTH', 'GIT_ASKPASS_TOKEN', 'XAUTHORITY', 'DBUS_SESSION_BUS_ADDRESS']);
/** The shell's own: never a secret, whatever the patterns say. */
const NEVER = new Set(['PWD', 'OLDPWD']);
/** `scheme://user:password@host`: a connection string with its password in it. */
const CREDENTIAL_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/@\s:]*:[^/@\s]+@/i;

export function isSecretVariable(name: string, value?: string): boolean {
  const upper = name.toUpperCase();
  if (NEVER.has(upper)) return false;
  return SECRET_EXACT.has(upper) || SECRET_NAME.test(upper) || SECRET_PREFIX.test(upper) || upper.startsWith('NPM_CONFIG_//') || (value !== undefined && CREDENTIAL_URL.test(value));
}

/** The names in `env` a sandboxed command does not get, sorted. */
export function secretVariables(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((name) => isSecretVariable(name, env[name]))
    .sort();
}
