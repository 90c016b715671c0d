// Numbers and short text as the panel and the CLI both show them.

/** 512 B, 34 KB, 2.1 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** 0.3 s, 4.2 s, 12 s, 1 min 5 s: how long something took (a tool call, a wait). */
export function formatDuration(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.floor(s)} s`;
  return `${Math.floor(s / 60)} min ${Math.floor(s % 60)} s`;
}

/** `$0.0123` below a dollar (a cheap turn stays visible), `$1.23` above. */
export const formatUsd = (usd: number): string => `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;

/** `text` at most `max` characters, a cut one ending in `…`. */
export const cutText = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A tool's input as one line (an MCP tool's card and its transcript entry): `key=value, …`, values cut. */
export function argumentLine(input: Readonly<Record<string, unknown>>): string {
  let line = '';
  for (const key of Object.keys(input)) {
    line += `${line === '' ? '' : ', '}${key}=${cutText(JSON.stringify(input[key]) ?? 'null', 60)}`;
    if (line.length > 200) break; // what is cut is not worth writing out
  }
  return cutText(line, 200);
}
