#!/usr/bin/env bash
# Installs the Debian packages lbmc needs to build, test and run, and nothing
# when they are all present (quiet then). Needs root for apt-get.
set -euo pipefail

packages=(
  g++ make cmake git dpkg-dev
  libeigen3-dev libboost-dev libpcg-cpp-dev doctest-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev zlib1g-dev python3-numpy gnuplot-nox help2man man-db
  python3-dev pybind11-dev python3-pandas python3-pytest python3-tqdm python3-matplotlib librandom123-dev
  libopenmpi-dev openmpi-bin
  clang libclang-rt-dev libomp-dev
)

missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo_cmd=()
[[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
