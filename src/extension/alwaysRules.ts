// "Always allow" (DESIGN.md §5): a pattern rule written to the person's user settings
// (peon.permission.rules, never the workspace's), confirmed in a notification with Undo,
// and remembered as added from a card so the panel lists it apart from the chat's grants
// and can remove it again. A rule the person wrote by hand is theirs: never listed here,
// never removed from here.
import * as vscode from 'vscode';
import type { AlwaysRule } from '../shared/messages';

const SETTING = 'permission.rules';
/** The rules added from cards (global state): listed while they stay in user settings as `allow`. */
const FROM_CARDS = 'peon.rulesFromCards';

/** The user-scope value of peon.permission.rules (an object of tools), or an empty one. */
export function userRules(): Record<string, unknown> {
  const value = vscode.workspace.getConfiguration('peon').inspect<Record<string, unknown>>(SETTING)?.globalValue;
  return value && typeof value === 'object' ? value : {};
}

const patternsOf = (rules: Record<string, unknown>, tool: string): Record<string, unknown> => {
  const value = rules[tool];
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
};

const same = (a: AlwaysRule, b: AlwaysRule): boolean => a.tool === b.tool && a.pattern === b.pattern;

export class AlwaysRules {
  constructor(private readonly memento: vscode.Memento | undefined) {}

  /** The rules added from cards that are still in user settings as `allow`. */
  list(): AlwaysRule[] {
    const rules = userRules();
    return this.remembered().filter((r) => patternsOf(rules, r.tool)[r.pattern] === 'allow');
  }

  /** Adds `{pattern: "allow"}` for `tool` to the user's rules; a tool with a mode of its own (`"bash": "ask"`) is left as it is. */
  async add(tool: string, patterns: readonly string[]): Promise<boolean> {
    const rules = userRules();
    if (typeof rules[tool] === 'string') return false;
    const merged = { ...patternsOf(rules, tool), ...Object.fromEntries(patterns.map((p) => [p, 'allow'])) };
    await vscode.workspace.getConfiguration('peon').update(SETTING, { ...rules, [tool]: merged }, vscode.ConfigurationTarget.Global);
    const added = patterns.map((pattern) => ({ tool, pattern }));
    await this.memento?.update(FROM_CARDS, [...this.remembered().filter((r) => !added.some((a) => same(a, r))), ...added]);
    return true;
  }

  /** Removes a rule added from a card (only such a rule, and only while it still allows). */
  async remove(tool: string, pattern: string): Promise<boolean> {
    const rule = { tool, pattern };
    if (!this.list().some((r) => same(r, rule))) return false;
    const rules = userRules();
    const { [pattern]: _removed, ...rest } = patternsOf(rules, tool);
    const { [tool]: _tool, ...others } = rules;
    const next = Object.keys(rest).length > 0 ? { ...others, [tool]: rest } : others;
    await vscode.workspace.getConfiguration('peon').update(SETTING, Object.keys(next).length > 0 ? next : undefined, vscode.ConfigurationTarget.Global);
    await this.memento?.update(FROM_CARDS, this.remembered().filter((r) => !same(r, rule)));
    return true;
  }

  /** Says what was written and where, with Open Settings and Undo. */
  async confirm(tool: string, patterns: readonly string[]): Promise<void> {
    const what = patterns.map((p) => `"${p}"`).join(', ');
    const choice = await vscode.window.showInformationMessage(`Peon will always allow ${what} (${tool}) without asking. Saved in your user settings (peon.permission.rules).`, 'Open Settings', 'Undo');
    if (choice === 'Open Settings') await openRules();
    else if (choice === 'Undo') for (const pattern of patterns) await this.remove(tool, pattern);
  }

  private remembered(): AlwaysRule[] {
    const value = this.memento?.get<unknown>(FROM_CARDS);
    return Array.isArray(value) ? value.filter((r): r is AlwaysRule => typeof r?.tool === 'string' && typeof r?.pattern === 'string') : [];
  }
}

/** The user settings (JSON), at peon.permission.rules. */
export function openRules(): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: `peon.${SETTING}` } });
}
