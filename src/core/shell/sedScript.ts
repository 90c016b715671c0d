// Reading a sed script the way sed does, command by command, to see whether it can write
// a file or run a command (permissions/destructive.ts asks for those under every rule).

/**
 * Whether a sed script can write a file or run a command: a `w`, `W` or `e` command, or
 * an `s` command with the `w` or `e` flag. Read the way sed reads it, command by
 * command; anything the reading does not understand counts as yes.
 */
export function sedScriptWrites(script: string): boolean {
  let i = 0;
  const skipBlanks = (): void => {
    while (i < script.length && /[\s;]/.test(script[i]!)) i++;
  };
  const delimited = (delimiter: string): boolean => {
    for (; i < script.length; i++) {
      if (script[i] === '\\') i++;
      else if (script[i] === delimiter) {
        i++;
        return true;
      } else if (script[i] === '\n') return false;
    }
    return false;
  };
  while (true) {
    skipBlanks();
    if (i >= script.length) return false;
    // Addresses: numbers, $, /re/, \cREc, steps and ranges, negation.
    while (i < script.length) {
      const c = script[i]!;
      if (/[\d$,~!+ ]/.test(c)) i++;
      else if (c === '/') {
        i++;
        if (!delimited('/')) return true;
        while (/[IM]/.test(script[i] ?? '')) i++;
      } else if (c === '\\') {
        const d = script[i + 1];
        i += 2;
        if (d === undefined || !delimited(d)) return true;
      } else break;
    }
    const command = script[i++];
    if (command === undefined) return false;
    if ('wWe'.includes(command)) return true;
    if (command === 's' || command === 'y') {
      const d = script[i++];
      if (d === undefined || d === '\\' || d === '\n') return true;
      if (!delimited(d) || !delimited(d)) return true;
      const flags = /^[^;\n}]*/.exec(script.slice(i))![0];
      if (command === 's' && /[we]/.test(flags)) return true;
      i += flags.length;
    } else if ('aic'.includes(command)) {
      while (i < script.length && script[i] !== '\n') i += script[i] === '\\' ? 2 : 1;
    } else if (':btTrRvlqQ'.includes(command)) {
      while (i < script.length && !/[;\n]/.test(script[i]!)) i++;
    } else if (!'{}=dDgGhHnNpPxzF#'.includes(command)) return true;
    if (command === '#') while (i < script.length && script[i] !== '\n') i++;
  }
}

