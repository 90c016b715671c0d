// Starts the pinned code-server (a real VS Code 1.99 server + web workbench) on
// loopback with fresh user-data and extension folders, and stops it by its own pid.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { codeServerEntry } from '../../scripts/paths.mjs';
import { provisionCodeServer } from '../../scripts/provision-code-server.mjs';

export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Signals the process group code-server leads. Linux never reuses an id while a process
 * group of that id has members, so a group found in /proc is still ours.
 */
function signalGroup(pid, signal) {
  if (!groupAlive(pid)) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group emptied meanwhile
  }
}

function groupAlive(pgid) {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // fields after the command name (which may hold spaces): state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) return true;
    } catch {
      // exited while we looked
    }
  }
  return false;
}

/** A fresh HOME under the server's folder, with the machine's ~/.gitconfig (git's identity) copied in. */
function testHome(home) {
  const dir = path.join(home, 'home');
  fs.mkdirSync(dir, { recursive: true });
  const gitconfig = path.join(os.homedir(), '.gitconfig');
  if (fs.existsSync(gitconfig)) fs.copyFileSync(gitconfig, path.join(dir, '.gitconfig'));
  return dir;
}

/**
 * @param {{ workspace: string, userSettings?: Record<string, unknown>, env?: Record<string, string>,
 *           port?: number, log?: (line: string) => void, trust?: boolean, home?: string,
 *           install?: string[], enableProposedApi?: string[] }} options
 *   `home` keeps user data between runs (npm start); without it a fresh temp folder is used and removed.
 *   `install` lists VSIX files installed into the fresh extensions folder before the server starts.
 *   `enableProposedApi` names extensions (publisher.name) allowed their proposed APIs (test fixtures only).
 */
export async function startCodeServer(options) {
  provisionCodeServer();
  const keepHome = options.home !== undefined;
  const home = options.home ?? fs.mkdtempSync(path.join(os.tmpdir(), 'peon-code-server-'));
  // A test server gets a HOME of its own (the machine's .gitconfig copied in), so what runs
  // in it never meets this machine's dotfiles: a ~/.bashrc that writes into a read-only
  // (sandboxed) home would print into every command's output. npm start keeps the person's.
  const userHome = keepHome ? process.env.HOME : testHome(home);
  const userDataDir = path.join(home, 'user-data');
  const extensionsDir = path.join(home, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const settings = {
    'security.workspace.trust.enabled': options.trust ?? false,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'update.mode': 'none',
    'telemetry.telemetryLevel': 'off',
    ...options.userSettings,
  };
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  if (!keepHome || !fs.existsSync(settingsFile)) {
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
    // The workbench is a remote window: once settings reload, VS Code applies machine-scoped
    // keys (peon.model.*) only from the remote machine's settings, so they go there too.
    fs.mkdirSync(path.join(userDataDir, 'Machine'), { recursive: true });
    fs.writeFileSync(path.join(userDataDir, 'Machine', 'settings.json'), JSON.stringify(settings, null, 2));
  }
  for (const vsix of options.install ?? []) {
    execFileSync(process.execPath, [codeServerEntry, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', vsix], {
      stdio: 'pipe',
      timeout: 120_000,
      env: { ...process.env, HOME: userHome, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_DATA_HOME: path.join(home, 'data') },
    });
  }
  const port = options.port ?? (await freePort());
  const args = [
    codeServerEntry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--config', path.join(home, 'config.yaml'),
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    ...(options.enableProposedApi ?? []).flatMap((id) => ['--enable-proposed-api', id]),
    options.workspace,
  ];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: stop() ends the extension host and watchers with it
    env: { ...process.env, HOME: userHome, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_DATA_HOME: path.join(home, 'data'), ...options.env },
  });
  const output = [];
  const onData = (chunk) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line) continue;
      output.push(line);
      options.log?.(line);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const url = `http://127.0.0.1:${port}`;
  const cleanUp = () => {
    signalGroup(child.pid, 'SIGKILL');
    if (!keepHome) fs.rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const early = await Promise.race([exited, new Promise((r) => setTimeout(r, 250, null))]);
    if (early) {
      cleanUp();
      throw new Error(`code-server exited during startup (${JSON.stringify(early)}):\n${output.join('\n')}`);
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      cleanUp();
      throw new Error(`code-server did not answer on ${url} within 60 s:\n${output.join('\n')}`);
    }
  }

  return {
    url,
    port,
    home,
    userDataDir,
    output,
    /** The workbench URL; `payload` entries are VS Code's development options. */
    workbenchUrl(folder, payload = []) {
      const query = new URLSearchParams({ folder });
      if (payload.length > 0) query.set('payload', JSON.stringify(payload));
      return `${url}/?${query}`;
    },
    /** A local path as the workbench's remote authority sees it. */
    remoteUri(localPath) {
      return `vscode-remote://127.0.0.1:${port}${localPath}`;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        signalGroup(child.pid, 'SIGTERM');
        const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      cleanUp(); // whatever of the group outlived its leader, and the temp home
    },
  };
}
