// The sandbox's pure parts (DESIGN.md §9): the bwrap argv for a plan, the card's line
// read back from that argv, which variables are secrets, and the machine facts a plan is
// made of (masks at real paths, protected workspace paths, planted links in the private
// /tmp), on real temp folders. The cases that run bwrap are in sandboxCases.test.ts.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { killOnlyArgs, sandboxArgs, type SandboxPlan } from '../../../src/core/sandbox/bwrapArgv';
import { describeSandbox, unsandboxedView } from '../../../src/core/sandbox/describe';
import { gitProtection } from '../../../src/core/sandbox/gitProtect';
import { RepoScan } from '../../../src/core/sandbox/repoScan';
import { coverable, hostSockets, mountPointInTmp, protectedPaths, secretMasks, SYSTEM_SECRETS, writableFolders } from '../../../src/core/sandbox/sandboxPlan';
import { credentialPaths, isSecretVariable, secretVariables } from '../../../src/core/sandbox/secretEnv';

const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
/** A temp folder outside /tmp (the masks skip what is under /tmp, which a command sees as its own). */
function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', prefix)));
  made.push(dir);
  return dir;
}

const plan: SandboxPlan = {
  bwrap: '/usr/bin/bwrap',
  mode: 'workspace-write',
  network: false,
  proc: true,
  writable: ['/w/app'],
  tmp: '/var/tmp/peon-sandbox-tmp-1',
  runtime: ['/home/u/.run'],
  hiddenDirs: ['/home/u/.ssh', '/home/u/.aws'],
  hiddenFiles: ['/home/u/.netrc'],
  protect: ['/w/app/.git/hooks', '/w/app/.vscode'],
  resolver: ['/run/systemd/resolve'],
  unset: ['GITHUB_TOKEN', 'SSH_AUTH_SOCK'],
  cwd: '/w/app/src',
  argv: ['/bin/bash', '-lc', 'npm test'],
};

describe('the bwrap argv', () => {
  test('workspace-write, network off: / read-only, then the writable binds, then the masks over them', () => {
    expect(sandboxArgs(plan)).toEqual([
      '--new-session', '--die-with-parent', '--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--unshare-net',
      '--cap-drop', 'ALL',
      '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc',
      '--tmpfs', '/run', '--tmpfs', '/home/u/.run',
      '--bind', '/var/tmp/peon-sandbox-tmp-1', '/tmp', '--setenv', 'TMPDIR', '/tmp',
      '--bind', '/w/app', '/w/app',
      '--ro-bind', '/w/app/.git/hooks', '/w/app/.git/hooks', '--ro-bind', '/w/app/.vscode', '/w/app/.vscode',
      '--tmpfs', '/home/u/.ssh', '--tmpfs', '/home/u/.aws', '--ro-bind', '/dev/null', '/home/u/.netrc',
      '--unsetenv', 'GITHUB_TOKEN', '--unsetenv', 'SSH_AUTH_SOCK',
      '--chdir', '/w/app/src', '--', '/bin/bash', '-lc', 'npm test',
    ]);
  });

  test('read-only binds no workspace; the network on keeps the net namespace and brings the resolver back over /run', () => {
    const readOnly = sandboxArgs({ ...plan, mode: 'read-only' });
    expect(readOnly).not.toContain('/w/app');
    expect(readOnly.filter((a) => a === '--bind')).toHaveLength(1);
    const networked = sandboxArgs({ ...plan, network: true, proc: false });
    expect(networked).not.toContain('--unshare-net');
    expect(networked).not.toContain('--proc');
    const run = networked.indexOf('/run');
    const resolver = networked.indexOf('/run/systemd/resolve');
    expect(networked.slice(resolver - 1, resolver + 2)).toEqual(['--ro-bind', '/run/systemd/resolve', '/run/systemd/resolve']);
    expect(resolver).toBeGreaterThan(run);
    // Without the network there is nothing to resolve: /run stays empty.
    expect(sandboxArgs(plan)).not.toContain('/run/systemd/resolve');
  });

  test('a command that looks like options stays after `--`', () => {
    const args = sandboxArgs({ ...plan, argv: ['/bin/bash', '-lc', '--bind / / --'] });
    expect(args.slice(args.indexOf('--'))).toEqual(['--', '/bin/bash', '-lc', '--bind / / --']);
    expect(describeSandbox(args, '/home/u').text).toBe(describeSandbox(sandboxArgs(plan), '/home/u').text);
  });

  test('the kill-only wrapper: a PID namespace and nothing else (a user namespace only for an ordinary user)', () => {
    expect(killOnlyArgs(true, ['codex', 'exec'])).toEqual(['--new-session', '--die-with-parent', '--unshare-pid', '--dev-bind', '/', '/', '--', 'codex', 'exec']);
    expect(killOnlyArgs(false, ['codex'])).toEqual(['--new-session', '--die-with-parent', '--unshare-user', '--unshare-pid', '--dev-bind', '/', '/', '--', 'codex']);
  });
});

describe("the card's line, read from the argv", () => {
  test("green: what it writes, network off, what is hidden (four by name, the person's own first, then a count), secrets removed", () => {
    const many = { ...plan, runtime: [], hiddenDirs: ['/etc/ssh', '/home/u/.ssh', '/home/u/.aws', '/home/u/.kube', '/home/u/.gnupg', '/home/u/.azure'], hiddenFiles: ['/etc/shadow', '/home/u/.netrc'] };
    expect(describeSandbox(sandboxArgs(many), '/home/u')).toEqual({
      state: 'sandboxed',
      text: 'Sandboxed — writes: /w/app, private /tmp · network off · hidden: ~/.ssh, ~/.aws, ~/.kube, ~/.gnupg, … (+4) · 2 secret variables removed',
    });
  });

  test('amber with the network on; read-only writes only its /tmp; the runtime folder is hidden; a host /proc is called degraded', () => {
    const view = describeSandbox(sandboxArgs({ ...plan, mode: 'read-only', network: true, proc: false, hiddenDirs: [], hiddenFiles: [], unset: ['A_TOKEN'] }), '/home/u');
    expect(view).toEqual({ state: 'network', text: "Sandboxed, network ON — writes: private /tmp only · reaches this machine's services (localhost, X11, D-Bus) · hidden: ~/.run · 1 secret variable removed · degraded: the host's /proc shows through" });
  });

  test('only a folder of its own mounted on /tmp is a private /tmp: the host /tmp bound is a write there', () => {
    const args = ['--unshare-net', '--ro-bind', '/', '/', '--bind', '/tmp', '/tmp', '--', 'true'];
    expect(describeSandbox(args, undefined).text).toBe("Sandboxed — writes: /tmp · network off · degraded: the host's /proc shows through");
  });

  test('the home folder is not shortened when it is /, and red says why and what it means', () => {
    expect(describeSandbox(sandboxArgs({ ...plan, runtime: [], hiddenDirs: ['/.ssh'], hiddenFiles: [] }), '/').text).toContain('hidden: /.ssh ·');
    expect(unsandboxedView('bubblewrap is not installed')).toEqual({ state: 'unsandboxed', text: 'NOT sandboxed — bubblewrap is not installed: full access to your files and network' });
  });
});

describe('secret variables', () => {
  test.each([
    ['GITHUB_TOKEN', true], ['OPENAI_API_KEY', true], ['FOO_APIKEY', true], ['AWS_REGION', true], ['AWS_SECRET_ACCESS_KEY', true], ['SSH_AUTH_SOCK', true],
    ['DB_PASSWORD', true], ['npm_config_//registry.npmjs.org/:_authToken', true], ['HEROKU_AUTH', true], ['my_cookie', true],
    ['PGPASSWORD', true], ['MYSQL_PWD', true], ['STRIPE_KEY', true], ['GH_PAT', true], ['XAUTHORITY', true], ['DBUS_SESSION_BUS_ADDRESS', true],
    ['SENTRY_DSN', true], ['SLACK_WEBHOOK_URL', true], ['BUNDLE_GEMS__EXAMPLE__COM', true], ['CI_JOB_JWT', true], ['CI_JOB_JWT_V2', true], ['GITHUB_TOKEN_FOR_CI', true],
    ['PATH', false], ['HOME', false], ['PWD', false], ['OLDPWD', false], ['TOKENIZERS_PARALLELISM', false], ['PASSAGE', false], ['AUTHOR', false], ['KEYBOARD', false], ['GIT_AUTHOR_NAME', false], ['MANPATH', false],
  ])('%s is a secret: %s', (name, secret) => {
    expect(isSecretVariable(name)).toBe(secret);
  });

  test('a URL with a password in it is a secret, whatever its name', () => {
    expect(isSecretVariable('DATABASE_URL', 'postgres://u:dbsecret@h/db')).toBe(true);
    expect(isSecretVariable('REDIS', 'redis://:pw@localhost:6379')).toBe(true);
    expect(isSecretVariable('DATABASE_URL', 'postgres://h/db')).toBe(false);
    expect(isSecretVariable('HOMEPAGE', 'https://user@example.com/')).toBe(false);
    expect(isSecretVariable('REMOTE', 'https://ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/o/r')).toBe(true); // a token as the user name
    expect(isSecretVariable('REMOTE', 'ssh://git@github.com/o/r')).toBe(false);
  });

  test.each([
    ['GPG_PASSPHRASE', 'x'], ['PASSPHRASE', 'x'], ['ANTHROPIC_API_KEYS', 'x'], ['SENTRY_DSN_URL', 'x'], ['HTTP_AUTHORIZATION', 'x'], ['AZURE_STORAGE_CONNECTION_STRING', 'x'],
    ['AzureWebJobsStorage', 'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=abc123=='],
    ['ConnectionStrings__Db', 'Server=db;User Id=sa;Password=p4ss'],
    ['GIT_CONFIG_PARAMETERS', "'http.extraheader'='AUTHORIZATION: basic Zm9v'"],
    ['EXTRA', 'Bearer abcdefghijkl'],
    ['DEPLOY_KEY_TEXT', '-----BEGIN OPENSSH PRIVATE KEY-----\nabc'],
  ])('%s (its name or its value) is a secret', (name, value) => {
    expect(isSecretVariable(name, value)).toBe(true);
  });

  test.each([['githubToken'], ['GITHUB-TOKEN'], ['Authentication__Google__ClientSecret'], ['DB_CREDS'], ['GCP_CREDENTIALS_B64'], ['BUNDLE_GEMS__EXAMPLE__COM']])('%s is a secret however its words are joined', (name) => {
    expect(isSecretVariable(name, 'x')).toBe(true);
  });

  test.each([['BUNDLE_PATH'], ['BUNDLE_GEMFILE'], ['BUNDLE_APP_CONFIG'], ['LS_COLORS'], ['PATH']])('%s (a setting, not a credential) stays', (name) => {
    expect(isSecretVariable(name, 'x')).toBe(false);
  });

  test.each([['EDITOR', 'vim'], ['LANG', 'C.UTF-8'], ['GIT_CONFIG_PARAMETERS', "'core.autocrlf'='false'"], ['PASSAGE', 'password reset page']])('%s=%s is not', (name, value) => {
    expect(isSecretVariable(name, value)).toBe(false);
  });

  test('the names removed from an environment, sorted', () => {
    expect(secretVariables({ PATH: '/bin', Z_TOKEN: 'z', A_SECRET: 'a', HOME: '/h' })).toEqual(['A_SECRET', 'Z_TOKEN']);
  });
});

/** The masks outside the system's own locations (SYSTEM_SECRETS). */
const mine = (masks: { dirs: string[]; files: string[] }) => ({ dirs: masks.dirs.filter((d) => !SYSTEM_SECRETS.includes(d)), files: masks.files.filter((f) => !SYSTEM_SECRETS.includes(f)) });

describe('the machine facts of a plan', () => {
  test('secret locations are masked where they really are; absent ones and ones under /tmp are not', () => {
    const home = tempDir('peon-sbx-home-');
    const elsewhere = tempDir('peon-sbx-real-');
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.netrc'), 'machine x password y\n');
    fs.mkdirSync(path.join(elsewhere, 'aws'));
    fs.symlinkSync(path.join(elsewhere, 'aws'), path.join(home, '.aws'));
    const inTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-sbx-kube-'));
    made.push(inTmp);
    fs.symlinkSync(inTmp, path.join(home, '.kube'));
    const masks = secretMasks(home, [], [], home);
    expect(mine(masks)).toEqual({ dirs: [path.join(elsewhere, 'aws'), path.join(home, '.ssh')].sort(), files: [path.join(home, '.netrc')] });
    // The system's own: the shadow files (readable as root) and the host's SSH keys.
    expect(masks.files).toContain('/etc/shadow');
    expect(masks.dirs).toContain('/etc/ssh');
    // A writable bind brings /tmp back into sight: then it is masked too.
    expect(secretMasks(home, [], [os.tmpdir()], home).dirs).toContain(fs.realpathSync(inTmp));
    // A link to / is never masked (that would hide everything).
    fs.rmSync(path.join(home, '.ssh'), { recursive: true });
    fs.symlinkSync('/', path.join(home, '.ssh'));
    expect(mine(secretMasks(home, [], [], home)).dirs).toEqual([path.join(elsewhere, 'aws')]);
  });

  test('protected workspace paths are kept read-only where they exist inside a writable folder, and never followed out of it', async () => {
    const root = tempDir('peon-sbx-ws-');
    const outside = tempDir('peon-sbx-out-');
    fs.mkdirSync(path.join(root, '.git/hooks'), { recursive: true });
    fs.writeFileSync(path.join(root, '.git/config'), '[core]\n\thooksPath = .githooks\n');
    fs.mkdirSync(path.join(root, '.githooks'));
    fs.writeFileSync(path.join(root, '.envrc'), 'export X=1\n');
    fs.mkdirSync(path.join(root, '.claude'));
    fs.symlinkSync(outside, path.join(root, '.vscode'));
    // Nested repositories at any depth, node_modules too (a package's own `.git` is a repository git runs in), and a worktree's `.git` file.
    fs.mkdirSync(path.join(root, 'lib/.git'), { recursive: true });
    fs.mkdirSync(path.join(root, 'wt'));
    fs.writeFileSync(path.join(root, 'wt/.git'), 'gitdir: ../.git/worktrees/wt\n');
    fs.mkdirSync(path.join(root, 'a/b/.git'), { recursive: true });
    fs.mkdirSync(path.join(root, 'node_modules/.git'), { recursive: true });
    const { repos } = await new RepoScan().find([root]);
    expect(repos).toEqual(['.git', 'a/b/.git', 'lib/.git', 'node_modules/.git', 'wt/.git'].map((rel) => path.join(root, rel)));
    const found = protectedPaths([root], repos, undefined, { GIT_CONFIG_NOSYSTEM: '1' });
    expect(found.protect).toEqual(['.claude', '.envrc', '.git', '.githooks', 'a/b/.git', 'lib/.git', 'node_modules/.git', 'wt/.git'].map((rel) => path.join(root, rel)));
    const top = found.absent.filter((a) => !path.relative(root, a.path).includes('/') || a.path.includes('/.git/'));
    // One folder down, a missing protected name is looked for after the command (never covered: the person may open that folder).
    expect(found.absent.filter((a) => !top.includes(a)).every((a) => a.later === true)).toBe(true);
    expect(found.absent.map((a) => path.relative(root, a.path))).toEqual(expect.arrayContaining(['lib/.vscode', 'lib/.mcp.json', 'a/.claude', 'wt/.agents']));
    expect(top.map((a) => [path.relative(root, a.path), a.dir, a.later ?? false])).toEqual([
      ['.agents', true, false], ['.codex', true, false], ['.cursor', true, false], ['.devcontainer', true, true], ['.gemini', true, false], ['.git/worktrees/wt', true, false], ['.github', true, true], ['.husky', true, true], ['.mcp.json', false, false], ['.peon', true, false], ['.pi', true, false], ['HEAD', false, false],
    ]);
    expect(found.links).toEqual([{ path: path.join(root, '.vscode'), target: outside }]);
    // Covered before a command only where bwrap makes the point where it is named: not inside a missing folder.
    expect(coverable({ path: path.join(root, '.peon'), dir: true }, [root])).toBe(true);
    expect(coverable({ path: path.join(root, '.github'), dir: true, later: true }, [root])).toBe(false);
    expect(coverable({ path: path.join(root, '.git/worktrees/wt'), dir: true }, [root])).toBe(false);
    fs.symlinkSync(outside, path.join(root, 'tools'));
    expect(coverable({ path: path.join(root, 'tools/.githooks'), dir: true }, [root])).toBe(false);
  });

  test('what a repository names is protected: the git folder of a `.git` file, hooksPath (there or not), included configs', () => {
    const root = tempDir('peon-sbx-git-');
    const home = tempDir('peon-sbx-githome-');
    fs.mkdirSync(path.join(root, '.bare'));
    fs.writeFileSync(path.join(root, '.bare/config'), '[core]\n\tbare = false\n[include]\n\tpath = ../shared.gitconfig\n[includeIf "gitdir:~/x/"]\n\tpath = ~/.gitconfig-work ; a comment\n');
    fs.writeFileSync(path.join(root, '.git'), 'gitdir: ./.bare\n');
    fs.writeFileSync(path.join(root, 'shared.gitconfig'), '[core] hooksPath = "hooks dir"\n[include]\n\tpath = missing.gitconfig\n');
    const found = gitProtection([path.join(root, '.git')], home);
    expect(found.protect).toEqual([path.join(root, '.bare'), path.join(root, '.git'), path.join(root, 'shared.gitconfig')]);
    expect(found.absent).toHaveLength(3);
    expect(found.absent).toEqual(expect.arrayContaining([
      { path: path.join(home, '.gitconfig-work'), dir: false },
      { path: path.join(root, 'hooks dir'), dir: true },
      { path: path.join(root, 'missing.gitconfig'), dir: false },
    ]));
  });

  test('the repository scan reads again only the folders that changed, and finds a .git made anywhere, and a bare layout', async () => {
    const root = tempDir('peon-sbx-scan-');
    fs.mkdirSync(path.join(root, 'a/b/c'), { recursive: true });
    const scan = new RepoScan();
    const repos = async (s: RepoScan): Promise<string[]> => (await s.find([root])).repos;
    expect(await repos(scan)).toEqual([]);
    fs.mkdirSync(path.join(root, 'a/b/c/.git'));
    expect(await repos(scan)).toEqual([path.join(root, 'a/b/c/.git')]);
    fs.renameSync(path.join(root, 'a'), path.join(root, 'moved'));
    fs.writeFileSync(path.join(root, '.git'), 'gitdir: x\n');
    expect(await repos(scan)).toEqual([path.join(root, '.git'), path.join(root, 'moved/b/c/.git')]);
    // HEAD, objects/ and refs/ as plain entries: git run there takes the folder for a repository.
    fs.mkdirSync(path.join(root, 'plain/objects'), { recursive: true });
    fs.mkdirSync(path.join(root, 'plain/refs'));
    fs.writeFileSync(path.join(root, 'plain/HEAD'), 'ref: refs/heads/main\n');
    expect(await repos(scan)).toEqual([path.join(root, '.git'), path.join(root, 'moved/b/c/.git'), path.join(root, 'plain')]);
    // Past its limit the walk gives way to find: a tree too large to walk is still searched whole, bare layouts too —
    // by the system's find, never one a PATH entry (a workspace's bin folder) would offer.
    const planted = tempDir('peon-sbx-path-');
    const mark = path.join(planted, 'RAN');
    fs.writeFileSync(path.join(planted, 'find'), `#!/bin/sh\ntouch ${mark}\n`, { mode: 0o755 });
    const pathBefore = process.env.PATH;
    process.env.PATH = `${planted}:${pathBefore}`;
    try {
      expect(await repos(new RepoScan(2))).toEqual([path.join(root, '.git'), path.join(root, 'moved/b/c/.git'), path.join(root, 'plain')]);
    } finally {
      process.env.PATH = pathBefore;
    }
    expect(fs.existsSync(mark)).toBe(false);
  });

  test('past its limit, find reports what is not UTF-8 and keeps what the walk found it could not search', async () => {
    const root = tempDir('peon-sbx-scan-');
    const odd = Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0x6e, 0xff])]);
    fs.mkdirSync(odd as unknown as string);
    fs.mkdirSync(Buffer.concat([odd, Buffer.from('/r/.git')]) as unknown as string, { recursive: true });
    fs.mkdirSync(path.join(root, 'a/b/c'), { recursive: true });
    const result = await new RepoScan(2).find([root]);
    expect(result.repos).toEqual([]);
    expect(result.unsearched).toEqual([`${root}/n\uFFFD (its name is not valid UTF-8)`, `${root}/n\uFFFD/r/.git (its name is not valid UTF-8)`]);
  });

  test('a folder the walk cannot read is reported; after a command, one of this user\'s own is given back its read and search bits', async () => {
    if (process.getuid?.() === 0) return; // root reads every folder
    const root = tempDir('peon-sbx-scan-');
    fs.mkdirSync(path.join(root, 'hide/inner/.git'), { recursive: true });
    fs.chmodSync(path.join(root, 'hide'), 0o111);
    const before = await new RepoScan().find([root]);
    expect(before.repos).toEqual([]);
    expect(before.unsearched).toEqual([`${path.join(root, 'hide')} (EACCES)`]);
    const after = await new RepoScan().find([root], { reopen: true });
    expect(after.repos).toEqual([path.join(root, 'hide/inner/.git')]);
    expect(after.reopened).toEqual([path.join(root, 'hide')]);
  });

  test("both the account's home folder and $HOME are searched for secrets", () => {
    const home = tempDir('peon-sbx-home-');
    const account = tempDir('peon-sbx-account-');
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.mkdirSync(path.join(account, '.ssh'));
    fs.mkdirSync(path.join(account, '.cache/huggingface'), { recursive: true });
    fs.writeFileSync(path.join(account, '.cache/huggingface/token'), 'hf');
    const masks = mine(secretMasks(home, [], [], account));
    expect(masks.dirs).toEqual([path.join(account, '.ssh'), path.join(home, '.ssh')].sort());
    expect(masks.files).toEqual([path.join(account, '.cache/huggingface/token')]);
  });

  test("the Unix sockets programs listen on are found in /proc/net/unix's table where they really are; those out of sight already are not", () => {
    const dir = tempDir('peon-sbx-sock-');
    const real = path.join(dir, 'real');
    fs.mkdirSync(real);
    const socket = path.join(real, 'agent dir.sock'); // a path with a space
    const server = net.createServer();
    return new Promise<void>((resolve) => server.listen(socket, resolve)).then(() => {
      fs.symlinkSync(real, path.join(dir, 'link'));
      const table = [
        'Num       RefCount Protocol Flags    Type St Inode Path',
        `0000000017bc7261: 00000002 00000000 00010000 0001 01 221228 ${path.join(dir, 'link', 'agent dir.sock')}`,
        '0000000096055bb3: 00000003 00000000 00000000 0001 03  1185',
        '000000001111aaaa: 00000002 00000000 00010000 0001 01 1186 @/tmp/.X11-unix/X0',
        `000000002222bbbb: 00000002 00000000 00010000 0001 01 1187 ${path.join(dir, 'gone.sock')}`,
        `000000003333cccc: 00000002 00000000 00010000 0001 01 1188 ${path.join(real)}`,
      ].join('\n');
      try {
        expect(hostSockets([], [], [], table)).toEqual([fs.realpathSync(socket)]);
        expect(hostSockets([], [fs.realpathSync(real)], [], table)).toEqual([]); // in a hidden folder already
        expect(hostSockets([], [], [fs.realpathSync(dir)], table)).toEqual([]); // in the runtime folder (its own tmpfs)
      } finally {
        server.close();
      }
    });
  });

  test('a workspace folder holding the home folder or a hidden location is not writable; credential files named by variables are hidden', () => {
    const home = tempDir('peon-sbx-home-');
    const above = path.dirname(home);
    const other = tempDir('peon-sbx-other-');
    expect(writableFolders([home, other], home, { dirs: [], files: [] })).toEqual({ writable: [other], held: [home] });
    expect(writableFolders([above, other], home, { dirs: [], files: [] }).held).toEqual([above]);
    expect(writableFolders([other], home, { dirs: [path.join(other, 'keys')], files: [] })).toEqual({ writable: [], held: [other] });
    expect(credentialPaths({ KUBECONFIG: '/srv/k/a:/srv/k/b:rel', GOOGLE_APPLICATION_CREDENTIALS: '/srv/keys/sa.json', XDG_CONFIG_HOME: '/srv/cfg/' }, ['.config/gh', '.ssh'])).toEqual(['/srv/cfg/gh', '/srv/keys/sa.json', '/srv/k/a', '/srv/k/b']);
    // The XDG cache and data folders move those locations too; a variable counts in any case (npm reads npm_config_userconfig).
    expect(credentialPaths({ XDG_CACHE_HOME: '/srv/cache', XDG_DATA_HOME: '/srv/data', npm_config_userconfig: '/srv/npmrc' }, ['.cache/git/credential', '.local/share/keyrings', '.ssh'])).toEqual(['/srv/cache/git/credential', '/srv/data/keyrings', '/srv/npmrc']);
  });

  test("a symlink planted on a mount point's way in the private /tmp is replaced by a folder", () => {
    const tmp = tempDir('peon-sbx-tmp-');
    const target = tempDir('peon-sbx-target-');
    fs.symlinkSync(target, path.join(tmp, 'a'));
    mountPointInTmp(tmp, '/tmp/a/b');
    expect(fs.lstatSync(path.join(tmp, 'a')).isDirectory()).toBe(true);
    expect(fs.lstatSync(path.join(tmp, 'a/b')).isDirectory()).toBe(true);
    expect(fs.readdirSync(target)).toEqual([]);
    // Outside /tmp it does nothing.
    mountPointInTmp(tmp, '/var/x');
    expect(fs.readdirSync(tmp)).toEqual(['a']);
  });
});
