#!/usr/bin/env bash
# Builds the SQLite extension the extension tests of lanes-core load (src/test/c/halfext.c, which
# registers half(x)) into a shared library, with gcc against the SQLite headers of Debian's
# libsqlite3-dev (sqlite3ext.h); the build compiles Lanes' native guard (src/main/c) with it too.
# Installs gcc and libsqlite3-dev with apt-get when they are missing and this runs as root.
#
#   build-test-extension.sh SOURCE.c OUTPUT.so
#
# Exits 2 when the tools are missing and cannot be installed (no root, no apt-get), so the tests
# can skip with the reason; 1 when the build itself fails. The tests run this script themselves.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: build-test-extension.sh SOURCE.c OUTPUT.so" >&2
  exit 64
fi
source_file=$1
output=$2

have_tools() {
  command -v gcc >/dev/null 2>&1 && [[ -f /usr/include/sqlite3ext.h ]]
}

if ! have_tools; then
  if [[ "$(id -u)" != 0 ]]; then
    echo "build-test-extension: gcc or libsqlite3-dev (sqlite3ext.h) is missing and installing them needs root (apt-get install gcc libsqlite3-dev)" >&2
    exit 2
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "build-test-extension: gcc or libsqlite3-dev (sqlite3ext.h) is missing and there is no apt-get to install them" >&2
    exit 2
  fi
  export DEBIAN_FRONTEND=noninteractive
  # The package lists of a fresh machine may be empty or stale: update them only when needed.
  if ! apt-get install -y -qq --no-install-recommends gcc libc6-dev libsqlite3-dev >/dev/null 2>&1; then
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends gcc libc6-dev libsqlite3-dev >/dev/null
  fi
  if ! have_tools; then
    echo "build-test-extension: gcc and libsqlite3-dev installed, but gcc or /usr/include/sqlite3ext.h is still missing" >&2
    exit 1
  fi
fi

gcc -shared -fPIC -O2 -Wall -Werror -o "$output" "$source_file"
echo "build-test-extension: built $output with $(gcc -dumpfullversion 2>/dev/null || gcc -dumpversion)"
