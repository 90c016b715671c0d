// How the CLI shows the person a page they must visit (an MCP server's OAuth
// authorization): `$BROWSER URL` when BROWSER is set, the convention `gh` and git follow
// (its words split on spaces, so `BROWSER="firefox --new-window"` works; no shell runs
// it), else the URL on stderr to open by hand. The browser is detached and its output
// ignored: it outlives the command and never writes into peon's output.
import { spawn } from 'node:child_process';

export function cliOpenUrl(server: string, env: NodeJS.ProcessEnv = process.env): (url: string) => void {
  const printed = (url: string): void => void process.stderr.write(`peon: open this URL to authorize ${server}: ${url}\n`);
  return (url) => {
    const words = (env.BROWSER ?? '').split(/\s+/).filter(Boolean);
    if (words.length === 0) return printed(url);
    const child = spawn(words[0]!, [...words.slice(1), url], { detached: true, stdio: 'ignore' });
    // A BROWSER that cannot start leaves the person the URL.
    child.once('error', () => printed(url));
    child.unref();
  };
}
