// Where the CLI keeps MCP servers' OAuth credentials (mcpAuth.ts McpSecretStore; VS Code
// keeps them in SecretStorage): one JSON object of keys to values in
// <state>/mcp/secrets.json, the file 0600 in a folder of its own that is 0700, so no other
// user can read a token, and every write atomic (temp file, fsync, rename), so a crash
// never leaves half a file. Each write reads the file again first: another peon process
// may have stored its server's tokens meanwhile.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { McpSecretStore } from '../core/mcp/mcpAuth';
import { atomicWrite } from '../core/workspace/atomicWrite';
import { stateDir } from './toolHost';

export const secretsFile = (): string => path.join(stateDir(), 'mcp', 'secrets.json');

async function readAll(file: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    // Unreadable credentials are no credentials: the servers ask to be authorized again.
  }
  return {};
}

export function fileSecretStore(file = secretsFile()): McpSecretStore {
  // This process's writes in order: two tokens saved at once must both land.
  let writes: Promise<void> = Promise.resolve();
  const update = (change: (all: Record<string, string>) => void): Promise<void> => {
    writes = writes
      .catch(() => undefined)
      .then(async () => {
        const dir = path.dirname(file);
        await fs.mkdir(dir, { recursive: true, mode: 0o700 });
        await fs.chmod(dir, 0o700);
        const all = await readAll(file);
        change(all);
        await atomicWrite(file, Buffer.from(`${JSON.stringify(all, null, 2)}\n`), 0o600);
      });
    return writes;
  };
  return {
    async get(key) {
      await writes.catch(() => undefined);
      return (await readAll(file))[key];
    },
    set: (key, value) => update((all) => void (all[key] = value)),
    delete: (key) => update((all) => void delete all[key]),
  };
}
