// What the CLI keeps for the person under its state folder (PEON_STATE_DIR): MCP
// approvals and fingerprints, `${input:…}` answers and OAuth tokens. Readable by them
// alone — the folder 0700, the file 0600 — and written whole (a temporary file renamed
// over it), so a crash never leaves half a file.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export function readPrivateJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined; // absent or unreadable: nothing approved, nothing kept
  }
}

export function writePrivateJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  fs.renameSync(temp, file);
}
