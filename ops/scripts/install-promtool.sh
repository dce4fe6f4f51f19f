#!/usr/bin/env bash
# Provides promtool (Prometheus' rule checker) for the tests of ops/prometheus, from Debian's
# "prometheus" package and from nowhere else. The package is downloaded and unpacked, not
# installed: installing it would start a Prometheus server on this machine.
#
#   install-promtool.sh TARGET_DIR
#
# Prints the path of a working promtool on the last line of stdout: the one on the PATH when
# there is one, else TARGET_DIR/usr/bin/promtool (unpacked again only when missing). Needs
# apt-get (Debian, Ubuntu); runs "apt-get update" first when apt has no package lists, which
# needs root.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 TARGET_DIR" >&2
  exit 2
fi
target="$1"

if command -v promtool >/dev/null 2>&1; then
  echo "install-promtool: using $(command -v promtool)" >&2
  command -v promtool
  exit 0
fi

binary="$target/usr/bin/promtool"
if [[ ! -x "$binary" ]]; then
  if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-deb >/dev/null 2>&1; then
    echo "install-promtool: needs apt-get and dpkg-deb (Debian's prometheus package)" >&2
    exit 1
  fi
  if ! apt-cache show prometheus >/dev/null 2>&1; then
    if [[ "$(id -u)" != 0 ]]; then
      echo "install-promtool: apt knows no 'prometheus' package and only root may run" \
        "apt-get update" >&2
      exit 1
    fi
    echo "install-promtool: apt-get update" >&2
    apt-get update -qq >&2
  fi
  mkdir -p "$target"
  download="$target/download"
  rm -rf "$download"
  mkdir -p "$download"
  echo "install-promtool: apt-get download prometheus (about 20 MB), unpacking promtool" >&2
  sandbox=()
  if [[ "$(id -u)" == 0 ]]; then
    sandbox=(-o APT::Sandbox::User=root) # the download directory is not _apt's
  fi
  (cd "$download" && apt-get download -qq "${sandbox[@]}" prometheus >&2)
  deb="$(ls "$download"/prometheus_*.deb | head -n 1)"
  dpkg-deb -x "$deb" "$target/unpacked"
  mkdir -p "$target/usr/bin"
  cp "$target/unpacked/usr/bin/promtool" "$binary"
  rm -rf "$download" "$target/unpacked"
fi

if ! "$binary" --version >/dev/null 2>&1; then
  echo "install-promtool: $binary does not run" >&2
  exit 1
fi
echo "install-promtool: $("$binary" --version 2>&1 | head -n 1) at $binary" >&2
echo "$binary"
