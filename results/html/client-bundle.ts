import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The bundle's file, committed beside client.ts that reads it; `npm run build:client` writes it. */
export const CLIENT_BUNDLE = 'client-script.generated.js';

const BANNER = `// Generated from results/html/client/*.ts by \`npm run build:client\`: edit those, not this file.`;

/**
 * The report page's script: the typed modules of client/ bundled into one script with no imports, for the page's single
 * inline script element. ES2017 and an IIFE, so it runs in any browser of the last years, from a file, with nothing to load.
 */
export async function bundleClient(): Promise<string> {
  const result = await build({
    entryPoints: [join(HERE, 'client', 'main.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2017',
    platform: 'browser',
    charset: 'utf8',
    legalComments: 'none',
    banner: { js: BANNER },
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

// `npm run build:client` runs this file from the sources (with tsx) to write the bundle beside it.
if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(join(HERE, CLIENT_BUNDLE), await bundleClient());
