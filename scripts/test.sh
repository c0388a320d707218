#!/usr/bin/env bash
# Install with the test extras (into .venv, once), then run the whole test suite (GUI tests run offscreen).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh dev
export QT_QPA_PLATFORM=offscreen HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
