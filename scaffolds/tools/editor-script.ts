import { readShipped } from '../../core/shipped.js';

/**
 * The text editor runs inside the sandbox as the agent's user, so file permissions apply to it exactly as to bash.
 * It reads one JSON request on stdin and prints one JSON reply: {"ok": true, "output": ...} or {"ok": false, "error": ...}.
 */
export const EDITOR_PY = readShipped(import.meta.url, 'editor.py');
