// What the subagent tests share: the scripted model server (each child's requests told
// apart by its name in its system prompt), replies to script, the agent records the
// runtime reports (awaited, never polled by time), and the processes in /proc.
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { anthropicClient } from '../../../src/core/model/anthropicClient';
import type { AgentInfo } from '../../../src/shared/messages';
import { startModelServer } from '../../fakes/modelServer.mjs';
import { opened } from './conversationTestKit';

export type Body = { system: unknown; tools?: { name: string }[]; messages: { role: string; content: unknown }[] };

/** A scripted model server for the file's tests (started once, emptied after each test). */
export function scriptedModel() {
  let server!: Awaited<ReturnType<typeof startModelServer>>;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server.close());
  afterEach(async () => {
    // What a test left running (a stalled or background child) is stopped before the next test's replies are scripted.
    for (const conversation of opened) {
      conversation.stop();
      await conversation.subagents.idle();
    }
    opened.clear();
    server.reset();
  });
  const bodies = (): Body[] => server.requests.map((r: { body: Body }) => r.body);
  return {
    get server() {
      return server;
    },
    client: () => anthropicClient({ apiKey: 'k', model: 'claude-test', baseUrl: server.anthropicUrl }),
    /** The requests the subagent `name` made. */
    requestsOf: (name: string): Body[] => bodies().filter((b) => JSON.stringify(b.system).includes(`You are the subagent \\"${name}\\"`)),
    /** The main agent's requests. */
    mainRequests: (): Body[] => bodies().filter((b) => !JSON.stringify(b.system).includes('You are the subagent')),
  };
}

let callIds = 0;
export const call = (name: string, input: unknown, text?: string) => ({ ...(text ? { text } : {}), toolCalls: [{ id: `c${++callIds}`, name, arguments: JSON.stringify(input) }] });
export const say = (text: string) => ({ text });

/** The messages the model was sent in a request, as one string. */
export const sent = (body: Body): string => JSON.stringify(body.messages);

/** The text of the tool_result blocks of a request's last user message. */
export const lastToolResult = (body: Body): string => {
  const last = body.messages.at(-1)!;
  return (last.content as { type: string; content?: string }[]).filter((b) => b.type === 'tool_result').map((b) => b.content).join('\n');
};

/** The agent records the runtime reports; `until` resolves once one matches. */
export function watchAgents() {
  const seen: AgentInfo[] = [];
  const waiters: { predicate: (a: AgentInfo) => boolean; resolve: (a: AgentInfo) => void }[] = [];
  return {
    seen,
    onAgent(info: AgentInfo) {
      seen.push(info);
      for (const w of [...waiters]) if (w.predicate(info)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(info);
      }
    },
    until(predicate: (a: AgentInfo) => boolean): Promise<AgentInfo> {
      const found = seen.find(predicate);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
  };
}

/** Processes whose command line is exactly `command` (read from /proc; nothing is signalled). */
export function survivors(command: string): number[] {
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') === command ? [Number(pid)] : [];
    } catch {
      return [];
    }
  });
}

/** Resolves when a process running `command` exists (a shell prints before it execs what follows). */
export async function processAppears(command: string): Promise<void> {
  while (survivors(command).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
}
