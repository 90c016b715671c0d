// A real bash grammar for judging commands (DESIGN.md §5, SECURITY.md rule 2):
// tree-sitter-bash through web-tree-sitter's wasm, as VS Code ships them in
// @vscode/tree-sitter-wasm. The grammar is loaded once per process; when it cannot be
// found or loaded, there is no parser, and every command asks.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Language, Parser, type Tree } from '@vscode/tree-sitter-wasm';

const GRAMMAR = 'tree-sitter-bash.wasm';

/** dist/wasm next to the bundles (esbuild.mjs copies it there), else the package in node_modules. */
export function locateGrammarDir(resolveFrom = typeof __filename === 'string' ? __filename : path.join(process.cwd(), 'index.js')): string | undefined {
  const candidates = [path.join(path.dirname(resolveFrom), 'wasm')];
  try {
    candidates.push(path.join(path.dirname(createRequire(resolveFrom).resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm'));
  } catch {
    // not installed: only the bundled copy counts
  }
  return candidates.find((dir) => fs.existsSync(path.join(dir, GRAMMAR)) && fs.existsSync(path.join(dir, 'tree-sitter.wasm')));
}

let loading: Promise<Parser | undefined> | undefined;

async function load(): Promise<Parser | undefined> {
  const dir = locateGrammarDir();
  if (!dir) return undefined;
  try {
    await Parser.init({ locateFile: (file: string) => path.join(dir, file) });
    const parser = new Parser();
    parser.setLanguage(await Language.load(path.join(dir, GRAMMAR)));
    return parser;
  } catch {
    return undefined;
  }
}

/** The syntax tree of `command`, or undefined when no parser could be loaded. */
export async function parseBash(command: string): Promise<Tree | undefined> {
  loading ??= load();
  const parser = await loading;
  return parser?.parse(command) ?? undefined;
}
