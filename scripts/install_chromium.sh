#!/bin/sh
# Installs Debian's chromium package for the browser tests (tests/browser), which drive
# /usr/bin/chromium with Playwright: Playwright's own browser downloads do not work on these
# machines. Idempotent: does nothing when /usr/bin/chromium is already there. Needs root (apt-get).
set -eu

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install_chromium.sh: $CHROMIUM is missing, and installing it needs root." >&2
    echo "  Run as root: apt-get update && apt-get install -y chromium" >&2
    echo "  (or: sudo scripts/install_chromium.sh). The browser tests fail without it." >&2
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install_chromium.sh: $CHROMIUM is missing and this system has no apt-get." >&2
    echo "  Install Chromium so that it runs as $CHROMIUM; the browser tests fail without it." >&2
    exit 1
fi

echo "install_chromium.sh: installing Debian's chromium package for the browser tests" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -q || ! apt-get install -y -q chromium; then
    echo "install_chromium.sh: apt-get could not install chromium (see above)." >&2
    exit 1
fi

if [ ! -x "$CHROMIUM" ]; then
    echo "install_chromium.sh: the chromium package installed, but $CHROMIUM is still missing." >&2
    exit 1
fi
"$CHROMIUM" --version >&2 || true
