#!/usr/bin/env bash
# Install Desktop RAG into the project's own virtual environment (.venv), made with the system python3.
# Usage: scripts/install.sh [extras]        e.g. scripts/install.sh dev   (extras: dev, build, or dev,build)
# Never installs into the system Python. Re-running is quick: nothing is reinstalled while .venv matches
# pyproject.toml (a stamp file records what was installed).
# Environment (all optional):
#   PYTHON=/usr/bin/python3.12      the interpreter that creates .venv (default: python3 >= 3.11 on PATH)
#   DESKTOP_RAG_TORCH_INDEX=URL     where the CPU build of PyTorch comes from ("" = only pip's own settings)
#   DESKTOP_RAG_INSTALL_FORCE=1     reinstall even when the stamp matches
#   DESKTOP_RAG_INSTALL_NO_DEPS=1   create .venv and install only the app itself, without its dependencies
#                                   (used by the install test to stay fast; the app does not run like that)
set -euo pipefail
cd "$(dirname "$0")/.."

extras="${1:-}"
VENV=".venv"
VPY="$VENV/bin/python"
STAMP="$VENV/.desktop-rag-install"
TORCH="torch==2.13.0"  # pinned and installed first: an unpinned torch can pull a multi-GB CUDA build
MIN_MINOR=11           # pyproject.toml: requires-python >= 3.11

say() { printf '%s\n' "$*" >&2; }
die() { say ""; say "install.sh: $*"; exit 1; }

distro_ids() {
  [ -r /etc/os-release ] || return 0
  (. /etc/os-release && printf ' %s %s ' "${ID:-}" "${ID_LIKE:-}")
}

# What to install when no suitable python3 (or its venv module) is found: $1 = "old" or "venv".
python_hint() {
  case "$(uname -s)" in
    Darwin) echo "brew install python@3.12    (or the macOS installer from https://www.python.org/downloads/)" ;;
    Linux)
      case "$(distro_ids)" in
        *" debian "* | *" ubuntu "*)
          if [ "$1" = venv ]; then echo "sudo apt install python3-venv"
          else echo "sudo apt install python3.11 python3.11-venv    (Ubuntu 22.04: from the universe repository)"; fi ;;
        *" fedora "* | *" rhel "* | *" centos "*) echo "sudo dnf install python3.11" ;;
        *" arch "*) echo "sudo pacman -S python" ;;
        *suse*) echo "sudo zypper install python311" ;;
        *) echo "install Python 3.11 or newer, with its venv module, from your distribution" ;;
      esac ;;
    *) echo "install Python 3.11 or newer from https://www.python.org/downloads/" ;;
  esac
}

python_ok() { "$1" -c "import sys; sys.exit(sys.version_info < (3, $MIN_MINOR))" >/dev/null 2>&1; }

find_python() {
  if [ -n "${PYTHON:-}" ]; then
    python_ok "$PYTHON" || die "PYTHON=$PYTHON is not Python 3.$MIN_MINOR or newer."
    command -v "$PYTHON"; return
  fi
  local c
  for c in python3 python3.13 python3.12 python3.11; do
    if command -v "$c" >/dev/null 2>&1 && python_ok "$c"; then command -v "$c"; return; fi
  done
  local found; found="$(command -v python3 2>/dev/null || true)"
  if [ -n "$found" ]; then
    die "Desktop RAG needs Python 3.$MIN_MINOR or newer; $found is $("$found" -c 'import platform; print(platform.python_version())' 2>/dev/null || echo 'unusable').
Install a newer one:  $(python_hint old)
then run this script again (or point it at one: PYTHON=/path/to/python3.12 scripts/install.sh)."
  fi
  die "No python3 found on PATH. Install Python 3.$MIN_MINOR or newer:  $(python_hint old)"
}

make_venv() {
  if [ -x "$VPY" ] && python_ok "$VPY"; then return; fi
  if [ -e "$VENV" ]; then say "Replacing $VENV: its Python no longer runs or is too old."; rm -rf "$VENV"; fi
  local py; py="$(find_python)"
  "$py" -c "import venv, ensurepip" >/dev/null 2>&1 \
    || die "$py has no venv module (Debian and Ubuntu ship it separately). Install it:  $(python_hint venv)"
  say "Creating $VENV with $py ($("$py" -c 'import platform; print(platform.python_version())'))"
  "$py" -m venv "$VENV" || die "Could not create $VENV with $py. Install the venv module:  $(python_hint venv)"
}

# Where the CPU build of torch comes from. PyPI's Linux x86_64 torch is the CUDA build (gigabytes); the CPU
# build is on PyTorch's own index. If pip is already configured with its own sources (a mirror, a local
# wheel folder), those are used as they are. macOS, Windows and Linux arm64 get the CPU build from PyPI.
torch_index_args() {
  if [ -n "${DESKTOP_RAG_TORCH_INDEX+set}" ]; then
    [ -n "$DESKTOP_RAG_TORCH_INDEX" ] && echo "--extra-index-url $DESKTOP_RAG_TORCH_INDEX"
    return 0
  fi
  [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || return 0
  local config; config="$("$VPY" -m pip config list 2>/dev/null || true)"
  case "$config" in *index-url=* | *find-links=*) return 0 ;; esac  # pip has its own sources: use them
  echo "--extra-index-url https://download.pytorch.org/whl/cpu"
}

stamp_hash() {
  { cat pyproject.toml; echo "$TORCH ${DESKTOP_RAG_INSTALL_NO_DEPS:-0}"; "$VPY" -c 'import sys; print(sys.version)'; } \
    | "$VPY" -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())'
}

# True when the stamp matches pyproject.toml and already covers the requested extras.
up_to_date() {
  [ -z "${DESKTOP_RAG_INSTALL_FORCE:-}" ] && [ -f "$STAMP" ] || return 1
  [ "$(sed -n 1p "$STAMP")" = "$(stamp_hash)" ] || return 1
  "$VPY" -I -c "import desktop_rag" >/dev/null 2>&1 || return 1  # -I: not from the current folder
  local have e; have=",$(sed -n 2p "$STAMP"),"
  for e in ${extras//,/ }; do case "$have" in *",$e,"*) ;; *) return 1 ;; esac; done
}

pip_install() {
  local all target; all="$(sed -n 2p "$STAMP" 2>/dev/null || true)"
  [ -n "$extras" ] && all="${all:+$all,}$extras"
  all="$(printf '%s' "$all" | tr ',' '\n' | sed '/^$/d' | sort -u | paste -sd, -)"
  target="."; [ -n "$all" ] && target=".[$all]"
  if [ -n "${DESKTOP_RAG_INSTALL_NO_DEPS:-}" ]; then
    say "Installing the app only (DESKTOP_RAG_INSTALL_NO_DEPS): no dependencies, the app will not run."
    "$VPY" -m pip install --quiet --no-deps -e "$target"
  else
    say "Installing PyTorch (CPU build) into $VENV ..."
    # shellcheck disable=SC2046  # the index arguments are meant to split
    "$VPY" -m pip install --quiet $(torch_index_args) "$TORCH"
    say "Installing Desktop RAG${all:+ with [$all]} and its dependencies into $VENV ..."
    "$VPY" -m pip install --quiet -e "$target"
  fi
  printf '%s\n%s\n' "$(stamp_hash)" "$all" >"$STAMP"
  installed_now=1
}

# The window needs a few system libraries that minimal Linux installs lack (Qt's xcb plugin). The app checks
# them again before it opens a window; here they are installed when we may (root with apt-get), else named.
check_qt_libraries() {
  [ "$(uname -s)" = Linux ] && [ -z "${DESKTOP_RAG_INSTALL_NO_DEPS:-}" ] || return 0
  local packages
  packages="$("$VPY" -m desktop_rag.platform_check --packages 2>/dev/null || true)"
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    # Chinese text needs a CJK font; minimal images have none.
    # (No fc-list at all means no fontconfig, so no CJK font either: the OCR and PDF tests need one.)
    if ! command -v fc-list >/dev/null 2>&1 || [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then
      packages="$packages fonts-noto-cjk"
    fi
    # One TrueType file with CJK glyphs: the PDF tests and bench/pdf_extraction embed it in the PDFs they write.
    if [ ! -e /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf ] && apt-cache show fonts-droid-fallback >/dev/null 2>&1; then
      packages="$packages fonts-droid-fallback"
    fi
  fi
  if [ -n "${packages// /}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "Installing the system libraries the window needs: $packages"
    # shellcheck disable=SC2086
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >/dev/null \
      || say "apt-get could not install them (see above); the app still works without a window."
  fi
  # Name what is still missing after an install (on later runs the app itself says it, when a window is wanted).
  if [ -n "${installed_now:-}" ]; then "$VPY" -m desktop_rag.platform_check --quiet || true; fi
}

installed_now=""
make_venv
if up_to_date; then
  say "Desktop RAG is already installed in $VENV (up to date with pyproject.toml)."
else
  pip_install
fi
check_qt_libraries
say "Done. Start the app: scripts/start.sh   (or $VPY -m desktop_rag)"
