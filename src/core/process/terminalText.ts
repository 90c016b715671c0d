// Text from a child process, made safe to show: terminal escape sequences (colours,
// cursor moves, OSC titles and hyperlinks) and other control characters removed.

/* eslint-disable no-control-regex -- matching control characters is the point */
// CSI … final byte; OSC … BEL or ST; other two-byte ESC sequences; C1 CSI.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[PX^_][^\u001b]*\u001b\\|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
// C0 controls except tab, newline and carriage return; DEL; the rest of C1.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0080-\u009f]/g;
/* eslint-enable no-control-regex */

export function stripTerminalEscapes(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, '');
}
