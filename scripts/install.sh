#!/usr/bin/env bash
# Install Desktop RAG and its dependencies into the current Python, with the CPU build of PyTorch.
# Usage: scripts/install.sh [extras]   e.g. scripts/install.sh dev
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
target="."
[ -n "$extras" ] && target=".[$extras]"
# torch==2.13.0 first and pinned: an unpinned torch would pull a multi-GB CUDA build.
python -m pip install --quiet "torch==2.13.0" -e "$target"
# Qt needs a few system libraries that minimal Linux images lack (offscreen tests and the window).
if [ "$(uname -s)" = "Linux" ] && ! QT_QPA_PLATFORM=offscreen python -c \
    "from PySide6.QtWidgets import QApplication; QApplication([])" >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq libegl1 libgl1 libxkbcommon0 libfontconfig1 libdbus-1-3 \
      libxcb-cursor0 libxkbcommon-x11-0 fonts-noto-cjk >/dev/null
  else
    echo "Qt could not start: install your system's EGL/OpenGL, xkbcommon and fontconfig libraries." >&2
  fi
fi
