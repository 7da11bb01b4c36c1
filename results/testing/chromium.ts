import { existsSync } from 'node:fs';

/** Debian's Chromium, which CI installs; tests drive it through playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless, and quiet on a machine whose only network is loopback: no background connections that would be refused. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether a browser test can run: CI installs Chromium, so there it always runs (and fails if Chromium is missing);
 * elsewhere a missing Chromium is said once and the test is skipped.
 */
export function chromiumAvailable(what: string): boolean {
  const available = existsSync(CHROMIUM) || Boolean(process.env.CI);
  if (!available) console.warn(`skipping ${what}: ${CHROMIUM} is missing (apt-get install -y chromium)`);
  return available;
}
