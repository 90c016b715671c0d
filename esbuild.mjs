// Builds the three outputs into dist/: the extension (cjs, `vscode` external), the
// `peon` CLI (cjs with a shebang) and the Svelte webview (iife + css, and the code-block
// highlighter as an iife of its own that the webview loads on first need).
// Flags: --watch rebuilds on change; --production minifies and drops sourcemaps.
import { chmod, copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';
import sveltePlugin from 'esbuild-svelte';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: process.argv.includes('--quiet') ? 'warning' : 'info',
  legalComments: production ? 'none' : 'inline',
  loader: { '.md': 'text' }, // tool descriptions (src/core/tools/*.md)
};

// ESM entry points first: jsonc-parser's UMD build cannot be bundled.
const node = { ...common, platform: 'node', target: 'node20', format: 'cjs', mainFields: ['module', 'main'] };

/**
 * The code-block highlighter's grammars: sql.js and clike.js define every dialect they know
 * at their top level (`export const mySQL = sql({ keywords: set("…") })`), calls a bundler
 * must keep unless told they are pure. Marked so, the dialects the highlighter does not
 * name (webview/markdown/highlight/highlight.ts) are left out of the VSIX (PERF.md B13).
 */
const pureGrammars = {
  name: 'pure-grammars',
  setup(build) {
    build.onLoad({ filter: /@codemirror[\\/]legacy-modes[\\/]mode[\\/](sql|clike)\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replace(/(^|[=(,:\s])(sql|clike|set|words)\(/gm, '$1/* @__PURE__ */ $2('), loader: 'js' };
    });
  },
};

/**
 * The page worker's script is its own bundle (dist/markdownWorker.js: the HTML parser, turndown);
 * pageWorker.ts's in-thread fallback requires that file beside it instead of a second copy
 * inside runtime.js and cli.js (PERF.md B13: the parser is a quarter of a megabyte).
 */
const workerBeside = {
  name: 'worker-beside',
  setup(build) {
    build.onResolve({ filter: /^\.\/markdownWorker$/ }, (args) => (args.kind === 'entry-point' ? undefined : { path: './markdownWorker.js', external: true }));
  },
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  // The extension's activation, the panel it requires when the view resolves, and the
  // conversation runtime the panel requires on first use (src/extension/lazyBundle.ts).
  // markdownWorker: the worker thread webfetch converts pages in (src/core/web/pageConverter.ts), for the extension and the CLI.
  { ...node, entryPoints: { extension: 'src/extension/extension.ts', panel: 'src/extension/panel.ts', runtime: 'src/core/conversation/index.ts', markdownWorker: 'src/core/web/markdownWorker.ts' }, outdir: 'dist', external: ['vscode'], plugins: [workerBeside] },
  {
    ...node,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [workerBeside, { name: 'executable', setup: (b) => b.onEnd(() => chmod('dist/cli.js', 0o755).catch(() => {})) }],
  },
  {
    ...common,
    // highlight.js: webview/markdown/highlighter.ts adds it, with the page's nonce, when a code block first needs it.
    entryPoints: { main: 'webview/main.ts', highlight: 'webview/markdown/highlight/highlight.ts' },
    outdir: 'dist/webview',
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    mainFields: ['svelte', 'browser', 'module', 'main'],
    conditions: ['svelte', 'browser', production ? 'production' : 'development'],
    // VS Code's icon font (webview/transcript/Codicon.svelte), next to main.css as codicon.ttf.
    loader: { ...common.loader, '.ttf': 'file' },
    assetNames: '[name]',
    plugins: [sveltePlugin({ compilerOptions: { css: 'external', dev: !production } }), pureGrammars],
  },
];

/**
 * ripgrep for the platform this is built on, shipped next to the bundles as dist/bin/rg
 * (the first place the grep and glob tools look; @vscode/ripgrep >= 1.18 installs it
 * offline in a platform package).
 */
async function copyRipgrep() {
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const source = createRequire(import.meta.url).resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/bin/${exe}`);
  await mkdir('dist/bin', { recursive: true });
  await copyFile(source, `dist/bin/${exe}`);
  await chmod(`dist/bin/${exe}`, 0o755);
}

/**
 * The bash grammar the permission gate parses commands with (src/core/shell), as
 * dist/wasm/{tree-sitter,tree-sitter-bash}.wasm next to the bundles.
 */
async function copyShellGrammar() {
  const dir = path.dirname(createRequire(import.meta.url).resolve('@vscode/tree-sitter-wasm/package.json'));
  await mkdir('dist/wasm', { recursive: true });
  for (const file of ['tree-sitter.wasm', 'tree-sitter-bash.wasm']) await copyFile(path.join(dir, 'wasm', file), `dist/wasm/${file}`);
}

await copyRipgrep();
await copyShellGrammar();

if (watch) {
  // One "[watch] build started/finished" pair for all three outputs, so the F5 task
  // (.vscode/tasks.json) waits until every bundle is written, not just the first.
  let running = 0;
  const announce = {
    name: 'announce',
    setup(build) {
      build.onStart(() => {
        if (running++ === 0) console.log('[watch] build started');
      });
      build.onEnd((result) => {
        for (const error of result.errors) console.log(`✘ [ERROR] ${error.text}\n\n    ${error.location?.file}:${error.location?.line}:${error.location?.column}:`);
        if (--running === 0) console.log('[watch] build finished');
      });
    },
  };
  for (const options of builds) {
    const context = await esbuild.context({ ...options, logLevel: 'silent', plugins: [...(options.plugins ?? []), announce] });
    await context.watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
