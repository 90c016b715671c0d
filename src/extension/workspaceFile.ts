// Which workspace file a name from the panel means (a tool card's path, `file:line` in
// output or an answer, a context chip). The webview only names it: the name is resolved
// against the workspace folders (`folderName/path` picks a folder, as the tools do),
// links are followed, and only a file (or folder) inside one of the folders is the answer.
import fs from 'node:fs';
import path from 'node:path';

type Folders = readonly { name: string; root: string }[];

/** The canonical file `name` means in this workspace, or undefined when it is none (outside, missing, a folder). */
export function workspaceFile(name: string, folders: Folders): string | undefined {
  return workspaceEntry(name, folders, 'file');
}

/** The canonical folder `name` means in this workspace (a workspace folder itself too), or undefined when it is none. */
export function workspaceFolder(name: string, folders: Folders): string | undefined {
  return workspaceEntry(name.replace(/[/\\]+$/, '') || '.', folders, 'folder');
}

/** How the panel names a canonical path of the workspace: relative to its folder, `folder/…` with several; undefined outside. */
export function workspaceRelative(canonical: string, folders: Folders): string | undefined {
  const roots = folders.map((f) => ({ name: f.name, root: realpath(f.root) ?? f.root }));
  const folder = roots.filter((f) => canonical === f.root || canonical.startsWith(f.root.endsWith(path.sep) ? f.root : f.root + path.sep)).sort((a, b) => b.root.length - a.root.length)[0];
  if (!folder) return undefined;
  const relative = path.relative(folder.root, canonical).split(path.sep).join('/');
  return roots.length > 1 ? (relative === '' ? folder.name : `${folder.name}/${relative}`) : relative || '.';
}

function workspaceEntry(name: string, folders: Folders, kind: 'file' | 'folder'): string | undefined {
  if (folders.length === 0 || name.includes('\0')) return undefined;
  const roots = folders.map((f) => ({ name: f.name, root: realpath(f.root) })).filter((f): f is { name: string; root: string } => f.root !== undefined);
  const [first, ...rest] = name.split(/[/\\]/);
  const named = rest.length > 0 || (kind === 'folder' && roots.length > 1) ? roots.find((f) => f.name === first) : undefined;
  const candidates = path.isAbsolute(name) ? [name] : named ? [path.join(named.root, ...rest), path.join(roots[0]?.root ?? '', name)] : [path.join(roots[0]?.root ?? '', name)];
  for (const candidate of candidates) {
    const real = realpath(candidate);
    if (!real || !(kind === 'file' ? fs.statSync(real).isFile() : fs.statSync(real).isDirectory())) continue;
    if (roots.some((f) => real === f.root || real.startsWith(f.root.endsWith(path.sep) ? f.root : f.root + path.sep))) return real;
  }
  return undefined;
}

function realpath(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}
