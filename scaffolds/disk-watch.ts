/** How often a running sample's disk use is read: each read is one engine call, so every few seconds. */
export const DISK_CHECK_MS = 5_000;

/**
 * Watches what a sandbox adds to the host's disk beyond what it held when the watch started (after setup): past the
 * limit it calls `over` once, whatever is running. Our loops and the agent programs both stop their sample there
 * (stop reason disk_limit). Grading copies no file over 8 MiB the agent wrote, so a burst between two reads cannot be
 * doubled by it.
 */
export class DiskWatch {
  private timer: NodeJS.Timeout | undefined;
  private allowed: number | undefined;
  private passed = false;
  private disposed = false;

  constructor(
    private readonly usage: () => Promise<number>,
    private readonly limitBytes: number,
    private readonly over: () => void,
  ) {}

  /** Reads the baseline, then checks every `everyMs` until disposed. */
  async start(everyMs = DISK_CHECK_MS): Promise<void> {
    const allowed = (await this.usage()) + this.limitBytes;
    if (this.disposed) return;
    this.allowed = allowed;
    this.timer = setInterval(() => {
      this.check().catch(() => undefined);
    }, everyMs);
    this.timer.unref();
  }

  /** Reads the disk use now (once the baseline is known); true once the limit has been passed. */
  async check(): Promise<boolean> {
    if (this.passed || this.allowed === undefined || this.disposed) return this.passed;
    if ((await this.usage()) > this.allowed && !this.passed) {
      this.passed = true;
      this.over();
    }
    return this.passed;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
  }
}
