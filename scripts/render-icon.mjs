#!/usr/bin/env node
// `node scripts/render-icon.mjs`: media/icon.png, the 128×128 icon of the Marketplace and
// Open VSX listing and of the Extensions view, drawn from the activity-bar glyph
// media/peon.svg (one drawing for both) in Debian's Chromium, offline. The glyph is
// monochrome (`currentColor`, themed by VS Code); the listing icon sits on any background,
// so it gets its own tile. Run it after changing peon.svg and commit the PNG.
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../test/vscode/browser.mjs';
import { repoRoot } from './paths.mjs';

const SIZE = 128;
const TILE = '#9a4a14';
const GLYPH = '#fff7ed';

const svg = fs.readFileSync(path.join(repoRoot, 'media', 'peon.svg'), 'utf8').replace(/width="24" height="24"/, 'width="100%" height="100%"').replaceAll('currentColor', GLYPH);
const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:${SIZE}px;height:${SIZE}px;box-sizing:border-box;padding:${SIZE * 0.14}px;border-radius:${SIZE * 0.2}px;background:${TILE}">${svg}</div>
</body></html>`;

const out = path.join(repoRoot, 'media', 'icon.png');
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await page.setContent(html);
  await page.screenshot({ path: out, omitBackground: true });
} finally {
  await browser.close();
}
console.log(`${path.relative(repoRoot, out)}: ${SIZE}×${SIZE}, ${(fs.statSync(out).size / 1024).toFixed(1)} KiB`);
