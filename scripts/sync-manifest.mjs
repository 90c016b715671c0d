#!/usr/bin/env node
// Writes the `peon.*` settings declared in src/core/settings.ts into package.json's
// contributes.configuration, so the table there is the one source of truth
// (test/unit/settings.test.ts fails when package.json is out of date).
import fs from 'node:fs';
import path from 'node:path';
import { loadTs } from './loadTs.mjs';
import { repoRoot } from './paths.mjs';

const manifestPath = path.join(repoRoot, 'package.json');
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
const { settingsManifest } = await loadTs('src/core/settings.ts');
const properties = settingsManifest();

if (JSON.stringify(manifest.contributes.configuration.properties) === JSON.stringify(properties)) {
  console.log('package.json settings are up to date.');
} else {
  manifest.contributes.configuration.properties = properties;
  fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n');
  console.log(`Wrote ${Object.keys(properties).length} settings to package.json.`);
}
