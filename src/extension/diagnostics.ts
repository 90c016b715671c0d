// The editor's problems for a file, as `read` appends them (DESIGN.md §4): one line
// each, "line:column severity: message (source)", most severe first.
import * as vscode from 'vscode';

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

export function diagnosticsFor(canonical: string): string[] {
  return vscode.languages
    .getDiagnostics(vscode.Uri.file(canonical))
    .slice()
    .sort((a, b) => a.severity - b.severity || a.range.start.line - b.range.start.line)
    .map((d) => {
      const source = d.source ? ` (${d.source}${d.code !== undefined && typeof d.code !== 'object' ? ` ${d.code}` : ''})` : '';
      return `${d.range.start.line + 1}:${d.range.start.character + 1} ${SEVERITY[d.severity]}: ${d.message.replace(/\s+/g, ' ').trim()}${source}`;
    });
}
