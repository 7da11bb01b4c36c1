import { readShipped } from '../../core/shipped.js';

/**
 * A shell function, `apply_patch FILE`, run in the repository: `git apply` as it is, then with
 * recounted hunks and whitespace ignored; each failed try's message goes to stderr, labelled with
 * its flags, and it returns 1 when neither applies. Its helpers carry its name, since a shell
 * function defined inside another is global and must not replace a caller's.
 */
export const APPLY_PATCH_FN = readShipped(import.meta.url, 'apply-patch.sh');

/** A patch as `git apply` wants it: ending in a newline. */
export function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
