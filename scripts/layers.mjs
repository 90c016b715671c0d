#!/usr/bin/env node
// The layer rules of DESIGN.md §1, checked over the import graph of the source tree.
// `node scripts/layers.mjs` prints violations; test/unit/layers.test.ts runs the same check.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { repoRoot } from './paths.mjs';

const builtins = new Set(builtinModules);
const isNodeBuiltin = (spec) => spec.startsWith('node:') || builtins.has(spec.split('/')[0]);

/** What only the conversation runtime assembles: a face importing one of these wires a conversation itself. */
const FACE_MAY_NOT_REACH = ['src/core/conversation/pipeline', 'src/core/agent/systemPrompt', 'src/core/agent/compaction', 'src/core/tools/builtins', 'src/core/tools/registry', 'src/core/workspace/workspace'];

/** Each layer: where it lives, what it may not import, and (browser layers) the only npm packages it may. */
export const LAYERS = [
  { name: 'core', dir: 'src/core', noVscode: true, noNode: false, mayNotReach: ['src/extension', 'src/cli', 'webview'] },
  { name: 'shared', dir: 'src/shared', noVscode: true, noNode: true, mayNotReach: ['src/core', 'src/extension', 'src/cli', 'webview'], packages: ['zod'] },
  { name: 'cli', dir: 'src/cli', noVscode: true, noNode: false, mayNotReach: ['src/extension', 'webview', ...FACE_MAY_NOT_REACH] },
  // A tool describes what it touches and does it; the call pipeline (and the gate) are the runtime's (DESIGN.md §1).
  { name: 'tools', dir: 'src/core/tools', noVscode: true, noNode: false, mayNotReach: ['src/core/permissions', 'src/core/conversation'] },
  // A face supplies hooks; the conversation is wired in src/core/conversation only.
  { name: 'extension', dir: 'src/extension', noVscode: false, noNode: false, mayNotReach: FACE_MAY_NOT_REACH },
  { name: 'webview', dir: 'webview', noVscode: true, noNode: true, mayNotReach: ['src/core', 'src/extension', 'src/cli'], packages: ['svelte', 'zod', 'marked', '@codemirror/legacy-modes', '@codemirror/streamparser'] },
];

const packageName = (spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts|svelte)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Module specifiers a file imports: static, dynamic, `require`, `export … from`. */
export function importsOf(file) {
  let text = fs.readFileSync(file, 'utf8');
  if (file.endsWith('.svelte')) {
    text = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
  }
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** @returns {string[]} one line per violation, `file: reason` */
export function checkLayers(root = repoRoot) {
  const violations = [];
  for (const layer of LAYERS) {
    for (const file of sourceFiles(path.join(root, layer.dir))) {
      const rel = path.relative(root, file);
      for (const spec of importsOf(file)) {
        if (layer.noVscode && spec === 'vscode') violations.push(`${rel}: ${layer.name} imports 'vscode'`);
        else if (layer.noNode && isNodeBuiltin(spec)) violations.push(`${rel}: ${layer.name} imports the Node module '${spec}'`);
        else if (layer.packages && !spec.startsWith('.') && !isNodeBuiltin(spec) && !layer.packages.includes(packageName(spec))) {
          violations.push(`${rel}: ${layer.name} imports the package '${spec}' (allowed: ${layer.packages.join(', ')})`);
        } else if (spec.startsWith('.')) {
          const target = path.relative(root, path.resolve(path.dirname(file), spec));
          const reached = layer.mayNotReach.find((dir) => target === dir || target.startsWith(dir + path.sep));
          if (reached) violations.push(`${rel}: ${layer.name} imports '${spec}' from ${reached}`);
        }
      }
    }
  }
  return violations;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const violations = checkLayers();
  for (const v of violations) console.error(v);
  console.log(violations.length === 0 ? 'Layers: no violations.' : `Layers: ${violations.length} violation(s).`);
  process.exitCode = violations.length === 0 ? 0 : 1;
}
