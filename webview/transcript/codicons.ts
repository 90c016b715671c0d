// The codicons the transcript shows, by name, as their code points in VS Code's own icon
// font (@vscode/codicons, shipped as dist/webview/codicon.ttf; its CSS is not loaded:
// these few are all the panel uses).
export const CODICONS = {
  'arrow-down': 0xea9a,
  check: 0xeab2,
  checklist: 0xeab3,
  'chevron-down': 0xeab4,
  'chevron-right': 0xeab6,
  'circle-slash': 0xeabd,
  edit: 0xea73,
  error: 0xea87,
  file: 0xea7b,
  files: 0xeaf0,
  'go-to-file': 0xea94,
  globe: 0xeb01,
  hubot: 0xeb08,
  'list-tree': 0xeb86,
  loading: 0xeb19,
  'new-file': 0xea7f,
  note: 0xeb26,
  plug: 0xeb2d,
  question: 0xeb32,
  robot: 0xec20,
  search: 0xea6d,
  'stop-circle': 0xeba5,
  sync: 0xea77,
  terminal: 0xea85,
  tools: 0xeb6d,
  trash: 0xea81,
  watch: 0xeb7c,
  book: 0xeaa4,
  database: 0xeace,
  map: 0xec05,
  // Checkpoints (webview/checkpoints): what a step did to a file, Revert, a conflict.
  'diff-added': 0xeadc,
  'diff-modified': 0xeade,
  'diff-removed': 0xeadf,
  'diff-renamed': 0xeae0,
  diff: 0xeae1,
  discard: 0xeae2,
  warning: 0xea6c,
} as const;

export type CodiconName = keyof typeof CODICONS;

/** The icon of a tool's card: what kind of step it is. */
export function toolIcon(name: string, mcp: boolean): CodiconName {
  if (mcp) return 'plug';
  switch (name) {
    case 'read':
      return 'file';
    case 'grep':
      return 'search';
    case 'glob':
      return 'files';
    case 'list':
      return 'list-tree';
    case 'edit':
      return 'edit';
    case 'write':
      return 'new-file';
    case 'delete':
      return 'trash';
    case 'bash':
      return 'terminal';
    case 'todowrite':
    case 'todoread':
      return 'checklist';
    case 'askuserquestion':
      return 'question';
    case 'enterplanmode':
    case 'exitplanmode':
      return 'map';
    case 'webfetch':
    case 'websearch':
      return 'globe';
    case 'task':
    case 'taskstatus':
      return 'hubot';
    case 'read_skill':
    case 'loadskill':
      return 'book';
    case 'mem-search':
    case 'mem-read':
      return 'database';
    default:
      return name.startsWith('agent_') ? 'robot' : 'tools';
  }
}
