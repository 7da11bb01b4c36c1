/**
 * A failure of the sandbox machinery itself (the engine, a container that died, a broken image),
 * as opposed to anything the code inside it did. Callers score it as an infrastructure error,
 * never as a model failure.
 */
export class SandboxError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SandboxError';
  }
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
