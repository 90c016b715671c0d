import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { resolveSettings } from '../../src/core/settings';
import { DEFAULT_LIMITS } from '../../src/core/tools/contract';
import { builtinRegistry } from '../../src/core/tools/builtins';
import { CallPipeline } from '../../src/core/conversation/pipeline';
import { FileSnapshots } from '../../src/core/workspace/snapshots';
import { Trash } from '../../src/core/workspace/trash';
import { Workspace } from '../../src/core/workspace/workspace';
import { diagnosticsFor } from '../../src/extension/diagnostics';

// `read` in VS Code appends the editor's current problems for the file (DESIGN.md §4),
// from the host's real diagnostics (here a collection this test publishes).
suite('read carries the editor\'s diagnostics', () => {
  test('errors first, with line, column and source; a file without problems gets none', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'peon-diag-')));
    fs.writeFileSync(path.join(root, 'a.ts'), 'let x: number = "one";\nconsole.log(y);\n');
    fs.writeFileSync(path.join(root, 'b.ts'), 'export {};\n');
    const collection = vscode.languages.createDiagnosticCollection('peon-test');
    const warning = new vscode.Diagnostic(new vscode.Range(0, 4, 0, 5), "'x' is declared but never used.", vscode.DiagnosticSeverity.Warning);
    const error = new vscode.Diagnostic(new vscode.Range(1, 12, 1, 13), "Cannot find name 'y'.", vscode.DiagnosticSeverity.Error);
    error.source = 'ts';
    error.code = 2304;
    collection.set(vscode.Uri.file(path.join(root, 'a.ts')), [warning, error]);
    try {
      assert.deepEqual(diagnosticsFor(path.join(root, 'a.ts')), ["2:13 error: Cannot find name 'y'. (ts 2304)", "1:5 warning: 'x' is declared but never used."]);
      const session = new CallPipeline(
        builtinRegistry(),
        {
          signal: new AbortController().signal,
          workspace: new Workspace([{ path: root }]),
          timeoutMs: 30_000,
          limits: DEFAULT_LIMITS,
          snapshots: new FileSnapshots(),
          trash: new Trash(fs.mkdtempSync(path.join(os.tmpdir(), 'peon-diag-trash-'))),
          agent: 'main',
          ripgrep: undefined,
          settings: resolveSettings({ user: {}, workspace: {} }).values,
          diagnostics: diagnosticsFor,
        },
        async () => ({ approved: true }),
      );
      const read = await session.call('read', { path: 'a.ts' });
      assert.ok(read.ok, JSON.stringify(read));
      assert.equal(read.output, [
        '1\tlet x: number = "one";',
        '2\tconsole.log(y);',
        '',
        'Problems VS Code reports in a.ts:',
        "2:13 error: Cannot find name 'y'. (ts 2304)",
        "1:5 warning: 'x' is declared but never used.",
      ].join('\n'));
      const clean = await session.call('read', { path: 'b.ts' });
      assert.ok(clean.ok && !clean.output.includes('Problems'), JSON.stringify(clean));
    } finally {
      collection.dispose();
    }
  });
});
