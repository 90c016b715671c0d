// A lock file shared by processes: created exclusively, holding `{pid, at, token}`. A lock
// whose process is gone, or older than STALE_MS, is removed. Waiting polls with a short
// growing backoff: a lock file sends no event when another process removes it.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { ToolError } from '../tools/toolError';

const STALE_MS = 30_000;
/** A lock file that does not parse is being written (open and write are two steps) unless it is older than this. */
const UNWRITTEN_MS = 2_000;

export interface LockOptions {
  /** How long to wait for another holder before giving up (`unavailable`). */
  readonly maxWaitMs?: number;
  /** Named in the error message: the lock file as the workspace shows it. */
  readonly display?: string;
}

interface Holder {
  pid: number;
  at: string;
  token?: string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH'; // EPERM: alive, someone else's
  }
}

async function readHolder(lockPath: string): Promise<{ text: string; holder?: Holder; ageMs: number } | undefined> {
  try {
    const [text, stat] = await Promise.all([fs.readFile(lockPath, 'utf8'), fs.stat(lockPath)]);
    let holder: Holder | undefined;
    try {
      const parsed = JSON.parse(text) as Partial<Holder>;
      if (Number.isSafeInteger(parsed.pid) && typeof parsed.at === 'string') holder = parsed as Holder;
    } catch {
      // not written yet, or garbage
    }
    const at = holder ? Date.parse(holder.at) : NaN;
    return { text, ...(holder ? { holder } : {}), ageMs: Date.now() - (Number.isNaN(at) ? stat.mtimeMs : at) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Removes the lock if it is still the stale one that was read (a fresh holder's lock is put back). */
async function removeStale(lockPath: string, seen: string): Promise<void> {
  const aside = `${lockPath}.stale-${randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if ((await fs.readFile(aside, 'utf8').catch(() => seen)) !== seen) {
    await fs.link(aside, lockPath).catch(() => undefined); // someone took it between our read and rename
  }
  await fs.rm(aside, { force: true });
}

/** Runs `fn` holding the lock file `lockPath`; releases it afterwards if it is still ours. */
export async function withLockFile<T>(lockPath: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const token = randomBytes(8).toString('hex');
  const content = JSON.stringify({ pid: process.pid, at: new Date().toISOString(), token });
  const deadline = Date.now() + (options.maxWaitMs ?? 15_000);
  let delay = 2;
  for (;;) {
    try {
      const handle = await fs.open(lockPath, 'wx');
      try {
        await handle.writeFile(content);
      } catch (error) {
        await handle.close();
        await fs.rm(lockPath, { force: true });
        throw error;
      }
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const current = await readHolder(lockPath);
    if (!current) continue;
    const stale = current.holder ? !alive(current.holder.pid) || current.ageMs > STALE_MS : current.ageMs > UNWRITTEN_MS;
    if (stale) {
      await removeStale(lockPath, current.text);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = current.holder ? ` by process ${current.holder.pid} since ${current.holder.at}` : '';
      throw new ToolError(
        'unavailable',
        `The todo list is locked${who} (lock file ${options.display ?? lockPath}). Try again shortly; if no Peon is running, delete that lock file.`,
      );
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 100);
  }
  try {
    return await fn();
  } finally {
    const current = await readHolder(lockPath).catch(() => undefined);
    if (current?.holder?.token === token) await fs.rm(lockPath, { force: true });
  }
}
