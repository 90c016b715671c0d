import type { Plugin } from 'vite';

/** Imports `.md` files as their text, as esbuild's `text` loader does in the bundles. */
export function mdText(): Plugin {
  return {
    name: 'peon-md-text',
    transform(code, id) {
      return id.endsWith('.md') ? { code: `export default ${JSON.stringify(code)};`, map: null } : null;
    },
  };
}
