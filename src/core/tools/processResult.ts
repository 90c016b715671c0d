// How a finished command reads for the model, shared by bash and the delegated agents:
// its output (escapes stripped, the middle cut when long), then one line per fact.
import type { RunResult } from '../process/runProcess';
import { stripTerminalEscapes } from '../process/terminalText';
import type { ToolResult } from './contract';

export function processResult(result: RunResult, timeoutSeconds: number, notes: readonly string[] = []): ToolResult {
  const lines = [...notes];
  if (result.output.truncated) lines.push(`[output cut: ${result.output.omittedBytes} of ${result.output.totalBytes} bytes left out in the middle]`);
  if (result.timedOut) lines.push(`[timed out after ${timeoutSeconds} s: the command and everything it started were killed]`);
  else if (result.cancelled) lines.push('[cancelled: the command and everything it started were stopped]');
  else if (result.signal) lines.push(`[killed by ${result.signal}]`);
  else lines.push(`[exit code ${result.exitCode}]`);
  const text = stripTerminalEscapes(result.output.text).trimEnd();
  return {
    output: [text, ...lines].filter((s) => s !== '').join('\n'),
    data: {
      exitCode: result.exitCode,
      signal: result.signal,
      durationMs: result.durationMs,
      timedOut: result.timedOut,
      cancelled: result.cancelled,
      timeoutSeconds,
      truncated: result.output.truncated,
      totalBytes: result.output.totalBytes,
      omittedBytes: result.output.omittedBytes,
    },
  };
}

/** A requested timeout, lowered to the configured maximum; the note says so. */
export function effectiveTimeout(requested: number, max: number): { seconds: number; notes: string[] } {
  return requested > max
    ? { seconds: max, notes: [`[timeout lowered from ${requested} s to the maximum of ${max} s]`] }
    : { seconds: requested, notes: [] };
}
