#!/usr/bin/env bash
# Install, then start the desktop app (on a machine without a display: a headless demo on the samples).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh
exec desktop-rag "$@"
