/** The LiveCodeBench sandbox image: Debian bookworm, python3.11, pytest, git, user `agent` (uid 1000). */
export const PYTHON_IMAGE = 'impossiblebench/python:3.11';
