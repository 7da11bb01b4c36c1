# `python3 pytest-config.py MODE PRISTINE CURRENT`: the pytest sections of a setup.cfg or pyproject.toml (see
# pytest-config.ts). Plain text sections, no TOML or INI library, for any Python 3.
import os, sys

def sections(text):
    out, name, lines = [], None, []
    for line in text.splitlines(True):
        s = line.strip()
        if s.startswith("[") and s.endswith("]"):
            out.append((name, lines))
            name, lines = s.strip("[]").replace(" ", ""), [line]
        else:
            lines.append(line)
    out.append((name, lines))
    return out

def is_pytest(name, toml):
    if name is None:
        return False
    return name == "tool.pytest" or name.startswith("tool.pytest.") if toml else name in ("pytest", "tool:pytest")

def read(path):
    if not os.path.isfile(path):
        return ""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()

mode, pristine, current = sys.argv[1:4]
toml = current.endswith(".toml")
before = ["".join(l) for n, l in sections(read(pristine)) if is_pytest(n, toml)]
now = sections(read(current))
after = ["".join(l) for n, l in now if is_pytest(n, toml)]
if mode == "diff":
    print("changed" if before != after else "same")
elif before != after:
    kept = "".join("".join(l) for n, l in now if not is_pytest(n, toml))
    if kept and not kept.endswith("\n"):
        kept += "\n"
    with open(current, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(kept + "".join(before))
