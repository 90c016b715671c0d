// Checkpoints in the built webview (headless Chromium, the extension's CSP, a scripted
// host): a step's card says what it changed and lists the files — a click opens a diff,
// Revert reverts one, Revert this step all — and shows what the host says became of them;
// the turn's list offers Keep and Revert per file and Revert the turn; the conflict card
// shows what changed since and what restoring does, and posts the person's choice.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../vscode/browser.mjs';
import { openStandaloneWebview } from '../../webview/standalonePage.mjs';

type View = Awaited<ReturnType<typeof openStandaloneWebview>>;
const configured = { state: 'configured', provider: 'anthropic', model: 'claude-test' } as const;

const files = [
  { path: 'src/index.js', kind: 'modified', restorable: true },
  { path: 'old.txt', kind: 'deleted', restorable: true },
  { path: 'made.txt', kind: 'created', restorable: true },
  { path: 'big.bin', kind: 'modified', restorable: false },
];
const card = {
  kind: 'tool',
  id: 'e2',
  name: 'bash',
  args: '{"command":"./change.sh"}',
  status: 'ok',
  output: '',
  headline: 'Ran `./change.sh`',
  changes: { step: 'step-1', summary: 'created 1 file, changed 2, deleted 1', files },
};
const quiet = { ...card, id: 'e3', headline: 'Ran `ls`', changes: { step: 'step-2', summary: 'changed no files', files: [] } };
const untracked = { ...card, id: 'e4', headline: 'Ran `make`', changes: { step: 'step-3', summary: 'changes not tracked: the first snapshot of the workspace was still being taken', files: [], untracked: 'the first snapshot of the workspace was still being taken' } };
const single = { ...card, id: 'e6', name: 'write', headline: 'Wrote a.txt', changes: { step: 'step-4', summary: 'changed 1 file', files: [{ path: 'a.txt', kind: 'modified', restorable: true }] } };
const turn = { kind: 'changes', id: 'e5', steps: ['step-1'], files: files.slice(0, 3) };
const entries = [{ kind: 'user', id: 'e1', text: 'change things' }, card, quiet, untracked, single, turn];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => browser?.close());

async function open(): Promise<View> {
  const view = await openStandaloneWebview(browser, { width: 320, height: 900 });
  await view.send({ type: 'init', entries, model: configured });
  await view.page.getByRole('group', { name: 'What this step changed' }).first().waitFor();
  return view;
}
/** Each row's text, its whitespace collapsed. */
const rows = async (list: { allTextContents(): Promise<string[]> }): Promise<string[]> => (await list.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
const posted = async (view: View, type: string): Promise<unknown[]> => (await view.posted()).filter((m) => (m as { type: string }).type === type);

describe("a step's card", () => {
  test('says what it changed and lists the files; a click opens the diff; Revert one, Revert this step; the host\'s marks show', async () => {
    const view = await open();
    const { page } = view;
    const changes = page.getByRole('group', { name: 'What this step changed' }).first();
    // A step of one file: its own Revert, no Revert this step.
    const one = page.getByRole('group', { name: 'What this step changed' }).last();
    expect(await one.getByRole('button', { name: /^Revert/ }).evaluateAll((b) => b.map((e) => e.getAttribute('aria-label') ?? e.textContent?.trim()))).toEqual(['Revert a.txt']);
    expect(await changes.locator('.changes-summary').textContent()).toBe('created 1 file, changed 2, deleted 1');
    expect(await rows(changes.getByRole('listitem'))).toEqual(['M index.js src Revert', 'D old.txt Revert', 'A made.txt Revert', 'M big.bin not kept']);
    // The other cards: a quiet line, and why nothing is known.
    expect(await page.locator('.step-changes.quiet').allTextContents()).toEqual(['changed no files', 'changes not tracked: the first snapshot of the workspace was still being taken']);

    await changes.getByRole('button', { name: 'index.js src, modified: open the diff' }).click();
    await changes.getByRole('button', { name: 'Revert old.txt' }).click();
    await changes.getByRole('button', { name: 'Revert this step' }).click();
    expect(await posted(view, 'openChange')).toEqual([{ type: 'openChange', target: { step: 'step-1' }, path: 'src/index.js' }]);
    expect(await posted(view, 'revertChanges')).toEqual([
      { type: 'revertChanges', target: { step: 'step-1' }, paths: ['old.txt'] },
      { type: 'revertChanges', target: { step: 'step-1' } },
    ]);

    await view.send({ type: 'changeFiles', id: 'e2', files: files.map((f) => (f.restorable ? { ...f, state: 'reverted' } : f)) });
    await expect.poll(() => changes.locator('.file-state').allTextContents()).toEqual(['reverted', 'reverted', 'reverted', 'not kept']);
    expect(await changes.getByRole('button', { name: /^Revert/ }).count()).toBe(1); // Revert this step: big.bin is left
    await page.close();
  });
});

describe("the turn's list", () => {
  test('Keep and Revert per file, Revert the turn; a kept file leaves the list, a reverted one says so', async () => {
    const view = await open();
    const list = view.page.getByRole('region', { name: 'Files changed in this turn' });
    expect(await list.locator('.turn-title').textContent()).toBe('3 files changed in this turn');
    await list.getByRole('button', { name: 'Keep old.txt' }).click();
    await list.getByRole('button', { name: 'Revert made.txt' }).click();
    await list.getByRole('button', { name: 'made.txt, created: open the diff' }).click();
    await list.getByRole('button', { name: 'Revert the turn' }).click();
    expect(await posted(view, 'keepChanges')).toEqual([{ type: 'keepChanges', turn: 'e5', paths: ['old.txt'] }]);
    expect(await posted(view, 'revertChanges')).toEqual([
      { type: 'revertChanges', target: { turn: 'e5' }, paths: ['made.txt'] },
      { type: 'revertChanges', target: { turn: 'e5' } },
    ]);
    expect(await posted(view, 'openChange')).toEqual([{ type: 'openChange', target: { turn: 'e5' }, path: 'made.txt' }]);

    await view.send({ type: 'changeFiles', id: 'e5', files: [files[0], { ...files[1], state: 'kept' }, { ...files[2], state: 'reverted' }] });
    await expect.poll(() => rows(list.getByRole('listitem'))).toEqual(['M index.js src Keep Revert', 'A made.txt reverted']);
    expect(await list.locator('.turn-note').allTextContents()).toEqual(['1 kept']);
    await view.send({ type: 'changeFiles', id: 'e5', files: [{ ...files[0], state: 'reverted' }, { ...files[1], state: 'kept' }, { ...files[2], state: 'reverted' }] });
    await list.getByRole('button', { name: 'Revert the turn' }).waitFor({ state: 'detached' });
    await view.page.close();
  });
});

describe('the conflict card', () => {
  test('shows what changed since and what restoring does; Compare opens each; Keep mine and Restore anyway are posted; settled, it goes', async () => {
    const view = await open();
    const { page } = view;
    await view.send({
      type: 'revertConflict',
      conflict: {
        id: 'c1',
        action: 'Revert this step',
        files: [{ path: 'src/index.js', now: 'changed', since: '--- a/src/index.js\n+++ b/src/index.js\n@@ -1 +1 @@\n-by Peon\n+by you', restore: '--- a/src/index.js\n+++ b/src/index.js\n@@ -1 +1 @@\n-by you\n+original' }],
      },
    });
    const conflict = page.getByRole('group', { name: "Changed since Peon's step: Revert this step" });
    await conflict.waitFor();
    expect(await conflict.locator('.conflict-title').textContent()).toContain("src/index.js changed since Peon's step");
    // What changed since is open; what restoring does, one click away.
    expect(await conflict.getByRole('table', { name: "src/index.js: Peon's version → now" }).locator('.diff-row').allTextContents()).toEqual(['@@ -1 +1 @@', '-by Peon', '+by you']);
    await conflict.getByText('What restoring would change').click();
    expect(await conflict.getByRole('table', { name: "src/index.js: now → before Peon's change" }).locator('.diff-row.add').allTextContents()).toEqual(['+original']);

    await conflict.getByRole('button', { name: "Compare Peon's version ↔ now" }).click();
    await conflict.getByRole('button', { name: 'Compare now ↔ before' }).click();
    await conflict.getByRole('button', { name: 'Keep mine: src/index.js' }).click();
    await conflict.getByRole('button', { name: 'Restore anyway: src/index.js' }).click();
    expect(await posted(view, 'openConflict')).toEqual([
      { type: 'openConflict', id: 'c1', path: 'src/index.js', compare: 'since' },
      { type: 'openConflict', id: 'c1', path: 'src/index.js', compare: 'restore' },
    ]);
    expect(await posted(view, 'resolveConflict')).toEqual([
      { type: 'resolveConflict', id: 'c1', path: 'src/index.js', choice: 'keep' },
      { type: 'resolveConflict', id: 'c1', path: 'src/index.js', choice: 'restore' },
    ]);
    await view.send({ type: 'revertConflictSettled', id: 'c1' });
    await conflict.waitFor({ state: 'detached' });
    expect(view.violations).toEqual([]);
    await page.close();
  });
});
