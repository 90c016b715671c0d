import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { peonTool, type ToolOutcome } from '../cliHarness';
import { tempDir, writeFiles } from '../tools/toolTestContext';
import { liveControl } from './reviewHarness';

// The hostile review of the gate (shared/research/gate_hostile_review.md), reproduced
// through the built CLI under default settings (no --approve: an ask is denied, so
// "ok:false with decision ask" means the command did not run), each with a temporary
// HOME. Where a case shows the harness is live, the same call with --approve all does
// what the review said it would (with the sandbox off: the gate is what is reviewed).

function box(): { t: string; home: string; ws: string } {
  const t = tempDir('peon-review-');
  const home = path.join(t, 'home');
  const ws = path.join(t, 'ws');
  fs.mkdirSync(home);
  fs.mkdirSync(ws);
  return { t, home, ws };
}

const bash = (ws: string, home: string, command: string, extra: string[] = [], env: Record<string, string> = {}): ToolOutcome =>
  peonTool('bash', ws, { command }, extra, { env: { HOME: home, ...env } });

function expectAsked(outcome: ToolOutcome, why?: string): void {
  expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: false, permission: { decision: 'ask', answer: 'denied' } });
  if (why) expect(outcome.permission!.reasons.join('\n')).toContain(why);
}

describe('F1: a control character before # hides the rest of the line from the parser', () => {
  test.each([
    ['a vertical tab', 'ls \u000b#; echo pwned >> ~/.bashrc; rm -rf victim'],
    ['a form feed', 'echo a\f#; echo pwned >> ~/.bashrc; rm -rf victim'],
    ['an escaped vertical tab', 'echo a\\\u000b#; echo pwned >> ~/.bashrc; rm -rf victim'],
    ['an escaped tab', 'echo a\\\t#; echo pwned >> ~/.bashrc; rm -rf victim'],
    ['an escaped space', 'echo \\ #; echo pwned >> ~/.bashrc; rm -rf victim'],
    ['an escaped form feed', 'echo \\\f#; echo pwned >> ~/.bashrc; rm -rf victim'],
  ])('%s: asks, and nothing runs', (_, command) => {
    const { home, ws } = box();
    fs.mkdirSync(path.join(ws, 'victim'));
    expectAsked(bash(ws, home, command));
    expect(fs.existsSync(path.join(ws, 'victim'))).toBe(true);
    expect(fs.existsSync(path.join(home, '.bashrc'))).toBe(false);
  });

  test('past a user deny rule: asks instead of running what the rule denies', () => {
    const { t, home, ws } = box();
    fs.mkdirSync(path.join(ws, 'victim'));
    const config = path.join(t, 'user.json');
    fs.writeFileSync(config, JSON.stringify({ 'peon.permission.rules': { bash: { 'rm *': 'deny' } } }));
    expectAsked(bash(ws, home, 'ls \u000b#; rm -rf victim', ['--config', config]));
    expect(fs.existsSync(path.join(ws, 'victim'))).toBe(true);
  });

  test('an escaped space before a name makes another file: `cat \\ notes` reads " notes", so it asks', () => {
    const { t, home, ws } = box();
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.ssh/id_ed25519'), 'FAKE-KEY\n');
    fs.symlinkSync(path.join(home, '.ssh/id_ed25519'), path.join(ws, ' notes'));
    fs.writeFileSync(path.join(ws, 'notes'), 'harmless\n');
    const outcome = bash(ws, home, 'cat \\ notes');
    expectAsked(outcome, 'which bash does not read as a blank');
    expect(JSON.stringify(outcome)).not.toContain('FAKE-KEY');
    // The harness is live: approved, bash reads the link's target.
    expect(bash(ws, home, 'cat \\ notes', liveControl(t)).output).toContain('FAKE-KEY');
  });
});

describe('F2: {NAME}> assigns a variable', () => {
  test('`echo {PATH}>/dev/null; ls` asks, and the workspace program does not run', () => {
    const { t, home, ws } = box();
    writeFiles(ws, { '10/ls': `#!/bin/sh\n/usr/bin/touch "${t}/F2-ran"\n` });
    fs.chmodSync(path.join(ws, '10/ls'), 0o755);
    expectAsked(bash(ws, home, 'echo {PATH}>/dev/null; ls'), 'assigns a file descriptor number to the variable PATH');
    expect(fs.existsSync(path.join(t, 'F2-ran'))).toBe(false);
    bash(ws, home, 'echo {PATH}>/dev/null; ls', liveControl(t));
    expect(fs.existsSync(path.join(t, 'F2-ran'))).toBe(true);
  });

  test.each(['echo {HOME}>/dev/null; git log -p -1', 'ls {fd}>&2', 'ls {x}<README.md', 'cat {a[1]}>/dev/null'])('%j asks', (command) => {
    const { home, ws } = box();
    expectAsked(bash(ws, home, command), 'assigns a file descriptor number');
  });
});

describe('F3: version queries that a toolchain file in the project dispatches', () => {
  function rustupLike(): { t: string; home: string; ws: string } {
    const made = box();
    // A rustup-style proxy on the login PATH: it runs whatever rust-toolchain.toml names.
    writeFiles(made.t, {
      'bin/cargo': '#!/bin/sh\ndir=$(sed -n \'s/^path = "\\(.*\\)"$/\\1/p\' rust-toolchain.toml)\nexec "$dir/bin/cargo" "$@"\n',
      'home/.profile': `PATH="${made.t}/bin:$PATH"\n`,
    });
    writeFiles(made.ws, { 'rust-toolchain.toml': '[toolchain]\npath = "/proc/self/cwd/tc"\n', 'tc/bin/cargo': `#!/bin/sh\ntouch "${made.t}/F3-ran"\n` });
    fs.chmodSync(path.join(made.t, 'bin/cargo'), 0o755);
    fs.chmodSync(path.join(made.ws, 'tc/bin/cargo'), 0o755);
    return made;
  }

  test('`cargo --version` asks, and the workspace cargo does not run', () => {
    const { t, home, ws } = rustupLike();
    expectAsked(bash(ws, home, 'cargo --version'), 'cargo is not one of the read-only commands');
    expect(fs.existsSync(path.join(t, 'F3-ran'))).toBe(false);
    bash(ws, home, 'cargo --version', liveControl(t));
    expect(fs.existsSync(path.join(t, 'F3-ran'))).toBe(true);
  });

  test.each(['rustc --version', 'yarn --version', 'pnpm -v', 'go version'])('%j asks', (command) => {
    const { home, ws } = box();
    expectAsked(bash(ws, home, command), 'is not one of the read-only commands');
  });

  test.each(['.tool-versions', '.mise.toml', '.python-version'])('`node --version` asks below a %s file, which picks the program a shim runs', (file) => {
    const { home, ws } = box();
    writeFiles(ws, { [file]: 'nodejs 20.0.0\n', 'sub/x': '' });
    expectAsked(peonTool('bash', ws, { command: 'node --version', workdir: 'sub' }, [], { env: { HOME: home } }), `${file} lets a version manager pick which program runs`);
  });
});

describe('F6: the whole argument is checked, not only its pieces', () => {
  test.each([
    ['cat docs:env', 'docs:env', '/proc/self/environ'],
    ['cat -- --key', '--key', 'home/.ssh/id_ed25519'],
    ['cat -- -notes', '-notes', 'ws/.env'],
    ['head -- --prod.pem', '--prod.pem', 'ws/.env'],
  ])('%j asks', (command, link, target) => {
    const { t, home, ws } = box();
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.ssh/id_ed25519'), 'FAKE-KEY\n');
    fs.writeFileSync(path.join(ws, '.env'), 'SECRET=1\n');
    fs.symlinkSync(target.startsWith('/') ? target : path.join(t, target), path.join(ws, link));
    const outcome = bash(ws, home, command, [], { FAKE_API_KEY: 'sk-fake-123' });
    expectAsked(outcome);
    expect(JSON.stringify(outcome)).not.toMatch(/sk-fake-123|FAKE-KEY|SECRET=1/);
  });
});

describe('F7: `..` after a symbolic link is resolved the way the kernel does it', () => {
  test.each(['cat sub/up/../notes.txt', 'cat d/../sub/up/../notes.txt', 'cat ./d/../d/../sub/up/../notes.txt', 'cd d && cat ../sub/up/../notes.txt'])('%j asks', (command) => {
    const { t, home, ws } = box();
    fs.writeFileSync(path.join(t, 'notes.txt'), 'next to the workspace\n');
    fs.mkdirSync(path.join(ws, 'sub'));
    fs.mkdirSync(path.join(ws, 'd'));
    fs.symlinkSync('..', path.join(ws, 'sub/up'));
    const outcome = bash(ws, home, command);
    expectAsked(outcome, 'is outside the workspace');
    expect(JSON.stringify(outcome)).not.toContain('next to the workspace');
  });
});

describe('F10: ignored files count in the bash path check', () => {
  test.each([
    ['.peonignore', 'cat private.txt'],
    ['.gitignore', 'head -n 1 private.txt'],
  ])('a %s entry: %j asks, as read does', (ignoreFile, command) => {
    const { home, ws } = box();
    writeFiles(ws, { [ignoreFile]: 'private.txt\n', 'private.txt': 'private notes\n' });
    expect(peonTool('read', ws, { path: 'private.txt' }, [], { env: { HOME: home } })).toMatchObject({ ok: false, permission: { decision: 'ask' } });
    const outcome = bash(ws, home, command);
    expectAsked(outcome, 'private.txt is ignored');
    expect(JSON.stringify(outcome)).not.toContain('private notes');
  });
});

describe('hardening: secret-like folders and tokens, PATH through the workspace', () => {
  test.each([
    ['secrets/db.yml', 'cat secrets/db.yml'],
    ['credentials/aws.json', 'cat credentials/aws.json'],
    ['prod.env', 'cat prod.env'],
    ['config/api_token', 'cat config/api_token'],
  ])('%s is secret-like: asks', (file, command) => {
    const { home, ws } = box();
    writeFiles(ws, { [file]: 'password=hunter2\n' });
    const outcome = bash(ws, home, command);
    expectAsked(outcome);
    expect(JSON.stringify(outcome)).not.toContain('hunter2');
  });

  test('a token a tool keeps under ~/.config asks', () => {
    const { home, ws } = box();
    writeFiles(home, { '.config/tool/token.json': '{"token":"FAKE"}\n' });
    expectAsked(bash(ws, home, 'cat ~/.config/tool/token.json'));
  });

  test('with a workspace folder (or a relative entry) on PATH, `ls` asks: it may run the workspace copy', () => {
    const { home, ws } = box();
    fs.mkdirSync(path.join(ws, 'bin'));
    for (const PATH of [`${path.join(ws, 'bin')}:/usr/bin:/bin`, `.:/usr/bin:/bin`, `/usr/bin::/bin`]) {
      expectAsked(bash(ws, home, 'ls', [], { PATH }), 'so ls may run a program from the workspace');
    }
    expect(bash(ws, home, 'ls', [], { PATH: '/usr/bin:/bin' })).toMatchObject({ ok: true, permission: { decision: 'allow' } });
  });
});
