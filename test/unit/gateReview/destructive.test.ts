import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { peonTool, type ToolOutcome } from '../cliHarness';
import { tempDir, writeFiles } from '../tools/toolTestContext';
import { liveControl } from './reviewHarness';

// The review's F11: under the user rule `bash: allow`, a command that deletes, moves or
// overwrites something outside the workspace, a workspace folder, .git or a protected
// path still asks (DESIGN.md §5). Through the built CLI, with a temporary HOME whose
// files must come out byte-identical; inside the workspace the rule is honoured.

function box(): { t: string; home: string; ws: string; config: string; snapshot: () => string } {
  const t = tempDir('peon-review-f11-');
  const home = path.join(t, 'homes/alice');
  const ws = path.join(t, 'ws');
  writeFiles(home, { '.ssh/id_ed25519': 'k\n', '.bashrc': 'export X=1\n', '.profile': '# profile\n', 'notes/a.txt': 'a\n' });
  writeFiles(ws, { 'a.txt': 'a\n', 'sub/b.txt': 'b\n', 'empty/.keep': '', '.git/HEAD': 'ref: refs/heads/main\n', '.vscode/settings.json': '{}\n' });
  const config = path.join(t, 'user.json');
  fs.writeFileSync(config, JSON.stringify({ 'peon.permission.rules': { bash: 'allow' } }));
  const snapshot = (): string => {
    const all: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else all.push(`${path.relative(t, full)}=${entry.isSymbolicLink() ? `->${fs.readlinkSync(full)}` : fs.readFileSync(full, 'utf8')}`);
      }
    };
    walk(t);
    return all.filter((line) => !line.startsWith('user.json')).sort().join('\n');
  };
  return { t, home, ws, config, snapshot };
}

const run = (b: ReturnType<typeof box>, command: string): ToolOutcome => peonTool('bash', b.ws, { command }, ['--config', b.config], { env: { HOME: b.home } });

describe('F11: destructive commands ask under bash: allow', () => {
  test.each([
    'rm -rf ~/.ssh',
    'rm -rf ~',
    'rm -rf ../homes',
    'rm ~/.bashrc',
    'rm -d ~/notes',
    'rmdir ~/notes',
    'unlink ~/.bashrc',
    'cp /dev/null ~/.bashrc',
    'cp a.txt ~/notes/',
    'cp -t ~ a.txt',
    'install a.txt ~/.profile',
    'sed -i d ~/.bashrc',
    'sed -i.bak -e d ~/.bashrc',
    'perl -pi -e s/X/Y/ ~/.bashrc',
    'mv ~/.bashrc x',
    'mv sub ~/x',
    'mv . ../moved',
    'ln -sf /dev/null ~/.bashrc',
    'rsync -a --delete empty/ ~/',
    'rsync -a --delete empty/ ./',
    'tar -cf x.tar a.txt && tar -xf x.tar -C ~',
    'tar cf ~/.profile a.txt',
    'find . -fprint ~/x',
    'find . -fls ~/.bashrc',
    'echo pwned > ~/.profile',
    'echo pwned >> ~/.bashrc',
    'ls &> ~/.bashrc',
    'cat a.txt | tee ~/.bashrc',
    'sort -o ~/.profile a.txt',
    'gzip ~/.bashrc',
    'chmod 000 ~/.ssh',
    'chmod -R 777 .',
    'rm -rf .GIT',
    'rm -rf .git/HEAD',
    'echo x > .Git/config',
    'cp a.txt .vscode/settings.json',
    'rm -rf sub/..',
    'cd sub && rm -rf ..',
    'curl -o ~/.bashrc http://127.0.0.1:9/x',
    'git config core.hooksPath hooks',
    'git config --global alias.x "!sh"',
    'crontab a.txt',
    'echo x > $HOME/.profile',
    // Found while closing F11: a folder the gate cannot see, and links made by the line itself.
    'cd $HOME && rm -rf .ssh',
    'cd && rm -rf .ssh',
    'cd -P ~ && rm -rf .ssh',
    'pushd ~ && rm -rf .ssh',
    'cd sub; cd -; rm -rf a.txt',
    'sudo -D ~ rm -rf .ssh',
    'ln -s ~ h; rm -rf h/',
    'ln -s ~/.bashrc b; echo pwned > b',
    'ln ~/.bashrc hard; echo pwned > hard',
    'mkdir d && cp -r ~/.ssh d/ && rm -rf d/.ssh/',
  ])('%j asks, and nothing changes', (command) => {
    const b = box();
    const before = b.snapshot();
    const outcome = run(b, command);
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: false, permission: { decision: 'ask', answer: 'denied' } });
    expect(outcome.permission!.reasons.join('\n')).toMatch(/destructive commands always ask|cannot be seen/);
    expect(b.snapshot()).toBe(before);
  });

  test.each(['rm -rf sub', 'mv a.txt c.txt', 'cp a.txt sub/', 'sed -i s/b/c/ sub/b.txt', 'echo x > out.txt', 'tar -cf x.tar a.txt', 'echo $(date) > out.txt', 'ln -s a.txt link', 'cat a.txt | tee copy.txt', 'echo x > /dev/null', 'git config --get user.name || true'])('inside the workspace, %j runs as the rule says', (command) => {
    const b = box();
    expect(run(b, command), command).toMatchObject({ ok: true, permission: { decision: 'allow' } });
  });

  test('a file with another hard link (outside, perhaps) is not written through without asking', () => {
    const b = box();
    fs.linkSync(path.join(b.home, '.bashrc'), path.join(b.ws, 'linked'));
    const outcome = run(b, 'echo pwned > linked');
    expect(outcome).toMatchObject({ ok: false, permission: { decision: 'ask' } });
    expect(outcome.permission!.reasons.join()).toContain('2 hard links');
    expect(fs.readFileSync(path.join(b.home, '.bashrc'), 'utf8')).toBe('export X=1\n');
  });

  test('the harness is live: the same rm, approved, deletes ~/.ssh', () => {
    const b = box();
    peonTool('bash', b.ws, { command: 'rm -rf ~/.ssh' }, liveControl(b.t), { env: { HOME: b.home } });
    expect(fs.existsSync(path.join(b.home, '.ssh'))).toBe(false);
  });
});
