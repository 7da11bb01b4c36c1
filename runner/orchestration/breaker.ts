/** The fewest errors in a row that stop a run (more with more samples in flight). */
const BREAKER_MIN = 8;

/**
 * A dead engine or API would otherwise turn every remaining sample into an error (and use up its tries): after enough
 * errors in a row, or once no sandbox can start anywhere, no new sample starts and the run stops, resumable.
 */
export class RunBreaker {
  private readonly controller = new AbortController();
  private readonly limit: number;
  errorsInRow = 0;
  lastError = '';
  /** Set when no sample can run anywhere any more (every engine gone). */
  stoppedBy: string | undefined;

  constructor(concurrency: number) {
    this.limit = Math.max(BREAKER_MIN, 2 * concurrency);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get tripped(): boolean {
    return this.controller.signal.aborted;
  }

  /** No sandbox can start anywhere: stops the run; returns the note to show the first time. */
  noSandboxes(reason: string): string | undefined {
    if (this.tripped) return undefined;
    this.stoppedBy = reason;
    this.controller.abort();
    return `stopping: ${reason}`;
  }

  /**
   * Counts one stored try: an error outside the model adds to the row, another outcome ends it; a certain failure of
   * one task says nothing of the engine or the API. Returns the note to show when this trips the breaker.
   */
  count(outcome: string, error: string | undefined, permanent: boolean): string | undefined {
    if (outcome !== 'error') {
      this.errorsInRow = 0;
      return undefined;
    }
    if (permanent) return undefined;
    this.lastError = error ?? 'unknown error';
    if (++this.errorsInRow < this.limit || this.tripped) return undefined;
    this.controller.abort();
    return `stopping: ${this.errorsInRow} samples in a row failed outside the model (last: ${this.lastError})`;
  }
}
