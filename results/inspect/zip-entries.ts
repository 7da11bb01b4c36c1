import { writeSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A zip written entry by entry into an open file, each entry's sizes and checksum in its local header as Python's
 * zipfile writes them: Inspect's viewer reads an entry by its local header alone, so the data descriptors of a
 * streamed zip (sizes left zero up front) read as empty entries there.
 */

/** The MS-DOS date and time a zip header holds, in local time as zip tools read it. */
function dosTime(d: Date): number {
  const date = ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
  const time = (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1);
  return ((date << 16) | time) >>> 0;
}

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

export class ZipEntries {
  private offset = 0;
  private readonly entries: Written[] = [];
  private readonly time: number;

  constructor(
    private readonly fd: number,
    mtime: Date,
  ) {
    this.time = dosTime(mtime);
  }

  private write(bytes: Uint8Array): void {
    writeSync(this.fd, bytes);
    this.offset += bytes.length;
  }

  /** One entry, deflated. */
  add(name: string, data: Uint8Array): void {
    const file = Buffer.from(name, 'utf8');
    const body = deflateRawSync(data, { level: 6 });
    const entry = { name: file, crc: crc32(data), compressed: body.length, size: data.length, offset: this.offset };
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4); // version needed: deflate
    h.writeUInt16LE(0x0800, 6); // names in UTF-8
    h.writeUInt16LE(8, 8); // deflate
    h.writeUInt32LE(this.time, 10);
    h.writeUInt32LE(entry.crc, 14);
    h.writeUInt32LE(entry.compressed, 18);
    h.writeUInt32LE(entry.size, 22);
    h.writeUInt16LE(file.length, 26);
    this.write(h);
    this.write(file);
    this.write(body);
    this.entries.push(entry);
  }

  /** The central directory and its end record. */
  end(): void {
    const start = this.offset;
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE((3 << 8) | 20, 4); // made on Unix
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0800, 8);
      h.writeUInt16LE(8, 10);
      h.writeUInt32LE(this.time, 12);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      // A regular file readable by its owner alone, as Inspect's entries are.
      h.writeUInt32LE((0o100600 << 16) >>> 0, 38);
      h.writeUInt32LE(e.offset, 42);
      this.write(h);
      this.write(e.name);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.write(end);
  }
}
