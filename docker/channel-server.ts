import { readShipped } from '../core/shipped.js';

/**
 * The sandbox's command channel, inside the container: one root process, started with the container, that reads
 * requests on its stdin (attached by the host, reachable by nothing in the container) and runs each as a child of its
 * own, as the requested user, in a new session, with the requested working dir and environment. Output and the exit
 * status go back as frames on its stdout. A `docker exec` costs the engine, containerd and runc a round of process
 * setup each; this costs one fork.
 *
 * What the agent can reach: nothing. The server is root's, so no other user may open its /proc fds; every command
 * gets fresh pipes for its stdin, stdout and stderr and no other descriptor; and what a command prints travels inside
 * frames, so printing something that looks like a frame forges nothing.
 *
 * Written for any Python 3 from 3.5 (the images' system Python), imports only the standard library, and is run with
 * `-I -S`: no environment variable, user site or `.pth` file shapes it.
 *
 * Frames both ways: a 9-byte header (payload length u32, kind u8, command id u32, big-endian) and the payload.
 *   host → server: `x` start (JSON: argv, user, cwd, env as [name, value] pairs, stdin: bool),
 *                  `i` bytes for the command's stdin, `e` end of its stdin,
 *                  `w` walk the root filesystem (JSON: mode "image" or "changes", see fs-changes.ts), done in-process,
 *                  `l` listen on a loopback port in the sandbox (JSON: port), answered by `d`.
 *   server → host: `h` hello (JSON: pid), `o` stdout bytes, `r` stderr bytes,
 *                  `d` done (JSON: exit, or error with busy: true when no process slot was free),
 *                  `a` a connection accepted on a listened port (JSON: port), under a new id with the high bit set.
 *   both ways:     `s` a connection's bytes, `q` the end of its bytes from that side.
 * `n` (sent by the boot script, not the server) says there is no channel: the host falls back to `docker exec`.
 *
 * The server is channel-server.py; its first line, a comment, carries COMMAND_SERVER_MARK into its command line.
 */
export const CHANNEL_SERVER_PY = readShipped(import.meta.url, 'channel-server.py');

/** In the server's and the boot script's command lines: how a process listing tells them apart. */
export const COMMAND_SERVER_MARK = 'impossiblebench command server';

/**
 * The container's first process: runs the server with the first system Python 3 found, and when there is none (or it
 * stops) says so with an `n` frame and keeps the container alive for `docker exec`.
 */
export const CHANNEL_BOOT_SH = readShipped(import.meta.url, 'channel-boot.sh');
