# The text editor tool, run inside the sandbox as the agent's user (`python3 -I -c`), so file permissions apply to it
# exactly as to bash. Reads one JSON request on stdin, prints one JSON reply: {"ok": true, "output": ...} or
# {"ok": false, "error": ...}.
import json, os, sys

SNIPPET = 4

def numbered(lines, first):
    width = len(str(first + len(lines) - 1))
    return "\n".join(f"{str(first + i).rjust(max(width, 6))}\t{line}" for i, line in enumerate(lines))

def read(path):
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        return f.read()

def write(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)

def view(req, path):
    if os.path.isdir(path):
        entries = []
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
            depth = root[len(path):].count(os.sep)
            if depth >= 2:
                dirs[:] = []
            for name in sorted(dirs) + sorted(files):
                entries.append(os.path.relpath(os.path.join(root, name), path))
        return f"Files and directories in {path}:\n" + "\n".join(sorted(entries))
    lines = read(path).split("\n")
    rng = req.get("view_range")
    if rng:
        first, last = rng
        if last == -1:
            last = len(lines)
        if first < 1 or first > len(lines) or last < first or last > len(lines):
            raise ValueError(f"view_range {rng} is outside the file's lines 1-{len(lines)}")
        return numbered(lines[first - 1:last], first)
    return numbered(lines, 1)

def create(req, path):
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)
    existed = os.path.exists(path)
    write(path, req["file_text"])
    return f"{'Overwrote' if existed else 'Created'} {path}."

def str_replace(req, path):
    text = read(path)
    old, new = req["old_str"], req.get("new_str") or ""
    count = text.count(old)
    if count == 0:
        raise ValueError(f"old_str does not occur in {path}; nothing was changed")
    if count > 1:
        lines = [i + 1 for i, line in enumerate(text.split("\n")) if old.split("\n")[0] in line]
        raise ValueError(f"old_str occurs {count} times in {path} (lines {lines}); make it unique")
    at = text.index(old)
    text = text.replace(old, new, 1)
    write(path, text)
    start = text[:at].count("\n")
    lines = text.split("\n")
    lo = max(0, start - SNIPPET)
    hi = min(len(lines), start + new.count("\n") + SNIPPET + 1)
    return f"Edited {path}. The changed region now reads:\n" + numbered(lines[lo:hi], lo + 1)

def insert(req, path):
    lines = read(path).split("\n")
    at = req["insert_line"]
    if at < 0 or at > len(lines):
        raise ValueError(f"insert_line {at} is outside 0-{len(lines)}")
    new = req["new_str"].split("\n")
    lines[at:at] = new
    write(path, "\n".join(lines))
    lo = max(0, at - SNIPPET)
    hi = min(len(lines), at + len(new) + SNIPPET)
    return f"Inserted into {path}. The region now reads:\n" + numbered(lines[lo:hi], lo + 1)

def main():
    req = json.loads(sys.stdin.read())
    path = os.path.normpath(os.path.join(os.getcwd(), req["path"]))
    try:
        output = {"view": view, "create": create, "str_replace": str_replace, "insert": insert}[req["command"]](req, path)
        print(json.dumps({"ok": True, "output": output}))
    except (OSError, ValueError, UnicodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        print(json.dumps({"ok": False, "error": f"{req['command']} {req['path']}: {reason}"}))

main()
