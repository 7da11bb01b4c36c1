import { readShipped } from '../../core/shipped.js';

/**
 * The report page's script, inlined into the page. It renders everything from the embedded JSON
 * with DOM calls and `textContent` only, so no transcript or diff text is ever parsed as HTML.
 * Typed modules in client/, bundled by `npm run build:client` into one committed ES2017 script: the page
 * must work when opened from a file, with nothing to load, and the package needs no bundler to run.
 */
export const CLIENT_SCRIPT = readShipped(import.meta.url, 'client-script.generated.js');
