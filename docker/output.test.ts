import { describe, expect, it } from 'vitest';
import { StreamDemuxer } from './demux.js';
import { CappedOutput } from './output.js';

function frame(stream: 1 | 2, payload: string | Buffer): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
}

describe('StreamDemuxer', () => {
  it('splits frames however the bytes arrive, one byte at a time included', () => {
    const wire = Buffer.concat([frame(1, 'out-1 '), frame(2, 'err-1 '), frame(1, 'ünï '), frame(2, Buffer.alloc(0)), frame(1, 'out-2')]);
    for (const size of [1, 3, 7, 8, 9, wire.length]) {
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      const demux = new StreamDemuxer(
        (c) => out.push(Buffer.from(c)),
        (c) => err.push(Buffer.from(c)),
      );
      for (let i = 0; i < wire.length; i += size) demux.push(wire.subarray(i, i + size));
      expect(Buffer.concat(out).toString(), `chunk size ${size}`).toBe('out-1 ünï out-2');
      expect(Buffer.concat(err).toString()).toBe('err-1 ');
    }
  });

  it('handles many tiny frames in one chunk without deep recursion', () => {
    const wire = Buffer.concat(Array.from({ length: 200_000 }, () => frame(1, 'x')));
    let n = 0;
    new StreamDemuxer(
      (c) => (n += c.length),
      () => undefined,
    ).push(wire);
    expect(n).toBe(200_000);
  });
});

describe('CappedOutput', () => {
  it('keeps everything under the cap', () => {
    const out = new CappedOutput(100);
    out.write(Buffer.from('hello '));
    out.write(Buffer.from('world'));
    expect(out.text()).toBe('hello world');
    expect(out.cutBytes).toBe(0);
  });

  it('keeps head and tail and counts the cut, across chunk boundaries', () => {
    const out = new CappedOutput(10);
    const all = 'abcdefghijklmnopqrstuvwxyz';
    for (const ch of all) out.write(Buffer.from(ch));
    expect(out.cutBytes).toBe(16);
    expect(out.totalBytes).toBe(26);
    expect(out.text()).toBe('abcde\n[… 16 bytes cut …]\nvwxyz');
    const big = new CappedOutput(10);
    big.write(Buffer.from(all));
    expect(big.text()).toBe(out.text());
  });

  it('never splits a UTF-8 character at the cut', () => {
    const out = new CappedOutput(8);
    out.write(Buffer.from('aaé'.repeat(10)));
    const text = out.text();
    expect(text).not.toContain('\uFFFD');
    expect(text.startsWith('aa')).toBe(true);
  });

  it('with a cap of 0 keeps nothing and counts everything', () => {
    const out = new CappedOutput(0);
    out.write(Buffer.from('data'));
    expect(out.cutBytes).toBe(4);
    expect(out.text()).toBe('\n[… 4 bytes cut …]\n');
  });
});
