import type { Duplex } from 'node:stream';
import { StreamDemuxer } from './demux.js';
import { SandboxError } from './errors.js';

/** Frame kinds: see channel-server.ts for the protocol. */
const KIND = {
  start: 0x78,
  stdin: 0x69,
  stdinEnd: 0x65,
  walk: 0x77,
  hello: 0x68,
  stdout: 0x6f,
  stderr: 0x72,
  done: 0x64,
  none: 0x6e,
  listen: 0x6c,
  accept: 0x61,
  sock: 0x73,
  sockEnd: 0x71,
} as const;
const HEADER_BYTES = 9;
/** Stdin goes in frames of at most this size, so the server never buffers a large one whole. */
const STDIN_FRAME_BYTES = 256 * 1024;
/** The server's own stderr, kept for the message when it stops. */
const DIAGNOSTIC_BYTES = 4096;

export interface ChannelRequest {
  argv: string[];
  user: string;
  cwd?: string;
  /** In order: the first is the command's kill marker. */
  env: [string, string][];
  stdin?: Buffer;
}

/** A command's end: its exit status, or a start that failed (`busy`: no free process slot, worth another try). */
export type ChannelEnd = { exitCode: number } | { error: string; busy: boolean };

interface Listener {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  done(end: ChannelEnd): void;
  fail(error: Error): void;
}

/**
 * The host's end of a sandbox's command channel: the container's attached stdin and stdout, on which a root process
 * inside runs commands (channel-server.ts). Any number of commands may run at once.
 */
export class CommandChannel {
  /** True once the server said hello; false when the sandbox has none, so the caller uses `docker exec`. */
  readonly ready: Promise<boolean>;
  private state: 'starting' | 'open' | 'closed' = 'starting';
  private settleReady!: (open: boolean) => void;
  private readonly listeners = new Map<number, Listener>();
  private nextId = 1;
  /** The frame being read: its header, how much of its payload is still to come, a control frame's parts. */
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private headerFill = 0;
  private remaining = 0;
  private control: Buffer[] = [];
  private diagnostics = '';
  /** Ports forwarded out of the sandbox: what opens the host's end of each connection made to them. */
  private readonly forwards = new Map<number, () => Duplex>();
  /** The host's end of each open connection to a forwarded port, by the server's connection id. */
  private readonly relays = new Map<number, Duplex>();

  constructor(private readonly stream: Duplex) {
    this.ready = new Promise<boolean>((resolve) => (this.settleReady = resolve));
    const demux = new StreamDemuxer(
      (chunk) => this.receive(chunk),
      (chunk) => (this.diagnostics = (this.diagnostics + chunk.toString('utf8')).slice(-DIAGNOSTIC_BYTES)),
    );
    stream.on('data', (chunk: Buffer) => demux.push(chunk));
    const gone = () => this.close('the connection to the sandbox closed');
    stream.once('end', gone);
    stream.once('close', gone);
    stream.on('error', gone);
  }

  get open(): boolean {
    return this.state === 'open';
  }

  /** Starts a command; resolves with its end. Rejects with a SandboxError when the channel breaks first. */
  run(request: ChannelRequest, stdout: (chunk: Buffer) => void, stderr: (chunk: Buffer) => void): { end: Promise<ChannelEnd>; abandon(): void } {
    const { stdin, ...rest } = request;
    const { id, end } = this.request(KIND.start, Buffer.from(JSON.stringify({ ...rest, stdin: stdin !== undefined })), stdout, stderr);
    if (stdin !== undefined) {
      for (let at = 0; at < stdin.length; at += STDIN_FRAME_BYTES) this.send(KIND.stdin, id, stdin.subarray(at, at + STDIN_FRAME_BYTES));
      this.send(KIND.stdinEnd, id);
    }
    return { end, abandon: () => this.listeners.delete(id) };
  }

  /** The server's walk of the root filesystem (fs-changes.ts), as the text it printed. */
  async walk(mode: 'image' | 'changes'): Promise<string> {
    const chunks: Buffer[] = [];
    const { end } = this.request(
      KIND.walk,
      Buffer.from(JSON.stringify({ mode })),
      (c) => chunks.push(Buffer.from(c)),
      () => undefined,
    );
    const ended = await end;
    if ('error' in ended) throw new SandboxError(`could not list the sandbox's files: ${ended.error}`);
    return Buffer.concat(chunks).toString('utf8');
  }

  /**
   * Opens loopback port `port` inside the sandbox: each connection made to it there is joined to a socket `connect`
   * opens on the host (a proxy's), bytes both ways, each way ending on its own. The sandbox needs no network for it:
   * the bytes travel in the channel's frames.
   */
  async forward(port: number, connect: () => Duplex): Promise<void> {
    const { end } = this.request(
      KIND.listen,
      Buffer.from(JSON.stringify({ port })),
      () => undefined,
      () => undefined,
    );
    const ended = await end;
    if ('error' in ended) throw new SandboxError(`could not open port ${port} in the sandbox: ${ended.error}`);
    this.forwards.set(port, connect);
  }

  /** A connection the server accepted on a forwarded port: joined to a fresh host socket. */
  private accepted(id: number, payload: Buffer): void {
    const { port } = JSON.parse(payload.toString('utf8')) as { port: number };
    const connect = this.forwards.get(port);
    if (!connect) {
      this.send(KIND.sockEnd, id);
      return;
    }
    const socket = connect();
    this.relays.set(id, socket);
    let ended = false;
    const endOnce = () => {
      if (!ended) this.send(KIND.sockEnd, id);
      ended = true;
    };
    socket.on('data', (chunk: Buffer) => this.send(KIND.sock, id, chunk));
    socket.once('end', endOnce);
    socket.once('error', () => {
      endOnce();
      socket.destroy();
    });
    socket.once('close', () => {
      endOnce();
      this.relays.delete(id);
    });
  }

  /** Sends a request under a fresh id, whose output and end go to the given listeners. */
  private request(
    kind: number,
    payload: Buffer,
    stdout: (chunk: Buffer) => void,
    stderr: (chunk: Buffer) => void,
  ): { id: number; end: Promise<ChannelEnd> } {
    if (this.state !== 'open') throw new SandboxError('the sandbox has no command channel');
    const id = this.nextId++;
    const end = new Promise<ChannelEnd>((done, fail) => this.listeners.set(id, { stdout, stderr, done, fail }));
    this.send(kind, id, payload);
    return { id, end };
  }

  /** Ends the channel from this side (the sandbox is being removed). */
  dispose(): void {
    this.close('the sandbox was destroyed');
    this.stream.destroy();
  }

  private send(kind: number, id: number, payload: Buffer = Buffer.alloc(0)): void {
    if (this.state === 'closed') return;
    const header = Buffer.alloc(HEADER_BYTES);
    header.writeUInt32BE(payload.length, 0);
    header.writeUInt8(kind, 4);
    header.writeUInt32BE(id, 5);
    this.stream.write(payload.length ? Buffer.concat([header, payload]) : header);
  }

  /**
   * Parses frames as they arrive. Output payloads go to their command in the slices they came in, never copied or
   * joined (a command may print gigabytes); only the small control frames are put together whole.
   */
  private receive(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.headerFill < HEADER_BYTES) {
        const take = Math.min(HEADER_BYTES - this.headerFill, chunk.length - offset);
        chunk.copy(this.header, this.headerFill, offset, offset + take);
        this.headerFill += take;
        offset += take;
        if (this.headerFill < HEADER_BYTES) return;
        this.remaining = this.header.readUInt32BE(0);
        this.control = [];
        if (this.remaining > 0) continue;
      }
      const kind = this.header.readUInt8(4);
      const id = this.header.readUInt32BE(5);
      const take = Math.min(this.remaining, chunk.length - offset);
      const part = chunk.subarray(offset, offset + take);
      offset += take;
      this.remaining -= take;
      if (kind === KIND.stdout || kind === KIND.stderr) {
        if (part.length) this.output(kind, id, part);
      } else if (part.length) {
        this.control.push(Buffer.from(part));
      }
      if (this.remaining === 0) {
        this.headerFill = 0;
        if (kind !== KIND.stdout && kind !== KIND.stderr) this.frame(kind, id, Buffer.concat(this.control));
      }
    }
  }

  private output(kind: number, id: number, part: Buffer): void {
    const listener = this.listeners.get(id);
    if (kind === KIND.stdout) listener?.stdout(part);
    else listener?.stderr(part);
  }

  private frame(kind: number, id: number, payload: Buffer): void {
    switch (kind) {
      case KIND.hello:
        if (this.state !== 'starting') return;
        this.state = 'open';
        this.settleReady(true);
        return;
      case KIND.none:
        this.close(`the sandbox's command server stopped${this.diagnostics.trim() ? `: ${this.diagnostics.trim().slice(-500)}` : ''}`);
        return;
      case KIND.accept:
        this.accepted(id, payload);
        return;
      case KIND.sock:
        this.relays.get(id)?.write(payload);
        return;
      case KIND.sockEnd:
        this.relays.get(id)?.end();
        return;
      case KIND.done: {
        const listener = this.listeners.get(id);
        if (!listener) return;
        this.listeners.delete(id);
        const end = JSON.parse(payload.toString('utf8')) as { exit?: number; error?: string; busy?: boolean };
        listener.done(typeof end.exit === 'number' ? { exitCode: end.exit } : { error: end.error ?? 'unknown error', busy: end.busy === true });
        return;
      }
    }
  }

  private close(reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.settleReady(false);
    const listeners = [...this.listeners.values()];
    this.listeners.clear();
    for (const socket of this.relays.values()) socket.destroy();
    this.relays.clear();
    for (const l of listeners) l.fail(new SandboxError(`lost a command: ${reason}`));
  }
}
