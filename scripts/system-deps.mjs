#!/usr/bin/env node
// The Debian packages the tests need. As root they are installed with apt-get;
// otherwise their names are printed and the script fails, so nothing half-works.
import { execFileSync, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/**
 * Everything `npm test` needs from Debian: code-server's native build, rg, the e2e
 * browser, unzip to read the VSIX, iproute2 to bring up loopback in the network
 * namespace of the agent round trip, bsdutils for script(1) (a pseudo-terminal for the
 * CLI's questions), openssl for the self-signed certificate webfetch must refuse,
 * bubblewrap for the sandbox commands run in (and its tests), socat for Claude Code's own sandbox, util-linux's setpriv for
 * running those tests again as an ordinary user.
 */
export const TEST_PACKAGES = ['chromium', 'ripgrep', 'libkrb5-dev', 'pkg-config', 'unzip', 'iproute2', 'bsdutils', 'openssl', 'bubblewrap', 'socat', 'util-linux', 'passwd'];

function installed(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

export function ensureSystemPackages(packages = TEST_PACKAGES) {
  const missing = packages.filter((p) => !installed(p));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`Missing Debian packages: ${missing.join(' ')}. Install them with: sudo apt-get install -y ${missing.join(' ')}`);
  }
  console.log(`Installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureSystemPackages();
  console.log(`Debian packages present: ${TEST_PACKAGES.join(' ')}`);
}
