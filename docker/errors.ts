/**
 * A failure of the sandbox machinery itself (the engine, a container that died, a broken image),
 * as opposed to anything the code inside it did. Callers score it as an infrastructure error,
 * never as a model failure.
 */
export class SandboxError extends Error {
  /** Trying again cannot help (the image is not there): see isPermanentError. */
  readonly permanent: boolean;
  /** No sandbox can start anywhere now (every engine of a pool is gone): see stopsRun. */
  readonly stopsRun: boolean;
  /** The engine (of a pool) that went away under this sandbox, when that is the failure. */
  readonly lostEngine: string | undefined;

  constructor(message: string, options?: { cause?: unknown; permanent?: boolean; stopsRun?: boolean; lostEngine?: string }) {
    super(message, options);
    this.name = 'SandboxError';
    this.permanent = options?.permanent ?? false;
    this.stopsRun = options?.stopsRun ?? false;
    this.lostEngine = options?.lostEngine;
  }
}

/**
 * Whether an error says no sample can run anywhere any more: the run stops at once and the sample stays unfinished
 * (not an error that uses up its tries), so a resume runs it once engines answer again.
 */
/** The engine whose loss this error reports, if it reports one. */
export function lostEngine(err: unknown): string | undefined {
  const engine = (err as { lostEngine?: unknown } | null)?.lostEngine;
  return typeof engine === 'string' ? engine : undefined;
}

export function stopsRun(err: unknown): boolean {
  return (err as { stopsRun?: unknown } | null)?.stopsRun === true;
}

/**
 * Whether an error says that the same step is certain to fail again (no such image, a test patch that does not
 * apply, a base commit the image lacks): such a sample is recorded once, never tried again in the same run.
 */
export function isPermanentError(err: unknown): boolean {
  return (err as { permanent?: unknown } | null)?.permanent === true;
}

/** The HTTP status dockerode attaches to engine errors, if any. */
export function engineStatus(err: unknown): number | undefined {
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/** The engine's own message ("No such image: …") rather than dockerode's wrapper text. */
export function engineMessage(err: unknown): string {
  const json = (err as { json?: { message?: unknown } } | null)?.json;
  if (json && typeof json.message === 'string') return json.message;
  const reason = (err as { reason?: unknown } | null)?.reason;
  if (err instanceof Error) return err.message;
  return typeof reason === 'string' ? reason : String(err);
}
