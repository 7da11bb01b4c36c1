/**
 * Keeps the first and last bytes of a stream and counts what falls between, so a command that
 * prints gigabytes costs a bounded amount of memory.
 */
export class CappedOutput {
  private readonly headCap: number;
  private readonly tailCap: number;
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private tail: Buffer[] = [];
  private tailLength = 0;
  private total = 0;

  constructor(maxBytes: number) {
    this.headCap = Math.floor(maxBytes / 2);
    this.tailCap = maxBytes - this.headCap;
  }

  write(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLength < this.headCap) {
      const take = Math.min(this.headCap - this.headLength, rest.length);
      // Copy: the chunk may be a view into a larger buffer we must not keep alive.
      this.head.push(Buffer.from(rest.subarray(0, take)));
      this.headLength += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.tailCap === 0) return;
    if (rest.length >= this.tailCap) {
      this.tail = [Buffer.from(rest.subarray(rest.length - this.tailCap))];
      this.tailLength = this.tailCap;
      return;
    }
    this.tail.push(Buffer.from(rest));
    this.tailLength += rest.length;
    // Drop whole chunks from the front while the rest still covers the tail.
    while (this.tail.length > 1 && this.tailLength - this.tail[0]!.length >= this.tailCap) {
      this.tailLength -= this.tail.shift()!.length;
    }
  }

  /** Bytes seen in total. */
  get totalBytes(): number {
    return this.total;
  }

  /** Bytes dropped from the middle. */
  get cutBytes(): number {
    return Math.max(0, this.total - this.headCap - this.tailCap);
  }

  /** Head and tail as text; a marker in the middle says how much was cut. */
  text(): string {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    const cut = this.cutBytes;
    if (cut === 0) return Buffer.concat([head, tail]).toString('utf8');
    if (tail.length > this.tailCap) tail = tail.subarray(tail.length - this.tailCap);
    return `${trimEnd(head).toString('utf8')}\n[… ${cut} bytes cut …]\n${trimStart(tail).toString('utf8')}`;
  }
}

/** Drops a multi-byte UTF-8 sequence cut at the end, rather than showing a replacement character. */
function trimEnd(buf: Buffer): Buffer {
  for (let i = buf.length - 1, seen = 0; i >= 0 && seen < 4; i--, seen++) {
    const byte = buf[i]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte
    if (byte < 0x80) return buf;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return buf.length - i >= need ? buf : buf.subarray(0, i);
  }
  return buf;
}

/** Drops continuation bytes at the start of a tail cut mid-character. */
function trimStart(buf: Buffer): Buffer {
  let i = 0;
  while (i < buf.length && i < 3 && (buf[i]! & 0xc0) === 0x80) i++;
  return buf.subarray(i);
}
