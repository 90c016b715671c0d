// What the MCP section says of each server's state, and the header button's one line
// for all of them: what needs the person first, so it reads at a glance.
import type { McpServerInfo } from '../../src/shared/messages';

type State = McpServerInfo['state'];

/** A server's state in words: "ready · 12 tools", "needs approval", "not started". */
export function stateText(server: McpServerInfo): string {
  switch (server.state) {
    case 'ready':
      return `ready · ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`;
    case 'needs-approval':
      return 'needs approval';
    case 'needs-input':
      return 'needs input';
    case 'starting':
      return 'starting…';
    case 'stopped':
      return 'not started';
    case 'untrusted':
      return 'untrusted workspace';
    case 'disabled':
      return 'disabled here';
    case 'failed':
      return 'failed';
  }
}

/** States that wait for the person (or went wrong): the header button says so. */
const ATTENTION: readonly State[] = ['needs-approval', 'needs-input', 'failed'];
/** The order the header line names states in: what needs the person first. */
const ORDER: readonly [State, string][] = [
  ['needs-approval', 'needs approval'],
  ['needs-input', 'needs input'],
  ['failed', 'failed'],
  ['starting', 'starting'],
  ['ready', 'ready'],
  ['stopped', 'not started'],
  ['untrusted', 'untrusted'],
  ['disabled', 'disabled'],
];

/**
 * The header button's words: `text`, every state's count ("1 ready · 1 needs approval"),
 * for its label; `short`, what it shows — what needs the person if anything does, else
 * the first state — and whether anything does.
 */
export function headerText(servers: readonly McpServerInfo[], problems: number): { text: string; short: string; attention: boolean } {
  const parts = ORDER.map(([state, words]) => {
    const n = servers.filter((s) => s.state === state).length;
    return { words: n > 0 ? `${n} ${words}` : '', urgent: ATTENTION.includes(state) };
  }).filter((p) => p.words !== '');
  const withheld = servers.filter((s) => s.withheld.length > 0).length;
  if (withheld > 0) parts.unshift({ words: `${withheld} with changed tools`, urgent: true });
  if (problems > 0) parts.push({ words: `${problems} config problem${problems === 1 ? '' : 's'}`, urgent: true });
  const urgent = parts.filter((p) => p.urgent);
  return { text: parts.map((p) => p.words).join(' · '), short: (urgent.length > 0 ? urgent : parts.slice(0, 1)).map((p) => p.words).join(' · '), attention: urgent.length > 0 };
}

/** Where a server is configured, as the person knows it. */
export const sourceText = (server: McpServerInfo): string => (server.source === 'user' ? 'your settings' : server.source);
