#!/bin/sh
# Serve Muster. The Dockerfile's CMD runs exactly this, and so does the test suite.
# `muster serve` applies pending migrations once, then starts MUSTER_WORKERS processes (1).
# MUSTER_HOST and MUSTER_PORT choose where it listens (0.0.0.0:8000 here, for a container).
# `exec`: the server itself receives SIGTERM, and finishes the requests in flight before it
# exits (within MUSTER_GRACEFUL_TIMEOUT seconds, 30).
set -eu
exec muster serve --host "${MUSTER_HOST:-0.0.0.0}" --port "${MUSTER_PORT:-8000}"
