/**
 * The two Python programs that grade a LiveCodeBench-style submission inside the sandbox.
 *
 * Why two processes: the per-run token that proves `check()` returned must never exist where
 * submitted code can read it. The supervisor runs as root, starts the graded program as the
 * unprivileged user, and only then reads the token from its own stdin, so the token is not in the
 * program's memory, files, argv or environment. The program reports "check returned" over a
 * private pipe; the supervisor prints the token (with its verdict) only after it saw that report.
 */

/** Runs as root: `python3 -I supervisor.py SPEC_JSON`, token on stdin. */
export const SUPERVISOR_PY = String.raw`
import json, os, pwd, select, shutil, signal, subprocess, sys, time

REPORT = b"check-returned\n"


def kill_user_processes(uid):
    # Leftovers of the agent (a background job from an earlier tool call) could otherwise watch
    # the graded program and write to its pipe.
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/status") as f:
                for line in f:
                    if line.startswith("Uid:"):
                        if int(line.split()[1]) == uid:
                            os.kill(int(entry), signal.SIGKILL)
                        break
        except (OSError, ValueError):
            pass


def main():
    spec_path = sys.argv[1]
    with open(spec_path) as f:
        spec = json.load(f)
    user = pwd.getpwnam(spec["user"])
    if spec.get("killUserProcesses", True):
        for name in spec.get("killUsers", [spec["user"]]):
            kill_user_processes(pwd.getpwnam(name).pw_uid)
    read_end, write_end = os.pipe()
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": user.pw_dir,
        "USER": user.pw_name,
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-I", "-B", spec["childScript"], spec_path, str(write_end)],
        stdin=subprocess.DEVNULL,
        cwd=spec["cwd"],
        env=env,
        user=user.pw_uid,
        group=user.pw_gid,
        extra_groups=[],
        pass_fds=(write_end,),
        start_new_session=True,
    )
    os.close(write_end)
    # Read only now: the child was forked before the token existed in this process.
    token = sys.stdin.readline().strip()
    deadline = started + float(spec["timeoutSec"])
    received = b""
    timed_out = False
    while child.poll() is None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([read_end], [], [], min(remaining, 0.2))
        if ready:
            chunk = os.read(read_end, 4096)
            if chunk:
                received += chunk
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except OSError:
        pass
    child.wait()
    if spec.get("killUserProcesses", True):
        # Whatever the program left running in a session of its own must not outlive grading
        # (nor keep writing into the output this verdict is read from).
        kill_user_processes(user.pw_uid)
    while True:
        ready, _, _ = select.select([read_end], [], [], 0)
        if not ready:
            break
        chunk = os.read(read_end, 4096)
        if not chunk:
            break
        received += chunk
    code = child.returncode
    verdict = {
        "checkReturned": REPORT in received,
        "timedOut": timed_out,
        "exitCode": code if code >= 0 else 128 - code,
        "signal": signal.Signals(-code).name if code < 0 else None,
        "seconds": round(time.monotonic() - started, 3),
    }
    # The grading files go with the run; nothing of it stays for the agent to read later.
    shutil.rmtree(spec["cleanupDir"], ignore_errors=True)
    line = "\n" + token + " " + json.dumps(verdict) + "\n"
    # On both streams: a flood on one of them cannot push the verdict out of what is kept.
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
        stream.write(line)
        stream.flush()


main()
`;

/** Runs as the agent: executes the sources in one `__main__` namespace, then `check(entry_point)`. */
export const CHILD_PY = String.raw`
import json, os, sys, types


def main():
    spec_path, report_fd = sys.argv[1], int(sys.argv[2])
    os.set_inheritable(report_fd, False)
    with open(spec_path) as f:
        spec = json.load(f)
    for extra in spec.get("sysPath", []):
        sys.path.append(extra)
    module = types.ModuleType(spec.get("moduleName", "__main__"))
    module.__dict__["__builtins__"] = __builtins__
    sys.modules[module.__name__] = module
    ns = module.__dict__
    try:
        for source in spec["sources"]:
            with open(source, encoding="utf-8") as f:
                code = f.read()
            ns["__file__"] = source
            exec(compile(code, source, "exec"), ns)
        check = ns["check"] if "check" in ns else None
        if check is None:
            raise NameError("the tests define no check() function")
        entry = spec["entryPoint"]
        if entry not in ns:
            raise NameError(f"the solution defines no function named {entry!r}")
        check(ns[entry])
    except Exception as exc:
        # Report through the usual hook, minus this file's own frame.
        tb = exc.__traceback__.tb_next if exc.__traceback__ else None
        sys.excepthook(type(exc), exc.with_traceback(tb), tb)
        # Exit as an uncaught exception would (atexit handlers run), so evasions stay visible.
        sys.exit(1)
    os.write(report_fd, b"check-returned\n")


main()
`;
