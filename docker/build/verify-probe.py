# Run as the agent in a freshly built image: the Python, pytest and agent user a sandbox needs.
import sys, pwd, importlib.metadata as md
name, uid = sys.argv[1], int(sys.argv[2])
assert sys.version_info[:2] == (3, 11), f"python {sys.version.split()[0]}, need 3.11"
import pytest
u = pwd.getpwnam(name)
assert u.pw_uid == uid, f"{name} has uid {u.pw_uid}, need {uid}"
print(sys.version.split()[0], md.version("pytest"))
