// B20: a foreground `task` whose explorer does one `read`, against the main agent doing
// the same `read` — each as the model sees it: a request that asks for the read, the
// read, a request that answers. Measured: the `task` call, from the main agent's call to
// its result (the child conversation assembled for its type — registry, system prompt,
// pipeline, its transcript saved — its two requests and its read, the report back).
// Reference: a whole turn of the main agent making the same two requests and the same
// read. The difference is what delegating costs. Scripted model on loopback
// (test/fakes/modelServer.mjs), the real Anthropic client; fresh conversations each
// round (outside the timing), a fresh name per task. Budget: ≤ 1.2×.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTs } from '../../scripts/loadTs.mjs';
import { startModelServer } from '../../test/fakes/modelServer.mjs';
import { median, ratioRow } from '../measure.mjs';

export const id = 'B20';
export const title = 'foreground task whose explorer does one read, scripted model, vs the main agent doing the read';

export async function run() {
  const core = await loadTs('bench/toolsEntry.ts');
  const server = await startModelServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-b20-'));
  const root = path.join(dir, 'ws');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'a.txt'), 'export const answer = 42;\n'.repeat(20));
  const client = core.anthropicClient({ apiKey: 'k', model: 'claude-test', baseUrl: server.anthropicUrl });
  const layers = { user: {}, workspace: {} };
  const settings = core.resolveSettings(layers).values;
  // As the panel opens one: its subagents' transcripts saved in a folder of the session.
  const open = () => core.openConversation({ agent: 'main', folders: [{ path: root }], settings, layers, trashDir: path.join(dir, 'trash'), hooks: { approve: async () => ({ approved: true }), agentsDir: () => path.join(dir, 'agents') } });
  let n = 0;
  const call = (name, input) => ({ toolCalls: [{ id: `c${++n}`, name, arguments: JSON.stringify(input) }] });
  const read = { path: 'a.txt' };
  const answer = { text: 'a.txt holds the answer, 42.' };
  /** Runs one round; returns the milliseconds of what is compared. */
  const rounds = {
    async measured() {
      const name = `scout${n}`;
      server.script(call('task', { name, subagent_type: 'explorer', prompt: 'Read a.txt' }), { text: 'The explorer read it.' });
      server.route(name, call('read', read), answer);
      let started = 0n;
      let ended = 0n;
      const result = await open().turn('go', client, (event) => {
        if (event.type === 'tool_call' && event.call.name === 'task') started = process.hrtime.bigint();
        if (event.type === 'tool_result' && event.call.name === 'task') ended = process.hrtime.bigint();
      });
      const sent = server.requests.map((r) => JSON.stringify(r.body.messages));
      if (result.reason !== 'end_turn' || sent.length !== 4 || !sent[2].includes('answer = 42') || !sent[3].includes('holds the answer')) throw new Error(`B20 task: ${result.reason} after ${sent.length} model requests, not as scripted`);
      return Number(ended - started) / 1e6;
    },
    async reference() {
      server.script(call('read', read), answer);
      const started = process.hrtime.bigint();
      const result = await open().turn('go', client, () => {});
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const sent = server.requests.map((r) => JSON.stringify(r.body.messages));
      if (result.reason !== 'end_turn' || sent.length !== 2 || !sent[1].includes('answer = 42')) throw new Error(`B20 read: ${result.reason} after ${sent.length} model requests, not as scripted`);
      return ms;
    },
  };
  try {
    // Interleaved, so the machine's drift falls on both alike; the ratio is the median of
    // each round's ratio. Three warm-up rounds.
    const times = { measured: [], reference: [] };
    for (let round = 0; round < 33; round++) {
      for (const [which, once] of Object.entries(rounds)) {
        server.reset();
        const ms = await once();
        if (round >= 3) times[which].push(ms);
      }
    }
    const ratio = median(times.measured.map((m, i) => m / times.reference[i]));
    const row = ratioRow(median(times.measured), median(times.reference), 1.2, `2 model requests and one read each; ratio: median of ${times.measured.length} paired rounds`);
    return { ...row, ratio, pass: ratio <= 1.2 };
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
