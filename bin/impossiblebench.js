#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/runner/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  console.error('impossiblebench: not built yet; run `npm run build` (or `npm ci`) in the package folder first');
  process.exit(2);
}
await import(cli.href);
