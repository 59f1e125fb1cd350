#!/usr/bin/env bash
# Installs the Debian packages in packaging/debian-packages.txt that are missing, and nothing else.
# Idempotent: a second run installs nothing. Usage: packaging/setup.sh [build|test]... (default: all sections)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sections=("$@")
[ ${#sections[@]} -gt 0 ] || sections=(build test)  # bench is only for the benchmarks (tests/bench)

wanted=()
while read -r section package _; do
  [[ -z "${section}" || "${section}" == \#* ]] && continue
  for s in "${sections[@]}"; do [[ "$s" == "$section" ]] && wanted+=("$package"); done
done < "$here/debian-packages.txt"

missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#wanted[@]} packages are installed"
  exit 0
fi
echo "setup: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
