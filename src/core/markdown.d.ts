// Tool descriptions are Markdown files next to the tool, bundled as text (esbuild's
// `text` loader; vitest's mdText plugin).
declare module '*.md' {
  const text: string;
  export default text;
}
