/**
 * A signal that follows `parent` for one call. Some callees add an abort listener per call and never remove it;
 * on a signal that lives as long as a sample (or a whole run) those would pile up. On a per-call follower they go
 * away with the call, while the parent only holds it weakly.
 */
export function perCall(parent: AbortSignal): AbortSignal {
  return AbortSignal.any([parent]);
}
