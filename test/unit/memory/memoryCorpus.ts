// A small memory, written as Peon writes it (and one curated file as a person would),
// on which every relevance gate returns a different set for the query "login test".
import fs from 'node:fs';
import path from 'node:path';
import { memoryStore } from '../../../src/core/memory/memoryStore';
import { makeWorkspace } from '../tools/toolTestContext';

export const QUERY = 'login test';

export async function corpus() {
  const root = makeWorkspace({
    'AGENTS.md': '# Project rules\n\nRun npm test before committing. The login flow lives in src/auth.\n',
    'tests/login.spec.ts': 'test("login", () => {});\n',
  });
  const store = memoryStore(root);
  const flaky = await store.write('observation', 'The login test fails when the clock skews; fixed by freezing time in tests/login.spec.ts. Login test now stable.', { title: 'Flaky login test', files: store.citedIn('tests/login.spec.ts') });
  const decision = await store.write('decision', 'We decided to store login sessions in postgres, not redis, so they survive restarts.', { title: 'Sessions live in postgres' });
  const styling = await store.write('summary', 'Changed the login page colours and fonts; the test for it passes.', { title: 'Session summary: login page styling' });
  const passing = await store.write('observation', `${'The webpack cache was rebuilt, dependencies were upgraded, the bundle size shrank and many other unrelated things happened. '.repeat(6)}A login was mentioned once.`, { title: 'Build cache notes' });
  return { root, store, ids: { flaky: flaky.id, decision: decision.id, styling: styling.id, passing: passing.id, agents: 'cur-agents-md' } };
}

export const entryFile = (root: string, id: string) => path.join(root, '.peon/memory', id.startsWith('sum-') ? 'summaries' : 'observations', `${id}.md`);
export const read = (file: string) => fs.readFileSync(file, 'utf8');
