import { createHash } from 'node:crypto';
import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, test } from 'vitest';

// What publishing needs, checked like code so it cannot go missing or drift: the licence, the
// changelog, the listing icon, the manifest fields the VS Code Marketplace (vsce) and Open VSX
// (ovsx) read, and the README's screenshot. The VSIX itself is checked by test/e2e/vsix.e2e.test.ts.
const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const vscodeignore = fs.readFileSync('.vscodeignore', 'utf8').split('\n');
const readme = fs.readFileSync('README.md', 'utf8');

/** SHA-256 of the Apache License 2.0 as the ASF publishes it (https://www.apache.org/licenses/LICENSE-2.0.txt; Debian's /usr/share/common-licenses/Apache-2.0). */
const APACHE_2_0_SHA256 = 'cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30';

/** Width, height and colour type of a PNG, from its IHDR chunk. */
function pngHeader(file: string): { width: number; height: number; colourType: number } {
  const png = fs.readFileSync(file);
  expect(png.subarray(0, 8).toString('hex'), `${file} is a PNG`).toBe('89504e470d0a1a0a');
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), colourType: png[25]! };
}

describe('licence', () => {
  test('LICENSE is the Apache License 2.0, word for word, and the manifest says so', () => {
    expect(createHash('sha256').update(fs.readFileSync('LICENSE')).digest('hex')).toBe(APACHE_2_0_SHA256);
    expect(manifest.license).toBe('Apache-2.0');
    // vsce packs it (as extension/LICENSE.txt) only if .vscodeignore lets it through.
    expect(vscodeignore).toContain('!LICENSE');
  });
});

describe('changelog', () => {
  test("CHANGELOG.md opens with this version's entry, and ships", () => {
    const changelog = fs.readFileSync('CHANGELOG.md', 'utf8');
    const versions = [...changelog.matchAll(/^## (\S+)/gm)].map((m) => m[1]);
    expect(versions[0]).toBe(manifest.version);
    for (const v of versions) expect(semver.valid(v), v).not.toBeNull();
    expect(changelog.split(`## ${manifest.version}`)[1]!.match(/^- /gm)?.length ?? 0).toBeGreaterThan(3);
    expect(vscodeignore).toContain('!CHANGELOG.md');
  });
});

describe('listing icon', () => {
  // VS Code's extension manifest reference: `icon` is a PNG "of at least 128x128 pixels";
  // vsce refuses an SVG icon.
  test('media/icon.png is a 128×128 PNG with transparency, named in the manifest, and ships', () => {
    expect(manifest.icon).toBe('media/icon.png');
    expect(pngHeader('media/icon.png')).toEqual({ width: 128, height: 128, colourType: 6 });
    expect(vscodeignore).toContain('!media/icon.png');
    // It is drawn from the activity-bar glyph by this script.
    expect(fs.readFileSync('scripts/render-icon.mjs', 'utf8')).toContain("'peon.svg'");
  });
});

describe('manifest for the VS Code Marketplace and Open VSX', () => {
  // Open VSX validates a published VSIX's manifest on the server: eclipse/openvsx
  // server/src/main/java/org/eclipse/openvsx/ExtensionValidator.java (validateExtensionName,
  // validateMetadata) and ExtensionService.checkLicense ("This extension cannot be accepted
  // because it has no license": a `license` field or a LICENSE file; the Open VSX wiki's
  // "Publishing Extensions" page says a licence is mandatory). `ovsx` itself checks only the
  // licence, `publisher` and `name` before uploading (cli/src/check-license.ts), and has no
  // offline check of a packaged VSIX, so the rules are restated here.
  const NAME = /^[\w\-+$~]+$/;
  /** Java's Character types Open VSX rejects: CONTROL, FORMAT, UNASSIGNED, PRIVATE_USE, LINE_SEPARATOR, PARAGRAPH_SEPARATOR. */
  const INVALID_CHARACTER = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Zl}\p{Zp}]/u;
  const text = (value: unknown, limit: number, field: string) => {
    expect(typeof value, field).toBe('string');
    expect((value as string).length, field).toBeLessThanOrEqual(limit);
    expect(INVALID_CHARACTER.test(value as string), `${field} holds a character Open VSX refuses`).toBe(false);
  };
  const absoluteUrl = (value: string, field: string) => {
    const url = new URL(value.replace(/^git\+/, ''));
    expect(url.host, field).not.toBe('');
    expect(value.length, field).toBeLessThanOrEqual(255);
  };

  test('publisher (the Open VSX namespace), name and version are what both registries accept', () => {
    for (const field of ['publisher', 'name'] as const) {
      expect(manifest[field], field).toMatch(NAME);
      expect(manifest[field].length).toBeLessThanOrEqual(255);
    }
    expect(semver.valid(manifest.version)).toBe(manifest.version);
    expect(['latest', 'pre-release', 'reviews']).not.toContain(manifest.version);
    expect(manifest.engines.vscode).toMatch(/^\^\d+\.\d+\.\d+$/);
  });

  test('displayName, description, categories, keywords and licence are within Open VSX limits', () => {
    text(manifest.displayName, 255, 'displayName');
    text(manifest.description, 2048, 'description');
    text(manifest.license, 255, 'license');
    for (const category of manifest.categories) text(category, 255, 'categories');
    // The Marketplace takes at most 30 keywords (VS Code's extension manifest reference).
    expect(manifest.keywords.length).toBeGreaterThan(0);
    expect(manifest.keywords.length).toBeLessThanOrEqual(30);
    for (const keyword of manifest.keywords) text(keyword, 255, 'keywords');
    expect(new Set(manifest.keywords.map((k: string) => k.toLowerCase())).size).toBe(manifest.keywords.length);
  });

  test('links, when present, are absolute URLs (Open VSX refuses anything else); no repository means none is claimed', () => {
    for (const field of ['homepage', 'repository', 'bugs', 'qna'] as const) {
      const value = manifest[field];
      if (value === undefined || (field === 'qna' && ['marketplace', false, 'false'].includes(value))) continue;
      absoluteUrl(typeof value === 'string' ? value : value.url, field);
    }
    if (manifest.markdown !== undefined) expect(['github', 'standard']).toContain(manifest.markdown);
    // Without a repository the packaging script must say so to vsce, and only then.
    const script = fs.readFileSync('scripts/package-vsix.mjs', 'utf8');
    expect(script).toMatch(/if \(!manifest\.repository\) \{[^}]*'--allow-missing-repository'/);
    expect(script).not.toContain('--skip-license');
  });

  test('`private` stays: vsce and Open VSX ignore it; it only keeps npm from publishing the repository', () => {
    expect(manifest.private).toBe(true);
    const vsce = fs.readdirSync('node_modules/@vscode/vsce/out').filter((f) => f.endsWith('.js'));
    for (const file of vsce) expect(fs.readFileSync(`node_modules/@vscode/vsce/out/${file}`, 'utf8'), file).not.toMatch(/manifest\.private|\.private\b/);
  });
});

describe('README', () => {
  test('opens with a screenshot of the panel mid-turn, small, kept out of the VSIX', () => {
    const opening = readme.split('\n').slice(0, 4).join('\n');
    const image = opening.match(/^!\[([^\]]+)\]\((media\/[\w-]+\.png)\)$/m);
    expect(image, 'the README opens with its screenshot').not.toBeNull();
    const [, alt, file] = image!;
    expect(alt).toMatch(/tool card/);
    expect(alt).toMatch(/approval card/);
    const { width } = pngHeader(file!);
    expect(width).toBeGreaterThanOrEqual(250);
    expect(fs.statSync(file!).size).toBeLessThan(150 * 1024);
    // VS Code's extension page loads README images only from https: or data: URLs: in the VSIX it would be dead weight.
    expect(vscodeignore.filter((line) => line.startsWith('!')).some((line) => file!.startsWith(line.slice(1).replace(/\*.*$/, '')))).toBe(false);
  });
});
