import { readShipped } from '../../core/shipped.js';

/**
 * Shell functions, `share_objects REPO` and `copy_repo FROM TO [git]`: copies of a repository that share its git object
 * files, made root's and read-only, instead of copying its whole history again. Sourced into scripts.
 */
export const COPY_REPO_FN = readShipped(import.meta.url, 'copy-repo.sh');
