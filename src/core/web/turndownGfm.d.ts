// Types for @joplin/turndown-plugin-gfm (it ships none): the GFM plugin webfetch's
// HTML → Markdown uses for tables, strikethrough and task lists.
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  export const gfm: TurndownService.Plugin;
  export const tables: TurndownService.Plugin;
  export const strikethrough: TurndownService.Plugin;
  export const taskListItems: TurndownService.Plugin;
}
