/**
 * Numbered steps with elapsed times on stderr. On a terminal the running step's line shows a live
 * detail (e.g. the package being installed); elsewhere (CI logs) only start and end lines, plus a
 * heartbeat for long steps so a log never looks stuck.
 */
export class Steps {
  private index = 0;
  private readonly started = Date.now();
  private readonly tty: boolean;

  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly quiet = false,
  ) {
    this.tty = Boolean(out.isTTY) && !quiet;
  }

  /** Prints a line that is not a step. */
  note(message: string): void {
    if (!this.quiet) this.out.write(`${message}\n`);
  }

  async run<T>(title: string, work: (detail: (text: string) => void) => Promise<T>): Promise<T> {
    this.index++;
    const label = `[${this.index}] ${title}`;
    const stepStart = Date.now();
    let detail = '';
    let lastBeat = stepStart;
    const render = () => {
      if (!this.tty) return;
      const line = `${label} (${seconds(Date.now() - stepStart)})${detail ? `: ${detail}` : ''}`;
      this.out.write(`\r\x1b[2K${line.slice(0, (this.out.columns || 100) - 1)}`);
    };
    if (!this.tty && !this.quiet) this.out.write(`${label}…\n`);
    render();
    const ticker = setInterval(() => {
      render();
      if (!this.tty && !this.quiet && Date.now() - lastBeat >= 15_000) {
        lastBeat = Date.now();
        this.out.write(`    … ${seconds(Date.now() - stepStart)}${detail ? `: ${detail}` : ''}\n`);
      }
    }, 1_000);
    ticker.unref();
    try {
      const result = await work((text) => {
        detail = text.trim();
        render();
      });
      clearInterval(ticker);
      if (this.tty) this.out.write(`\r\x1b[2K${label}: done in ${seconds(Date.now() - stepStart)}\n`);
      else if (!this.quiet) this.out.write(`    done in ${seconds(Date.now() - stepStart)}\n`);
      return result;
    } catch (err) {
      clearInterval(ticker);
      if (this.tty) this.out.write(`\r\x1b[2K${label}: failed after ${seconds(Date.now() - stepStart)}\n`);
      else if (!this.quiet) this.out.write(`    failed after ${seconds(Date.now() - stepStart)}\n`);
      throw err;
    }
  }

  elapsed(): string {
    return seconds(Date.now() - this.started);
  }
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
