import { readShipped } from '../core/shipped.js';

/**
 * Shell functions that end everything one user left in a sandbox (`ib_stop_user NAME`, `ib_ipc_clean UID`,
 * `ib_clean_user NAME`), for the moments before and after grading; see user-cleanup.sh. Scripts that need them start
 * with this text.
 */
export const CLEAN_USER_FN = readShipped(import.meta.url, 'user-cleanup.sh');
