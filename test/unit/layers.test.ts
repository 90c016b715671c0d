import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { checkLayers } from '../../scripts/layers.mjs';

describe('layers (DESIGN.md §1)', () => {
  test('the source tree keeps its layers', () => {
    expect(checkLayers()).toEqual([]);
  });

  describe('the check catches each kind of violation', () => {
    test('a tool reaching the gate or the runtime, a face wiring a conversation itself', () => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-layers-'));
      write('src/core/tools/t.ts', "import { judge } from '../permissions/gate';\nexport const t = judge;\n");
      write('src/core/tools/u.ts', "import type { CallPipeline } from '../conversation/pipeline';\nexport type U = CallPipeline;\n");
      write('src/extension/v.ts', "import { buildSystemPrompt } from '../core/agent/systemPrompt';\nexport const v = buildSystemPrompt;\n");
      write('src/cli/w.ts', "import { CallPipeline } from '../core/conversation/pipeline';\nexport const w = CallPipeline;\n");
      write('src/cli/ok.ts', "import { openConversation } from '../core/conversation/conversation';\nexport const ok = openConversation;\n");
      expect(checkLayers(root).sort()).toEqual(
        [
          "src/cli/w.ts: cli imports '../core/conversation/pipeline' from src/core/conversation/pipeline",
          "src/core/tools/t.ts: tools imports '../permissions/gate' from src/core/permissions",
          "src/core/tools/u.ts: tools imports '../conversation/pipeline' from src/core/conversation",
          "src/extension/v.ts: extension imports '../core/agent/systemPrompt' from src/core/agent/systemPrompt",
        ].sort(),
      );
    });

    let root: string;
    const write = (file: string, text: string): void => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    test('vscode in core, node in shared and webview, upward imports', () => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'peon-layers-'));
      write('src/core/a.ts', "import * as vscode from 'vscode';\nexport const a = vscode;\n");
      write('src/core/b.ts', "export { x } from '../extension/x';\n");
      write('src/core/c.ts', "const v = require('vscode');\nexport default v;\n");
      write('src/core/d.ts', "export const load = () => import('vscode');\n");
      write('src/shared/e.ts', "import fs from 'node:fs';\nexport const e = fs;\n");
      write('src/shared/f.ts', "import path from 'path';\nexport const f = path;\n");
      write('src/shared/g.ts', "import { h } from '../core/h';\nexport const g = h;\n");
      write('src/cli/h.ts', "import '../extension/activate';\n");
      write('webview/App.svelte', "<script lang=\"ts\">\n  import { readFileSync } from 'node:fs';\n</script>\n<p>hi</p>\n");
      write('webview/i.ts', "import { settings } from '../src/core/settings';\nexport const i = settings;\n");
      write('src/shared/j.ts', "import { marked } from 'marked';\nexport const j = marked;\n");
      write('webview/k.ts', "import { mount } from 'svelte';\nimport { z } from 'zod/mini';\nexport const k = [mount, z];\n");
      write('src/core/ok.ts', "import fs from 'node:fs';\nimport { m } from '../shared/m';\nexport const ok = [fs, m];\n");
      expect(checkLayers(root).sort()).toEqual(
        [
          "src/cli/h.ts: cli imports '../extension/activate' from src/extension",
          "src/core/a.ts: core imports 'vscode'",
          "src/core/b.ts: core imports '../extension/x' from src/extension",
          "src/core/c.ts: core imports 'vscode'",
          "src/core/d.ts: core imports 'vscode'",
          "src/shared/e.ts: shared imports the Node module 'node:fs'",
          "src/shared/f.ts: shared imports the Node module 'path'",
          "src/shared/g.ts: shared imports '../core/h' from src/core",
          "src/shared/j.ts: shared imports the package 'marked' (allowed: zod)",
          "webview/App.svelte: webview imports the Node module 'node:fs'",
          "webview/i.ts: webview imports '../src/core/settings' from src/core",
        ].sort(),
      );
    });
  });
});
