#!/usr/bin/env bash
# Installs libfiu for the I/O-fault tests of lanes-core (src/test/java/dev/lanes/iofault) from
# Debian's packages: fiu-utils (fiu-run, fiu-ctrl) and libfiu0 (the preload libraries, among them
# /usr/lib/fiu/fiu_posix_preload.so, which fails POSIX calls such as pwrite and fsync on demand).
#
#   install-libfiu.sh
#
# A no-op when libfiu is already there. Needs root and apt-get; exits 2 without them, so the
# tests can skip with the reason. The tests run this script themselves when libfiu is missing.
set -euo pipefail

preload=/usr/lib/fiu/fiu_posix_preload.so

installed() {
  command -v fiu-run >/dev/null 2>&1 && command -v fiu-ctrl >/dev/null 2>&1 && [[ -f "$preload" ]]
}

if installed; then
  exit 0
fi
if [[ "$(id -u)" != 0 ]]; then
  echo "install-libfiu: libfiu is missing and installing it needs root (apt-get install fiu-utils libfiu0)" >&2
  exit 2
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-libfiu: libfiu is missing and there is no apt-get to install fiu-utils and libfiu0" >&2
  exit 2
fi

export DEBIAN_FRONTEND=noninteractive
# The package lists of a fresh machine may be empty or stale: update them only when needed.
if ! apt-get install -y -qq --no-install-recommends fiu-utils libfiu0 >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends fiu-utils libfiu0 >/dev/null
fi

if ! installed; then
  echo "install-libfiu: fiu-utils and libfiu0 installed, but fiu-run, fiu-ctrl or $preload is missing" >&2
  exit 1
fi
echo "install-libfiu: $(dpkg-query -W -f='fiu-utils ${Version}, libfiu0 ${Version}' fiu-utils 2>/dev/null || echo installed)"
