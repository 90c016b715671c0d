#!/usr/bin/env node
// `npm start [-- FOLDER]`: build, then open Peon in a real VS Code on FOLDER (default:
// the folder npm was run from). Desktop VS Code when `code` is on PATH; otherwise the
// pinned VS Code server on 127.0.0.1, printing the URL to open. Ctrl-C stops it.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cacheRoot, repoRoot } from './paths.mjs';

const workspace = path.resolve(process.argv[2] ?? process.env.INIT_CWD ?? process.cwd());
if (!fs.statSync(workspace, { throwIfNoEntry: false })?.isDirectory()) {
  console.error(`npm start: ${workspace} is not a folder.`);
  process.exit(2);
}

execFileSync(process.execPath, ['esbuild.mjs', '--quiet'], { cwd: repoRoot, stdio: 'inherit' });

const codeOnPath = process.env.PEON_USE_SERVER !== '1' && spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0;
if (codeOnPath) {
  console.log(`Opening ${workspace} in VS Code with Peon loaded from ${repoRoot}.`);
  execFileSync('code', ['--new-window', `--extensionDevelopmentPath=${repoRoot}`, workspace], { stdio: 'inherit' });
} else {
  const { startCodeServer } = await import('../test/vscode/codeServer.mjs');
  const port = Number(process.env.PEON_PORT ?? 0) || undefined;
  // Stop the server however this process is asked to end, also while it is starting.
  let server;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    if (!server) return; // still starting: stopped as soon as it is up
    await server.stop();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, stop);
  server = await startCodeServer({
    workspace,
    port,
    trust: true,
    home: path.join(cacheRoot, 'start'),
  });
  const url = server.workbenchUrl(workspace, [['extensionDevelopmentPath', server.remoteUri(repoRoot)]]);
  if (stopping) {
    await server.stop();
    process.exit(0);
  }
  console.log(`\nPeon is running in VS Code (code-server) on ${workspace}.\nOpen this URL in a browser on this machine:\n\n  ${url}\n\nPress Ctrl-C to stop.`);
}
