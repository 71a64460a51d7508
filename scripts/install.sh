#!/bin/sh
# Install Muster for running (no test or development tools). The Dockerfile runs exactly this.
set -eu
cd "$(dirname "$0")/.."
python -m pip install --no-cache-dir .
