// Which workspace file a name from the panel means (a tool card's path, `file:line` in
// output or an answer). The webview only names it: the name is resolved against the
// workspace folders (`folderName/path` picks a folder, as the tools do), links are
// followed, and only a file inside one of the folders is the answer.
import fs from 'node:fs';
import path from 'node:path';

/** The canonical file `name` means in this workspace, or undefined when it is none (outside, missing, a folder). */
export function workspaceFile(name: string, folders: readonly { name: string; root: string }[]): string | undefined {
  if (folders.length === 0 || name.includes('\0')) return undefined;
  const roots = folders.map((f) => ({ name: f.name, root: realpath(f.root) })).filter((f): f is { name: string; root: string } => f.root !== undefined);
  const [first, ...rest] = name.split(/[/\\]/);
  const named = rest.length > 0 ? roots.find((f) => f.name === first) : undefined;
  const candidates = path.isAbsolute(name) ? [name] : named ? [path.join(named.root, ...rest), path.join(roots[0]?.root ?? '', name)] : [path.join(roots[0]?.root ?? '', name)];
  for (const candidate of candidates) {
    const real = realpath(candidate);
    if (!real || !fs.statSync(real).isFile()) continue;
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
