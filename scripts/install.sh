#!/bin/sh
# Install Muster for running, with the PostgreSQL driver (no test or development tools). The
# Dockerfile runs exactly this, and so does the test suite, into a fresh virtual environment
# (tests/integration/test_deploy.py).
# PYTHON chooses the interpreter (default: the `python` on PATH).
#
# Installed in place (editable): the app reads its templates, static files and migrations from
# this directory, beside the `app` package, so the directory stays where it is after installing.
set -eu
cd "$(dirname "$0")/.."
"${PYTHON:-python}" -m pip install --no-cache-dir --editable '.[postgres]'
