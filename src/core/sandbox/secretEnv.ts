// The environment variables a sandboxed command does not get (DESIGN.md §9): credentials
// by their conventional names, and the agent sockets that hand out keys.

const SECRET_NAME = /(^|_)(TOKEN|SECRET|SECRETS|PASSWORD|PASSWD|PASS|API_?KEY|ACCESS_?KEY|SECRET_?KEY|PRIVATE_?KEY|SESSION_?KEY|CREDENTIALS?|AUTH|AUTH_?TOKEN|COOKIE)$/;
const SECRET_PREFIX = /^(AWS|AZURE|ARM_CLIENT|GOOGLE_APPLICATION|GCP_SA|DIGITALOCEAN|HCLOUD|VAULT|OP_SESSION|TWINE|PYPI)_/;
const SECRET_EXACT = new Set(['SSH_AUTH_SOCK', 'SSH_AGENT_PID', 'GPG_AGENT_INFO', 'GNUPGHOME', 'KRB5CCNAME', 'NETRC', 'DOCKER_AUTH_CONFIG', 'NPM_CONFIG__AUTH', 'GIT_ASKPASS_TOKEN']);

export function isSecretVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_EXACT.has(upper) || SECRET_NAME.test(upper) || SECRET_PREFIX.test(upper) || upper.startsWith('NPM_CONFIG_//');
}

/** The names in `env` a sandboxed command does not get, sorted. */
export function secretVariables(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env).filter(isSecretVariable).sort();
}
