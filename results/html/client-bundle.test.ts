import { describe, expect, it } from 'vitest';
import { bundleClient, CLIENT_BUNDLE } from './client-bundle.js';
import { CLIENT_SCRIPT } from './client.js';

describe('the report page script', () => {
  it('is the bundle of the typed modules of client/ as they stand, with no import left', async () => {
    const fresh = await bundleClient();
    expect(CLIENT_SCRIPT === fresh, `results/html/${CLIENT_BUNDLE} is stale: run \`npm run build:client\` and commit it`).toBe(true);
    expect(fresh).not.toMatch(/^\s*(import|export)\b|\brequire\(/m);
  });

  it('cannot end its inline script element early', () => {
    expect(CLIENT_SCRIPT).not.toMatch(/<\/script|<!--/i);
  });
});
