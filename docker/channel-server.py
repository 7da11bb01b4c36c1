# impossiblebench command server
import errno, grp, json, os, pwd, selectors, signal, socket, stat, struct, subprocess, sys, time

HEADER = struct.Struct(">IBI")
MAX_PAYLOAD = 64 * 1024 * 1024
CHUNK = 64 * 1024
# A command's output stays open after it exits only while something it left holds the pipe: read what is there, then stop.
DRAIN_S = 0.2
START = ord("x"); STDIN = ord("i"); STDIN_END = ord("e"); WALK = ord("w")
HELLO = ord("h"); STDOUT = ord("o"); STDERR = ord("r"); DONE = ord("d")
# A loopback port carried to the host: listen on it, a connection accepted, its bytes either way, its end either way.
LISTEN = ord("l"); ACCEPT = ord("a"); SOCK = ord("s"); SOCK_END = ord("q")
# Connection ids are the server's own: the high bit keeps them apart from the host's command ids.
FIRST_CONNECTION = 0x80000000
# The coarse clock is the one file times come from: whatever changes after this has a ctime no earlier (fs-changes.ts).
BOOTED = time.clock_gettime(getattr(time, "CLOCK_REALTIME_COARSE", 5))
# The container's own variables, as a docker exec would get them; HOME follows the user.
BASE_ENV = [(k, v) for k, v in os.environ.items() if k not in ("HOME", "PWD", "OLDPWD", "SHLVL", "_")]


def send(kind, cid, payload=b""):
    data = memoryview(HEADER.pack(len(payload), kind, cid) + payload)
    while data:
        data = data[os.write(1, data):]


def send_json(kind, cid, obj):
    send(kind, cid, json.dumps(obj).encode())


class Refused(Exception):
    """A request the sandbox cannot honour, worded as docker exec words it."""


def identity(spec):
    """uid, gid, groups and home for "name", "uid", "name:group" or "uid:gid", as docker exec resolves them."""
    user, _, group = spec.partition(":")
    try:
        pw = pwd.getpwuid(int(user)) if user.isdigit() else pwd.getpwnam(user)
    except KeyError:
        if not user.isdigit():
            raise Refused("unable to find user %s: no matching entries in passwd file" % user)
        pw = None
    uid = pw.pw_uid if pw else int(user)
    if group:
        try:
            gid = int(group) if group.isdigit() else grp.getgrnam(group).gr_gid
        except KeyError:
            raise Refused("unable to find group %s: no matching entries in group file" % group)
    else:
        gid = pw.pw_gid if pw else 0
    groups = os.getgrouplist(pw.pw_name, gid) if pw else [gid]
    return uid, gid, groups, (pw.pw_dir if pw else "/")


class Command:
    def __init__(self, cid, request):
        uid, gid, groups, home = identity(request.get("user") or "root")
        env = dict(BASE_ENV)
        env["HOME"] = home
        # The request's variables first, in order: the first is the command's kill marker.
        ordered = [(k, v) for k, v in request.get("env", [])]
        given = set(k for k, _ in ordered)
        env = ordered + [(k, v) for k, v in env.items() if k not in given]

        def demote():
            if uid != 0:
                os.setgroups(groups)
                os.setgid(gid)
                os.setuid(uid)

        self.cid = cid
        self.pending = []
        self.stdin_open = bool(request.get("stdin"))
        self.stdin_closing = False
        self.proc = subprocess.Popen(
            request["argv"],
            stdin=subprocess.PIPE if self.stdin_open else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=request.get("cwd") or None,
            env=dict(env),
            preexec_fn=demote,
            start_new_session=True,
            close_fds=True,
        )
        self.exit = None
        self.drain_until = None
        self.outputs = {}
        for pipe, kind in ((self.proc.stdout, STDOUT), (self.proc.stderr, STDERR)):
            os.set_blocking(pipe.fileno(), False)
            self.outputs[pipe.fileno()] = (pipe, kind)
            selector.register(pipe.fileno(), selectors.EVENT_READ, ("out", self))
        if self.stdin_open:
            os.set_blocking(self.proc.stdin.fileno(), False)

    def read(self, fd):
        """Forwards one chunk; False when there was nothing to read (or the pipe ended)."""
        pipe, kind = self.outputs[fd]
        try:
            data = os.read(fd, CHUNK)
        except BlockingIOError:
            return False
        except OSError:
            data = b""
        if data:
            send(kind, self.cid, data)
            return True
        self.close_output(fd)
        return False

    def close_output(self, fd):
        pipe, _ = self.outputs.pop(fd)
        selector.unregister(fd)
        pipe.close()

    def feed(self, data):
        if self.stdin_open and not self.stdin_closing:
            self.pending.append(data)
            self.flush()

    def end_stdin(self):
        self.stdin_closing = True
        self.flush()

    def flush(self):
        if not self.stdin_open:
            return
        fd = self.proc.stdin.fileno()
        while self.pending:
            try:
                n = os.write(fd, self.pending[0])
            except BlockingIOError:
                break
            except OSError:
                # The command stopped reading (it exited or closed its input): the rest is dropped.
                self.pending = []
                break
            if n == len(self.pending[0]):
                self.pending.pop(0)
            else:
                self.pending[0] = self.pending[0][n:]
        registered = fd in selector.get_map()
        if self.pending and not registered:
            selector.register(fd, selectors.EVENT_WRITE, ("in", self))
        elif not self.pending and registered:
            selector.unregister(fd)
        if not self.pending and self.stdin_closing:
            self.proc.stdin.close()
            self.stdin_open = False

    def check(self, now):
        """Sends the end once the command has exited and its output is read (or the drain time ran out)."""
        if self.exit is None:
            code = self.proc.poll()
            if code is None:
                return False
            self.exit = 128 - code if code < 0 else code
            self.drain_until = now + DRAIN_S
        if self.outputs and now < self.drain_until:
            return False
        # Past the drain time: what is in the pipe now, at most 1 MiB, and no more.
        for fd in list(self.outputs):
            for _ in range(16):
                if not self.read(fd):
                    break
            if fd in self.outputs:
                self.close_output(fd)
        if self.stdin_open:
            if self.proc.stdin.fileno() in selector.get_map():
                selector.unregister(self.proc.stdin.fileno())
            self.proc.stdin.close()
            self.stdin_open = False
        send_json(DONE, self.cid, {"exit": self.exit})
        return True


class Relay:
    """One connection to a forwarded port: what the peer in the sandbox sends goes to the host and back, each way
    ending on its own (a client may close its side and still read the answer)."""

    def __init__(self, cid, sock):
        self.cid = cid
        self.sock = sock
        self.pending = []
        self.closing = False
        self.read_done = False
        self.write_done = False
        self.events = 0
        sock.setblocking(False)
        self.settle()

    def read(self):
        try:
            data = self.sock.recv(CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:
            send(SOCK, self.cid, data)
        else:
            self.read_done = True
            send(SOCK_END, self.cid)
        self.settle()

    def feed(self, data):
        if not self.closing and not self.write_done:
            self.pending.append(data)
            self.flush()

    def end(self):
        self.closing = True
        self.flush()

    def flush(self):
        while self.pending:
            try:
                n = self.sock.send(self.pending[0])
            except BlockingIOError:
                break
            except OSError:
                # The peer is gone: nothing more goes either way.
                self.pending = []
                self.write_done = True
                if not self.read_done:
                    self.read_done = True
                    send(SOCK_END, self.cid)
                break
            self.pending[0] = self.pending[0][n:]
            if not self.pending[0]:
                self.pending.pop(0)
        if not self.pending and self.closing and not self.write_done:
            self.write_done = True
            try:
                self.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass
        self.settle()

    def settle(self):
        """Watches for what is still to do; closes the connection once both ways have ended."""
        fd = self.sock.fileno()
        events = (0 if self.read_done else selectors.EVENT_READ) | (selectors.EVENT_WRITE if self.pending else 0)
        if events != self.events:
            if self.events and events:
                selector.modify(fd, events, ("sock", self))
            elif events:
                selector.register(fd, events, ("sock", self))
            else:
                selector.unregister(fd)
            self.events = events
        if self.read_done and self.write_done:
            self.sock.close()
            relays.pop(self.cid, None)


def listen(cid, payload):
    """Opens a loopback port in the sandbox whose connections the host answers."""
    try:
        port = int(json.loads(payload.decode())["port"])
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", port))
        server.listen(64)
        server.setblocking(False)
        selector.register(server.fileno(), selectors.EVENT_READ, ("listen", server))
        send_json(DONE, cid, {"exit": 0})
    except Exception as e:
        send_json(DONE, cid, {"error": "%s: %s" % (type(e).__name__, e), "busy": False})


def accept(server):
    global next_connection
    try:
        conn, _ = server.accept()
    except OSError:
        return
    cid = next_connection
    next_connection += 1
    relays[cid] = Relay(cid, conn)
    send_json(ACCEPT, cid, {"port": server.getsockname()[1]})


def start(cid, payload):
    try:
        commands[cid] = Command(cid, json.loads(payload.decode()))
    except BlockingIOError:
        send_json(DONE, cid, {"error": "no free process slot", "busy": True})
    except OSError as e:
        busy = e.errno in (errno.EAGAIN, errno.ENOMEM)
        reason = (e.strerror or str(e)).lower()
        send_json(DONE, cid, {"error": "%s: %s" % (e.filename, reason) if e.filename else reason, "busy": busy})
    except Refused as e:
        send_json(DONE, cid, {"error": str(e), "busy": False})
    except Exception as e:
        send_json(DONE, cid, {"error": "%s: %s" % (type(e).__name__, e), "busy": False})


def root_is_overlay():
    with open("/proc/self/mountinfo") as mounts:
        found = ""
        for line in mounts:
            if line.split()[4] == "/" and " - " in line:
                found = line.split(" - ", 1)[1].split()[0]
    return found == "overlay"


def walk(cid, payload):
    """Every folder's names (image), or each entry changed since BOOTED and each changed folder's names (changes).
    On overlayfs a change below a folder gives the folder a new ctime (it is copied up), so only those are entered."""
    try:
        mode = json.loads(payload.decode())["mode"]
        prune = mode == "changes" and root_is_overlay()
        root_dev = os.lstat("/").st_dev
        out, stack = [], ["/"]
        while stack:
            folder = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            names = []
            for entry in entries:
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if st.st_dev != root_dev:
                    continue
                names.append(entry.name)
                if stat.S_ISDIR(st.st_mode) and not (prune and st.st_ctime < BOOTED):
                    stack.append(entry.path)
                if mode == "changes" and st.st_ctime >= BOOTED:
                    out.append(json.dumps(["c", entry.path]))
            if mode == "image":
                out.append(json.dumps([folder, names]))
            elif folder != "/" and os.lstat(folder).st_ctime >= BOOTED:
                out.append(json.dumps(["d", folder, names]))
            if len(out) > 2000:
                send(STDOUT, cid, ("\n".join(out) + "\n").encode())
                out = []
        if out:
            send(STDOUT, cid, ("\n".join(out) + "\n").encode())
        send_json(DONE, cid, {"exit": 0})
    except Exception as e:
        send_json(DONE, cid, {"error": "%s: %s" % (type(e).__name__, e), "busy": False})


def handle(kind, cid, payload):
    if kind == START:
        start(cid, payload)
    elif kind == WALK:
        walk(cid, payload)
    elif kind == LISTEN:
        listen(cid, payload)
    elif cid in relays:
        if kind == SOCK:
            relays[cid].feed(payload)
        elif kind == SOCK_END:
            relays[cid].end()
    elif cid in commands:
        if kind == STDIN:
            commands[cid].feed(payload)
        elif kind == STDIN_END:
            commands[cid].end_stdin()


selector = selectors.DefaultSelector()
commands = {}
relays = {}
next_connection = FIRST_CONNECTION
wake_r, wake_w = os.pipe()
os.set_blocking(wake_r, False)
os.set_blocking(wake_w, False)
signal.set_wakeup_fd(wake_w)
signal.signal(signal.SIGCHLD, lambda *_: None)
selector.register(0, selectors.EVENT_READ, ("host", None))
selector.register(wake_r, selectors.EVENT_READ, ("wake", None))
send_json(HELLO, 0, {"pid": os.getpid()})
incoming = b""
while True:
    draining = [c.drain_until for c in commands.values() if c.drain_until is not None]
    timeout = max(0.0, min(draining) - time.monotonic()) if draining else None
    for key, mask in selector.select(timeout):
        what, command = key.data
        if what == "host":
            data = os.read(0, 1024 * 1024)
            if not data:
                sys.exit(0)
            incoming += data
            while len(incoming) >= HEADER.size:
                size, kind, cid = HEADER.unpack_from(incoming)
                if size > MAX_PAYLOAD:
                    sys.exit(3)
                if len(incoming) < HEADER.size + size:
                    break
                payload = incoming[HEADER.size:HEADER.size + size]
                incoming = incoming[HEADER.size + size:]
                handle(kind, cid, payload)
        elif what == "wake":
            try:
                while os.read(wake_r, 4096):
                    pass
            except BlockingIOError:
                pass
        elif what == "out":
            command.read(key.fd)
        elif what == "in":
            command.flush()
        elif what == "listen":
            accept(command)
        elif what == "sock":
            if mask & selectors.EVENT_WRITE:
                command.flush()
            if mask & selectors.EVENT_READ and command.cid in relays:
                command.read()
    now = time.monotonic()
    for cid in [c for c, command in commands.items() if command.check(now)]:
        del commands[cid]
