#!/bin/sh
# Apply pending migrations once, then serve. The Dockerfile's CMD runs exactly this.
# MUSTER_HOST, MUSTER_PORT and MUSTER_WORKERS choose where and how many processes.
set -eu
muster migrate
exec muster serve --host "${MUSTER_HOST:-0.0.0.0}" --port "${MUSTER_PORT:-8000}" \
  --workers "${MUSTER_WORKERS:-1}"
