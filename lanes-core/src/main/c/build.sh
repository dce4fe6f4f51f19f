#!/usr/bin/env bash
# Builds Lanes' native guard (lanesguard.c, a SQLite loadable extension; see SqliteGuard) into the
# classes directory given as $1, as dev/lanes/internal/sqlite/lanes-guard/linux-<arch>/
# liblanesguard.so, where SqliteGuard finds it. It compiles with scripts/build-test-extension.sh
# (gcc against sqlite3ext.h of Debian's libsqlite3-dev, which it installs with apt-get when it
# runs as root). Without them it says so and builds nothing: the runtime then runs without
# SQLite's defensive mode and authorizer, and the tests that need them are skipped with this
# message.
set -euo pipefail

out_root=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if [[ "$(uname -s)" != Linux ]]; then
  echo "lanes guard: the native guard is built on Linux only; not built on $(uname -s)"
  exit 0
fi
case "$(uname -m)" in
  x86_64 | amd64) arch=x86_64 ;;
  aarch64 | arm64) arch=aarch64 ;;
  *) echo "lanes guard: no native guard for $(uname -m); not built"; exit 0 ;;
esac

dir="$out_root/dev/lanes/internal/sqlite/lanes-guard/linux-$arch"
mkdir -p "$dir"
status=0
bash "$here/../../../scripts/build-test-extension.sh" "$here/lanesguard.c" \
  "$dir/liblanesguard.so" || status=$?
if [[ $status == 2 ]]; then
  echo "lanes guard: not built (install gcc and libsqlite3-dev)"
  exit 0
fi
exit $status
