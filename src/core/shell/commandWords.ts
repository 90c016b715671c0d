// What a command's words say about the command that really runs: wrappers such as
// `sudo -u x`, `command --`, `env X=1`, `timeout 5` or `nice -n5` run the words after
// their own options. `unwrap` strips them, or gives up (undefined) on an option it does
// not know, so the caller can ask instead of guessing.
import path from 'node:path';

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'mksh', 'ash']);

interface Wrapper {
  /** Words that are the wrapper's own options. */
  readonly option: RegExp;
  /** Options whose value is the next word. */
  readonly takesValue?: ReadonlySet<string>;
  /** Words before the command that are not options (`timeout 5`, `env X=1`). */
  readonly operand?: RegExp;
}

const NONE = /^$/;
const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  command: { option: /^-[pvV]+$/ },
  builtin: { option: NONE },
  exec: { option: /^-[cl]+$|^-a$/, takesValue: new Set(['-a']) },
  nohup: { option: NONE },
  // Not -D/--chdir: the command would run in another folder, so its relative paths could not be checked.
  sudo: { option: /^-[AbEeHiKkLlnPSsVv]+$|^-[ughpCrtUT].+$|^--(user|group|host|prompt|close-from|role|type|other-user)=|^-[ughpCrtUT]$|^--(user|group|host|prompt|close-from|role|type|other-user)$|^--(preserve-env|login|shell|non-interactive|stdin|background|edit|list|reset-timestamp|remove-timestamp|validate|set-home)$/, takesValue: new Set(['-u', '-g', '-h', '-p', '-C', '-r', '-t', '-U', '-T', '--user', '--group', '--host', '--prompt', '--close-from', '--role', '--type', '--other-user']) },
  doas: { option: /^-[ns]+$|^-[uC]$|^-[uC].+$/, takesValue: new Set(['-u', '-C']) },
  time: { option: /^-[pv]+$|^-[fo]$|^--(portability|verbose)$/, takesValue: new Set(['-f', '-o']) },
  nice: { option: /^-n$|^-n-?\d+$|^-\d+$|^--adjustment(=-?\d+)?$/, takesValue: new Set(['-n', '--adjustment']) },
  ionice: { option: /^-[ct]$|^-[cnp]\d+$|^-[np]$/, takesValue: new Set(['-c', '-n', '-p']) },
  setsid: { option: /^-[cfw]+$|^--(ctty|fork|wait)$/ },
  env: { option: /^-[i0v]+$|^-u$|^-u.+$|^--(ignore-environment|null|unset=.+)$|^-$/, takesValue: new Set(['-u']), operand: /^[A-Za-z_][A-Za-z0-9_]*=/ },
  timeout: { option: /^-[kvs]$|^-[ks].+$|^--(preserve-status|foreground|verbose|kill-after=.+|signal=.+)$|^--(kill-after|signal)$/, takesValue: new Set(['-k', '-s', '--kill-after', '--signal']), operand: /^[\d.]+([eE][+-]?\d+)?[smhd]?$/ },
  xargs: { option: /^-[0prtx]+$|^-[IiLlnPsEed]$|^-[IiLlnPsEed].+$|^--(null|no-run-if-empty|verbose|interactive|exit)$|^--\w[\w-]*=.+$/, takesValue: new Set(['-I', '-L', '-n', '-P', '-s', '-E', '-d', '-a']) },
  stdbuf: { option: /^-[ioe]$|^-[ioe].+$|^--(input|output|error)=.+$/, takesValue: new Set(['-i', '-o', '-e']) },
};

export const WRAPPER_NAMES: ReadonlySet<string> = new Set(Object.keys(WRAPPERS));

/** Programs that run the command in their words in a way `unwrap` does not take apart: what they run is never seen. */
export const RUNNERS: ReadonlySet<string> = new Set([
  'su', 'runuser', 'watch', 'parallel', 'strace', 'ltrace', 'chroot', 'script', 'flock', 'unbuffer', 'coproc', 'taskset', 'chrt', 'setpriv', 'prlimit', 'unshare', 'nsenter',
  'fakeroot', 'busybox', 'systemd-run', 'firejail', 'bwrap', 'proot', 'catchsegv', 'valgrind', 'gdb', 'perf', 'expect', 'dbus-launch', 'xvfb-run', 'pkexec', 'sg', 'newgrp',
]);

/**
 * `argv` without its wrappers, the command by its base name (`/bin/rm` is `rm`); or
 * undefined when a wrapper has a word it does not understand (`env -S '…'`).
 */
export function unwrap(argv: readonly string[]): string[] | undefined {
  let rest = [...argv];
  for (let guard = 0; guard < 10 && rest.length > 0; guard++) {
    const base = path.basename(rest[0]!);
    const wrapper = WRAPPERS[base];
    if (!wrapper) return [base, ...rest.slice(1)];
    let i = 1;
    let operands = 0;
    for (; i < rest.length; i++) {
      const word = rest[i]!;
      if (word === '--') {
        i++;
        break;
      }
      if (wrapper.option.test(word)) {
        if (wrapper.takesValue?.has(word)) i++;
      } else if (wrapper.operand?.test(word) && (base === 'env' || operands++ === 0)) {
        continue;
      } else if (word.startsWith('-')) {
        return undefined; // an option this wrapper has, but Peon does not know
      } else break;
    }
    rest = rest.slice(i);
  }
  return rest.length > 0 ? [path.basename(rest[0]!), ...rest.slice(1)] : [];
}
