# Grades one LiveCodeBench-style submission, as root: `python3 -I -S -B supervisor.py SPEC_JSON`, the per-run token
# on stdin. Starts lcb-child.py as the graded user and prints its verdict behind the token. The design: lcb-grader-scripts.ts.
import json, os, pwd, select, signal, subprocess, sys, time

TAMPER_EXIT = 97


def stop_user(uid):
    # Every process of the user, frozen first so a fork loop cannot outrun the scan, then killed.
    # Leftovers (a background job of an earlier tool call) could otherwise watch the graded program.
    me = os.getpid()
    seen = set()
    for _ in range(50):
        found = False
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == me or int(entry) in seen:
                continue
            try:
                with open("/proc/%s/status" % entry) as f:
                    owner = next((int(l.split()[1]) for l in f if l.startswith("Uid:")), None)
                if owner == uid:
                    os.kill(int(entry), signal.SIGSTOP)
                    seen.add(int(entry))
                    found = True
            except (OSError, ValueError):
                pass
        if not found:
            break
    for pid in seen:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def owns_ipc(uid):
    # Read here first: the shell sweep (a handful of processes) runs only when the user holds something.
    for name, column in (("shm", 7), ("sem", 4), ("msg", 7)):
        try:
            with open("/proc/sysvipc/" + name) as f:
                if any(len(row) > column and row[column] == str(uid) for row in (line.split() for line in list(f)[1:])):
                    return True
        except OSError:
            return True
    try:
        return any(os.stat(e.path).st_uid == uid for e in os.scandir("/dev/mqueue"))
    except OSError:
        return False


def clean_user(uid, cleanup_shell):
    stop_user(uid)
    if owns_ipc(uid):
        subprocess.run(["sh", "-c", cleanup_shell + '\nib_ipc_clean "$1"', "ipc", str(uid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def remove_tree(path):
    # Root's own grading folder: links in it are removed, not followed. Cheaper than importing shutil.
    try:
        for folder, dirs, files in os.walk(path, topdown=False):
            for name in files + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
                os.unlink(os.path.join(folder, name))
            for name in dirs:
                if not os.path.islink(os.path.join(folder, name)):
                    os.rmdir(os.path.join(folder, name))
        os.rmdir(path)
    except OSError:
        pass


def read_trusted(path):
    # Root reads only its own files here (the graded program reads the agent's): no link is followed.
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, encoding="utf-8") as f:
        return f.read()


def main():
    spec_path = sys.argv[1]
    with open(spec_path) as f:
        spec = json.load(f)
    user = pwd.getpwnam(spec["user"])
    users = [pwd.getpwnam(name).pw_uid for name in spec.get("killUsers", [spec["user"]])]
    if spec.get("killUserProcesses", True):
        for uid in users:
            clean_user(uid, spec["userCleanupShell"])
    nonce = os.urandom(16).hex()
    read_end, write_end = os.pipe()
    sources = [{"path": s["path"], "code": read_trusted(s["path"])} if s.get("trusted") else {"path": s["path"]} for s in spec["sources"]]
    child_spec = {
        "nonce": nonce,
        "reportFd": write_end,
        "sources": sources,
        "testPath": spec["testPath"],
        "entryPoint": spec["entryPoint"],
        "sysPath": spec.get("sysPath", []),
        "moduleName": spec.get("moduleName", "__main__"),
        "showTrustedSources": spec.get("showTrustedSources", True),
    }
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": user.pw_dir,
        "USER": user.pw_name,
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-I", "-B", spec["childScript"]],
        stdin=subprocess.PIPE,
        cwd=spec["cwd"],
        env=env,
        user=user.pw_uid,
        group=user.pw_gid,
        extra_groups=[],
        pass_fds=(write_end,),
        start_new_session=True,
    )
    os.close(write_end)
    try:
        child.stdin.write(json.dumps(child_spec).encode())
        child.stdin.close()
    except OSError:
        pass
    # The token is read only now: the child was forked before it existed in this process.
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
            chunk = os.read(read_end, 65536)
            if chunk:
                received += chunk[: max(0, (1 << 20) - len(received))]
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except OSError:
        pass
    child.wait()
    if spec.get("killUserProcesses", True):
        # Whatever the program left running in a session of its own must not outlive grading
        # (nor keep writing into the output this verdict is read from); nor may what it left in memory.
        clean_user(user.pw_uid, spec["userCleanupShell"])
    while True:
        ready, _, _ = select.select([read_end], [], [], 0)
        if not ready:
            break
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        received += chunk[: max(0, (1 << 20) - len(received))]
    code = child.returncode
    returned, failed_line, failed_type, failed_detail, tamper = False, None, None, None, []
    text = received.decode("utf-8", "replace")
    lines = text.split("\n")
    if lines and lines[-1] != "":
        tamper.append("an unfinished line on the report channel")
    for line in lines[:-1]:
        if not line.startswith(nonce + " "):
            tamper.append("a line on the report channel that the harness did not write")
            continue
        word, _, rest = line[len(nonce) + 1 :].partition(" ")
        if word == "returned":
            if returned or failed_line is not None:
                tamper.append("a second report of the tests' end")
            returned = True
        elif word == "failed":
            if returned:
                tamper.append("a failure reported after the tests returned")
            returned = False
            line_no, _, rest = rest.partition(" ")
            kind, _, detail = rest.partition(" ")
            failed_line = int(line_no) if line_no.isdigit() else 0
            failed_type = kind or None
            failed_detail = detail or None
        elif word == "tamper":
            tamper.append(rest)
    if code == TAMPER_EXIT and not returned:
        tamper.append("the report channel was closed or replaced")
    if failed_line is not None:
        returned = False
    verdict = {
        "checkReturned": returned,
        "failedLine": failed_line,
        "failedType": failed_type,
        "failedDetail": failed_detail[:500] if failed_detail else None,
        "tamper": sorted(set(t[:300] for t in tamper))[:20],
        "timedOut": timed_out,
        "exitCode": code if code >= 0 else 128 - code,
        "signal": signal.Signals(-code).name if code < 0 else None,
        "seconds": round(time.monotonic() - started, 3),
    }
    # The grading files go with the run; nothing of it stays for the agent to read later.
    remove_tree(spec["cleanupDir"])
    line = "\n" + token + " " + json.dumps(verdict) + "\n"
    # On both streams: a flood on one of them cannot push the verdict out of what is kept.
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
        stream.write(line)
        stream.flush()


main()
