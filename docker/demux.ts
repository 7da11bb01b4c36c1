/**
 * Splits the engine's multiplexed exec stream (8-byte header: stream id, 3 zero bytes, uint32
 * length; then the payload) into stdout and stderr, iteratively and without re-buffering payloads.
 */
export class StreamDemuxer {
  private header = Buffer.alloc(8);
  private headerFill = 0;
  private remaining = 0;
  private target: 1 | 2 = 1;

  constructor(
    private readonly onStdout: (chunk: Buffer) => void,
    private readonly onStderr: (chunk: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.remaining === 0) {
        const take = Math.min(8 - this.headerFill, chunk.length - offset);
        chunk.copy(this.header, this.headerFill, offset, offset + take);
        this.headerFill += take;
        offset += take;
        if (this.headerFill < 8) return;
        this.headerFill = 0;
        // 0 (stdin echo) never carries output; anything but 2 is treated as stdout.
        this.target = this.header[0] === 2 ? 2 : 1;
        this.remaining = this.header.readUInt32BE(4);
        continue;
      }
      const take = Math.min(this.remaining, chunk.length - offset);
      const payload = chunk.subarray(offset, offset + take);
      offset += take;
      this.remaining -= take;
      if (this.target === 2) this.onStderr(payload);
      else this.onStdout(payload);
    }
  }
}
