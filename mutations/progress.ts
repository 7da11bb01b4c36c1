/**
 * A one-line progress display on stderr: rewritten in place on a terminal, every tenth otherwise. A tick may name a
 * new total when the work grows as it goes (a rejected variant's next candidate joins the validation).
 */
export function progressLine(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
): { tick(done: number, note?: string, newTotal?: number): void; end(): void } {
  const tty = stream.isTTY === true;
  const started = Date.now();
  let lastStep = -1;
  let shown = false;
  return {
    tick(done, note, newTotal) {
      if (newTotal !== undefined) total = newTotal;
      if (total === 0) return;
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      const line = `${label}: ${done}/${total} (${Math.floor((100 * done) / total)}%, ${secs}s)${note ? ` ${note}` : ''}`;
      if (tty) {
        stream.write(`\r\x1b[2K${line.slice(0, (stream.columns ?? 120) - 1)}`);
        shown = true;
        return;
      }
      const step = Math.floor((10 * done) / total);
      if (step !== lastStep || done === total) {
        lastStep = step;
        stream.write(`${line}\n`);
      }
    },
    end() {
      if (tty && shown) stream.write('\n');
    },
  };
}
