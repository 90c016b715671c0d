// Where the todo list may be read and written: a real .peon folder in the workspace (not a
// link out of it) and regular files in it — never a link, a FIFO, a device or something
// huge a cloned repository planted. Reads open the file without following a link and
// without blocking, and check what they opened.
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../tools/toolError';

/** Larger than any todo list: a bigger file is refused, never read into memory. */
export const MAX_TODO_FILE_BYTES = 5 * 1024 * 1024;

const refuse = (what: string): ToolError => new ToolError('permission_denied', `${what}: Peon keeps the todo list only in a regular file in a real .peon folder inside the workspace. Nothing was read or written; remove or fix it, then retry.`);

/** Throws unless `dir` (the workspace's .peon) is absent or a real folder, and each of `files` in it is absent or a regular file. */
export async function checkTodoPlace(dir: string, files: readonly string[]): Promise<void> {
  const folder = await fs.lstat(dir).catch(() => undefined);
  if (folder && (folder.isSymbolicLink() || !folder.isDirectory())) throw refuse(`.peon is ${folder.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}`);
  for (const file of files) {
    const stat = await fs.lstat(path.join(dir, file)).catch(() => undefined);
    if (stat && !stat.isFile()) throw refuse(`.peon/${file} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}`);
    if (stat && stat.size > MAX_TODO_FILE_BYTES) throw new ToolError('too_large', `.peon/${file} holds ${stat.size} bytes, more than a todo list ever needs (${MAX_TODO_FILE_BYTES}); it was not read. Move it away, then retry.`);
  }
}

/** The file's bytes, or undefined when it does not exist; refuses a link, a non-regular or an oversized file. */
export async function readTodoFile(file: string): Promise<Buffer | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw refuse(`.peon/${path.basename(file)} is a symbolic link`);
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw refuse(`.peon/${path.basename(file)} is not a regular file`);
    if (stat.size > MAX_TODO_FILE_BYTES) throw new ToolError('too_large', `.peon/${path.basename(file)} holds ${stat.size} bytes, more than a todo list ever needs; it was not read.`);
    const bytes = Buffer.alloc(stat.size);
    const { bytesRead } = await handle.read(bytes, 0, stat.size, 0);
    return bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
