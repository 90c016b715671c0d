// Git settings every git Peon runs (a command's, and the gate's own look into a
// repository) starts with, whatever the repository's own config says: no implicit bare
// repositories (a folder in the workspace laid out like one could carry a config that
// runs commands), no fsmonitor hook, and no optional index refresh (GIT_OPTIONAL_LOCKS=0),
// which would run a post-index-change hook on `git status`; no signature checks by
// default (log.showSignature runs gpg, which writes ~/.gnupg), and no fetching of missing
// objects in a partial clone (GIT_NO_LAZY_FETCH). Command-line scope beats every config
// file. (`git diff`'s quiet refresh of the index's stat cache is not optional to git:
// it may rewrite .git/index, never what it records.)
const GIT_GUARD: readonly (readonly [string, string])[] = [
  ['safe.bareRepository', 'explicit'],
  ['core.fsmonitor', 'false'],
  ['log.showSignature', 'false'],
];

export function withGitGuard(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const count = Number(env.GIT_CONFIG_COUNT ?? 0) || 0;
  const guarded: NodeJS.ProcessEnv = { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_NO_LAZY_FETCH: '1', GIT_CONFIG_COUNT: String(count + GIT_GUARD.length) };
  GIT_GUARD.forEach(([key, value], i) => {
    guarded[`GIT_CONFIG_KEY_${count + i}`] = key;
    guarded[`GIT_CONFIG_VALUE_${count + i}`] = value;
  });
  return guarded;
}
