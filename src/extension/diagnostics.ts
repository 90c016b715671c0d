// The editor's problems for a file, as `read` appends them (DESIGN.md §4): one line
// each, "line:column severity: message (source)", most severe first; and with the lines
// each points at, for a problems chip (contextBlock.ts).
import * as vscode from 'vscode';

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

export function diagnosticsFor(canonical: string): string[] {
  return problemsFor(canonical).map((p) => p.text);
}

/** The file's problems, most severe first: their lines (1-based) and their one-line text. */
export function problemsFor(canonical: string): { startLine: number; endLine: number; text: string }[] {
  return vscode.languages
    .getDiagnostics(vscode.Uri.file(canonical))
    .slice()
    .sort((a, b) => a.severity - b.severity || a.range.start.line - b.range.start.line)
    .map((d) => {
      const source = d.source ? ` (${d.source}${d.code !== undefined && typeof d.code !== 'object' ? ` ${d.code}` : ''})` : '';
      const text = `${d.range.start.line + 1}:${d.range.start.character + 1} ${SEVERITY[d.severity]}: ${d.message.replace(/\s+/g, ' ').trim()}${source}`;
      // A range ending at the start of a line does not point at that line.
      const end = d.range.end.character === 0 && d.range.end.line > d.range.start.line ? d.range.end.line : d.range.end.line + 1;
      return { startLine: d.range.start.line + 1, endLine: end, text };
    });
}
