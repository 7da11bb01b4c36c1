# Run as the agent in a freshly built image: the Python, pytest and agent user a sandbox needs.
import sys, pwd, importlib.metadata as md
assert sys.version_info[:2] == (3, 11), f"python {sys.version.split()[0]}, need 3.11"
import pytest
u = pwd.getpwnam("agent")
assert u.pw_uid == 1000, f"agent has uid {u.pw_uid}, need 1000"
print(sys.version.split()[0], md.version("pytest"))
