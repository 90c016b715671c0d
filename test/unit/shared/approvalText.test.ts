import { describe, expect, test } from 'vitest';
import { alwaysLabel, plainReason, sessionLabel, whereItRuns, whyItAsks } from '../../../src/shared/approvalText';
import type { ApprovalCard } from '../../../src/shared/messages';

// What a card says is plain language (#12 of the UX walkthrough): no `semi-judge`, no
// `in .`; each scope button names what it grants and where that is kept.
describe('why a card asks', () => {
  test.each([
    ['default for bash: semi-judge', 'Commands that are not on the read-only list ask first'],
    ['default for write: semi-ask', 'Changes to files ask first'],
    ['default for read: semi-ask', 'Files outside the workspace, and secret-like, ignored or protected ones, ask before they are read'],
    ['default for exitplanmode: ask', 'A plan waits for your approval before Peon acts on it'],
    ['peon.permission.rules (user): webfetch -> ask', 'Your user settings ask before every webfetch call'],
    ['peon.permission.rules (workspace): bash "npm publish *" -> ask', "This workspace's settings ask before `npm publish *`"],
    ['peon.permission.rules (user): bash -> semi-judge', 'Your user settings: commands that are not on the read-only list ask first'],
    ['peon.permission.rules is not valid: every tool asks', 'Your peon.permission.rules setting could not be read, so every call asks'],
    ['peon.permission.default: ask (built in)', 'Tools without a rule of their own ask first'],
    ['a command outside the sandbox always asks', 'Commands that run outside the sandbox always ask'],
  ])('%s reads "%s"', (source, plain) => {
    expect(whyItAsks(source)).toBe(plain);
    expect(whyItAsks(source)).not.toMatch(/semi-|->|default for/);
  });

  test('reasons name rules the same way; the per-segment reasons stay as the gate wrote them', () => {
    const source = 'default for bash: semi-judge';
    expect(plainReason(source, source)).toBe('Commands that are not on the read-only list ask first');
    expect(plainReason('`ls src` asks by peon.permission.rules (workspace): bash "ls *" -> ask', source)).toBe("`ls src`: This workspace's settings ask before `ls *`");
    expect(plainReason('its risk is process', source)).toBe('it can run programs');
    const segment = '`rm -rf node_modules package-lock.json`: rm is not one of the read-only commands Peon runs without asking';
    expect(plainReason(segment, source)).toBe(segment);
  });

  test('a command runs "in the workspace root", not "in ."', () => {
    expect(whereItRuns('.')).toBe('in the workspace root');
    expect(whereItRuns('pkg/web')).toBe('in pkg/web');
  });
});

describe('scope buttons', () => {
  const command = (extra: Partial<ApprovalCard>): ApprovalCard => ({
    id: 'c1',
    tool: 'bash',
    risk: 'process',
    summary: { kind: 'command', command: 'git log --oneline -3 && npm run ts --if-present', cwd: '.' },
    source: 'default for bash: semi-judge',
    reasons: [],
    grantable: ['npm run ts --if-present'],
    sessionGrants: ['npm run ts --if-present'],
    canAlways: true,
    canOpenDiff: false,
    ...extra,
  });

  test('say what they grant, for how long, and where it is kept', () => {
    expect(alwaysLabel(command({}))).toMatchObject({ verb: 'Always allow', items: ['npm run ts --if-present'], more: 0, tail: '— saved in your user settings', full: 'Always allow `npm run ts --if-present` — saved in your user settings' });
    expect(sessionLabel(command({}))).toMatchObject({ verb: 'Allow', items: ['npm run ts --if-present'], tail: 'for this chat' });
    expect(sessionLabel(command({ summary: { kind: 'command', command: 'npm test', cwd: 'web' }, sessionGrants: ['npm test'] }))?.tail).toBe('in web for this chat');
  });

  test('a command shown as it ran (quotes kept), cut to fit, the rest counted', () => {
    const written = `node -e "const ignore = require('./index.js'); console.log(ignore().add('a.log').ignores('a.log'))"`;
    const label = sessionLabel(command({ sessionGrants: [written, 'npm test', 'npm run build'] }))!;
    expect(label.items[0]).toMatch(/^node -e "const ignore = require\('\.\/index\.js'\).*…$/);
    expect(label.items[0]!.length).toBe(48);
    expect(label.more).toBe(1);
    expect(label.full).toContain(written);
  });

  test('none offered: no label (a destructive call has canAlways false; nothing grantable has no session)', () => {
    expect(alwaysLabel(command({ canAlways: false }))).toBeUndefined();
    expect(sessionLabel(command({ sessionGrants: [] }))).toBeUndefined();
  });

  test('files and hosts say what kind of access', () => {
    const file = command({ tool: 'edit', summary: { kind: 'file-change', path: 'src/a.ts', operation: 'edit', diff: '', reasons: [] }, grantable: ['src/a.ts'], sessionGrants: ['src/a.ts'] });
    expect(sessionLabel(file)?.full).toBe('Allow changes to `src/a.ts` for this chat');
    const host = command({ tool: 'webfetch', summary: { kind: 'network', url: 'https://docs.python.org/3/', host: 'docs.python.org' }, grantable: ['docs.python.org'], sessionGrants: ['docs.python.org'] });
    expect(alwaysLabel(host)?.full).toBe('Always allow requests to `docs.python.org` — saved in your user settings');
  });

  test('a hidden character in a command is named on the button, not hidden in it', () => {
    expect(sessionLabel(command({ sessionGrants: ['echo \u202Eevil'] }))?.items).toEqual(['echo ⟨U+202E⟩evil']);
  });
});
