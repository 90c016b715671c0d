// Discovery and read_skill's file access over real folders: the shared fixtures are real
// Agent Skills from a public repository, copied into the cross-tool layout.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { SkillCatalog, type DiscoveryOptions } from '../../../src/core/skills/skillCatalog';
import { tempDir, writeFiles } from '../tools/toolTestContext';

const FIXTURES = path.resolve(__dirname, '../../fixtures/skills'); // copied byte for byte from ../shared/fixtures (SOURCES.txt)
const skillMd = (name: string, description = `The ${name} skill.`, body = `# ${name}\n\nDo the ${name} thing.\n`) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

function setup(files: Record<string, string> = {}, home: Record<string, string> = {}) {
  const ws = tempDir('peon-ws-');
  const homeDir = tempDir('peon-home-');
  writeFiles(ws, files);
  writeFiles(homeDir, home);
  const options = (more: Partial<DiscoveryOptions> = {}): DiscoveryOptions => ({ workspaceRoots: [ws], home: homeDir, trusted: true, maxSkills: 100, maxSkillBytes: 65_536, ...more });
  return { ws, home: homeDir, discover: (more: Partial<DiscoveryOptions> = {}) => SkillCatalog.discover(options(more)) };
}

test("a repository's Agent Skills in .claude/skills and .agents/skills load unchanged, and read_skill returns SKILL.md with its hash", () => {
  const { ws, discover } = setup();
  fs.cpSync(path.join(FIXTURES, 'doc-coauthoring'), path.join(ws, '.claude/skills/doc-coauthoring'), { recursive: true });
  fs.cpSync(path.join(FIXTURES, 'internal-comms'), path.join(ws, '.agents/skills/internal-comms'), { recursive: true });
  fs.cpSync(path.join(FIXTURES, 'theme-factory'), path.join(ws, '.peon/skills/theme-factory'), { recursive: true });
  const catalog = discover();
  expect(catalog.problems).toEqual([]);
  expect(catalog.list().map((s) => [s.name, s.source, s.scope])).toEqual([
    ['theme-factory', '.peon/skills/theme-factory/SKILL.md', 'workspace'],
    ['doc-coauthoring', '.claude/skills/doc-coauthoring/SKILL.md', 'workspace'],
    ['internal-comms', '.agents/skills/internal-comms/SKILL.md', 'workspace'],
  ]);
  expect(catalog.get('internal-comms')!.description).toMatch(/^A set of resources to help me write all kinds of internal communications/);
  const original = fs.readFileSync(path.join(FIXTURES, 'doc-coauthoring/SKILL.md'));
  const read = catalog.read('doc-coauthoring');
  expect(read.text).toBe(original.toString('utf8')); // 15.8 KB, under the 64 KiB default
  expect(read.sha256).toBe(createHash('sha256').update(original).digest('hex'));
  expect(read.truncated).toBe(false);
  expect(read.body.startsWith('\n# Doc Co-Authoring Workflow')).toBe(true);

  // The cross-tool folders are the person's to turn off.
  expect(discover({ crossTool: false }).list().map((s) => s.name)).toEqual(['theme-factory']);
});

test("the person's own skills come first: a workspace skill of the same name is skipped, saying by whom", () => {
  const { discover } = setup({ '.peon/skills/deploy/SKILL.md': skillMd('deploy', 'The repository says so.') }, { '.peon/skills/deploy/SKILL.md': skillMd('deploy', 'Mine.') });
  const catalog = discover();
  expect(catalog.get('deploy')).toMatchObject({ description: 'Mine.', scope: 'user', source: '~/.peon/skills/deploy/SKILL.md' });
  expect(catalog.warnings).toEqual(['Skill .peon/skills/deploy/SKILL.md skipped: "deploy" is already defined by ~/.peon/skills/deploy/SKILL.md.']);
});

test('roots from user settings are searched, with ~ as the home folder', () => {
  const { home, discover } = setup({}, { 'team-skills/lint/SKILL.md': skillMd('lint') });
  expect(discover({ userRoots: ['~/team-skills'] }).get('lint')).toMatchObject({ source: '~/team-skills/lint/SKILL.md', scope: 'user' });
  expect(discover({ userRoots: [path.join(home, 'team-skills')] }).get('lint')?.scope).toBe('user');
});

test('invalid skills are skipped and each is listed with its reason, never silently', () => {
  const { discover } = setup({
    '.peon/skills/Caps/SKILL.md': skillMd('Caps'),
    '.peon/skills/with space/SKILL.md': skillMd('with space'),
    '.peon/skills/mismatch/SKILL.md': skillMd('other-name'),
    '.peon/skills/nofront/SKILL.md': '# no front matter\n',
    '.peon/skills/lower/skill.md': skillMd('lower'),
    '.peon/skills/notes/README.md': 'not a skill folder',
    '.peon/skills/good/SKILL.md': skillMd('good'),
  });
  const catalog = discover();
  expect(catalog.list().map((s) => s.name)).toEqual(['good']);
  expect(catalog.warnings).toEqual([
    'Skill .peon/skills/Caps/SKILL.md skipped: name "Caps" is not 1–64 lowercase letters, digits and single hyphens (none at either end).',
    'Skill .peon/skills/lower/SKILL.md skipped: the file must be named SKILL.md.',
    'Skill .peon/skills/mismatch/SKILL.md skipped: name "other-name" does not match its directory "mismatch".',
    'Skill .peon/skills/nofront/SKILL.md skipped: SKILL.md does not start with YAML front matter between --- lines.',
    'Skill .peon/skills/with space/SKILL.md skipped: name "with space" is not 1–64 lowercase letters, digits and single hyphens (none at either end).',
  ]);
});

test('at most peon.skills.maxSkills are taken; the rest are listed as not loaded', () => {
  const files = Object.fromEntries(['a', 'b', 'c', 'd'].map((n) => [`.peon/skills/${n}/SKILL.md`, skillMd(n)]));
  const catalog = setup(files).discover({ maxSkills: 2 });
  expect(catalog.list().map((s) => s.name)).toEqual(['a', 'b']);
  expect(catalog.warnings).toEqual(['Skill .peon/skills/c/SKILL.md skipped: not loaded: peon.skills.maxSkills (2) reached.', 'Skill .peon/skills/d/SKILL.md skipped: not loaded: peon.skills.maxSkills (2) reached.']);
});

test('in Restricted Mode no workspace skill loads (the person\'s own still do), and the panel is told why', () => {
  const { discover } = setup({ '.peon/skills/ws/SKILL.md': skillMd('ws'), '.claude/skills/ws2/SKILL.md': skillMd('ws2') }, { '.peon/skills/mine/SKILL.md': skillMd('mine') });
  const catalog = discover({ trusted: false });
  expect(catalog.list().map((s) => s.name)).toEqual(['mine']);
  expect(catalog.warnings).toEqual([
    'Skill .peon/skills skipped: not loaded: the workspace is not trusted (Restricted Mode).',
    'Skill .claude/skills skipped: not loaded: the workspace is not trusted (Restricted Mode).',
  ]);
  expect(() => catalog.read('ws')).toThrow(/There is no skill "ws"/);
});

test('a SKILL.md that is a symbolic link out of its root is refused at discovery', () => {
  const { ws, discover } = setup({ 'outside/secret.md': skillMd('evil') });
  fs.mkdirSync(path.join(ws, '.peon/skills/evil'), { recursive: true });
  fs.symlinkSync(path.join(ws, 'outside/secret.md'), path.join(ws, '.peon/skills/evil/SKILL.md'));
  // A skill folder that is itself a link out of the root is refused the same way.
  fs.symlinkSync(path.join(ws, 'outside'), path.join(ws, '.peon/skills/linked'));
  fs.writeFileSync(path.join(ws, 'outside/SKILL.md'), skillMd('linked'));
  const catalog = discover();
  expect(catalog.size).toBe(0);
  expect(catalog.warnings).toEqual([
    "Skill .peon/skills/evil/SKILL.md skipped: resolves outside .peon/skills; a skill's files must stay in its root.",
    "Skill .peon/skills/linked/SKILL.md skipped: resolves outside .peon/skills; a skill's files must stay in its root.",
  ]);
});

test('a SKILL.md swapped for a link out of its root after discovery is refused when read', () => {
  const { ws, discover } = setup({ '.peon/skills/swap/SKILL.md': skillMd('swap'), 'secret.txt': 'TOKEN=hunter2\n' });
  const catalog = discover();
  expect(catalog.read('swap').text).toContain('Do the swap thing');
  const file = path.join(ws, '.peon/skills/swap/SKILL.md');
  fs.rmSync(file);
  fs.symlinkSync(path.join(ws, 'secret.txt'), file);
  expect(() => catalog.read('swap')).toThrow(expect.objectContaining({ code: 'permission_denied', message: expect.stringMatching(/now resolves outside its root/) }));
  // The whole skills folder swapped for a link elsewhere: the root no longer is what it was.
  fs.rmSync(path.join(ws, '.peon/skills'), { recursive: true });
  writeFiles(ws, { 'elsewhere/swap/SKILL.md': skillMd('swap') });
  fs.symlinkSync(path.join(ws, 'elsewhere'), path.join(ws, '.peon/skills'));
  expect(() => catalog.read('swap')).toThrow(expect.objectContaining({ code: 'permission_denied' }));
  // Gone altogether: not_found.
  fs.rmSync(path.join(ws, '.peon/skills'));
  expect(() => catalog.read('swap')).toThrow(expect.objectContaining({ code: 'not_found' }));
});

test('read returns at most peon.skills.maxSkillBytes, cut at a character boundary, and says so; the hash is of the whole file', () => {
  const body = `# big\n\n${'é'.repeat(3000)}\n`;
  const { ws, discover } = setup({ '.peon/skills/big/SKILL.md': skillMd('big', 'Big.', body) });
  const catalog = discover({ maxSkillBytes: 1025 });
  const read = catalog.read('big');
  const whole = fs.readFileSync(path.join(ws, '.peon/skills/big/SKILL.md'));
  expect(read.truncated).toBe(true);
  expect(read.bytes).toBe(whole.length);
  expect(Buffer.byteLength(read.text)).toBeLessThanOrEqual(1025);
  expect(read.text.endsWith('\uFFFD')).toBe(false);
  expect(whole.toString('utf8').startsWith(read.text)).toBe(true);
  expect(read.sha256).toBe(createHash('sha256').update(whole).digest('hex'));
});

test('a FIFO, a hard link, an oversized file or something no longer a skill is never read as one', () => {
  const { ws, discover } = setup({ '.peon/skills/good/SKILL.md': skillMd('good'), 'secret.txt': 'aws_secret_access_key=x\n' });
  fs.mkdirSync(path.join(ws, '.peon/skills/pipe'));
  execFileSync('mkfifo', [path.join(ws, '.peon/skills/pipe/SKILL.md')]); // opening it would block until a writer came
  fs.mkdirSync(path.join(ws, '.peon/skills/linked'));
  fs.writeFileSync(path.join(ws, 'linked.md'), skillMd('linked'));
  fs.linkSync(path.join(ws, 'linked.md'), path.join(ws, '.peon/skills/linked/SKILL.md'));
  writeFiles(ws, { '.peon/skills/huge/SKILL.md': skillMd('huge', 'Huge.', 'x'.repeat(1_100_000)) });
  const catalog = discover({ maxSkillBytes: 65_536 });
  expect(catalog.list().map((s) => s.name)).toEqual(['good']);
  expect(catalog.warnings).toEqual([
    expect.stringMatching(/^Skill \.peon\/skills\/huge\/SKILL\.md skipped: .* is \d+ bytes, more than a skill may be \(1048576/),
    expect.stringMatching(/^Skill \.peon\/skills\/linked\/SKILL\.md skipped: .* has 2 hard links/),
    expect.stringMatching(/^Skill \.peon\/skills\/pipe\/SKILL\.md skipped: .* is not a regular file/),
  ]);
  // Swapped after discovery for a hard link to a secret: not a skill any more, so not read.
  const file = path.join(ws, '.peon/skills/good/SKILL.md');
  fs.rmSync(file);
  fs.linkSync(path.join(ws, 'secret.txt'), file);
  expect(() => catalog.read('good')).toThrow(expect.objectContaining({ code: 'permission_denied', message: expect.stringMatching(/hard links/) }));
  fs.rmSync(file);
  fs.copyFileSync(path.join(ws, 'secret.txt'), file);
  expect(() => catalog.read('good')).toThrow(expect.objectContaining({ code: 'invalid_input', message: expect.stringMatching(/no longer a valid skill/) }));
});
