#!/usr/bin/env bash
# Install (into .venv, once), then start the desktop app; on a machine without a display: a headless demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh
exec .venv/bin/python -m desktop_rag "$@"
