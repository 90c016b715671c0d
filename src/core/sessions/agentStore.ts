// Each subagent's transcript and report, saved with its session (issue 13 "Nothing
// lost"): one append-only JSON-lines file per agent in a folder the face chooses (the
// panel's session storage, the CLI's state folder). A line is written as it happens —
// the agent's record (status, spend, last text) whenever it changes, each history item,
// each loop event for its transcript — so a crash loses at most the line in flight.
import fs from 'node:fs';
import path from 'node:path';
import type { LoopEvent } from '../agent/loop';
import type { HistoryItem } from '../model/modelClient';
import { AGENT_NAME, AgentInfo } from '../../shared/messages';

export type AgentLine =
  /** `reported`: its outcome reached its parent (a background one's report joined a request). */
  | { readonly type: 'record'; readonly record: AgentInfo; readonly reported: boolean }
  | { readonly type: 'history'; readonly item: HistoryItem }
  /** The history replaced whole (compaction). */
  | { readonly type: 'reset'; readonly history: readonly HistoryItem[] }
  | { readonly type: 'event'; readonly event: LoopEvent };

export interface LoadedAgent {
  readonly record: AgentInfo;
  readonly reported: boolean;
  readonly history: HistoryItem[];
  /** Its loop events in order: replayed, they rebuild its transcript. */
  readonly events: unknown[];
}

export class AgentStore {
  constructor(readonly dir: string) {}

  file(name: string): string {
    if (!AGENT_NAME.test(name)) throw new Error(`Not an agent name: ${JSON.stringify(name)}`);
    return path.join(this.dir, `${name}.jsonl`);
  }

  private made = false;

  /**
   * Never throws: saving is not the agent's work, and a full disk or a folder removed
   * under it (the session deleted) must not stop it; what is in memory is still shown.
   */
  append(name: string, line: AgentLine): void {
    const text = `${JSON.stringify(line)}\n`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        if (!this.made) fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
        this.made = true;
        fs.appendFileSync(this.file(name), text, { mode: 0o600 });
        return;
      } catch {
        this.made = false; // the folder may have gone: made again once
      }
    }
  }

  /** Every agent saved here; a file without a valid record, or a torn line, is skipped. */
  load(): LoadedAgent[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.endsWith('.jsonl'));
    } catch {
      return [];
    }
    const agents: LoadedAgent[] = [];
    for (const name of names.sort()) {
      const stem = name.slice(0, -'.jsonl'.length);
      if (!AGENT_NAME.test(stem)) continue;
      let record: AgentInfo | undefined;
      let reported = false;
      const history: HistoryItem[] = [];
      const events: unknown[] = [];
      for (const text of fs.readFileSync(path.join(this.dir, name), 'utf8').split('\n')) {
        if (text === '') continue;
        let line: AgentLine;
        try {
          line = JSON.parse(text) as AgentLine;
        } catch {
          continue; // torn by a crash
        }
        if (line.type === 'record') {
          const parsed = AgentInfo.safeParse(line.record);
          if (parsed.success && parsed.data.name === stem) {
            record = parsed.data;
            reported = line.reported === true;
          }
        } else if (line.type === 'history') history.push(line.item);
        else if (line.type === 'reset' && Array.isArray(line.history)) history.splice(0, history.length, ...line.history);
        else if (line.type === 'event') events.push(line.event);
      }
      if (record) agents.push({ record, reported, history, events });
    }
    return agents;
  }

  /** Removes every agent's file (the session was deleted). */
  delete(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
