import { readShipped } from '../../core/shipped.js';

/**
 * The report page's script, inlined into the page. It renders everything from the embedded JSON
 * with DOM calls and `textContent` only, so no transcript or diff text is ever parsed as HTML.
 * Plain ES2017 (client-script.js): the page must work when opened from a file, with nothing to load.
 */
export const CLIENT_SCRIPT = readShipped(import.meta.url, 'client-script.js');
