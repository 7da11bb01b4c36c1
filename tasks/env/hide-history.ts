import { HARNESS_DIR } from '../../core/sandbox.js';
import { readShipped } from '../../core/shipped.js';

/**
 * Shell functions, `hide_history BASE` and `store_history BASE`: an image's repository reset to its base commit with
 * no later commit readable, and its objects moved into the history store that a history image shares. Sourced into
 * scripts that define `g` (git), `step` and `ib_history` (the store).
 */
export const HIDE_HISTORY_FN = readShipped(import.meta.url, 'hide-history.sh');

/** Where a history image (history-image.ts) keeps the repository's objects, root's and read-only. */
export const HISTORY_STORE = `${HARNESS_DIR}/history`;
