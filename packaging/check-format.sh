#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format (the checked-in .clang-format) makes of it, or when a
# line of it, of a shader, a script or a CMake file is longer than 120 columns.
# Usage: packaging/check-format.sh [--fix]   (--fix rewrites the C++ files in place)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mapfile -t files < <(git ls-files '*.cpp' '*.h')
mapfile -t others < <(git ls-files '*.c' '*.glsl' '*.comp' '*.py' '*.sh' '*.mjs' '*.cmake' '*CMakeLists.txt')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
status=0
if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/flowscope-format.$$; then
  grep -E "^[^ ].*: (error|warning)" /tmp/flowscope-format.$$ | cut -d: -f1 | sort -u | sed 's/^/  /' | head -40
  echo "format: the files above differ from clang-format's output; run packaging/check-format.sh --fix"
  status=1
fi
rm -f /tmp/flowscope-format.$$
wide=$(awk 'length > 120 {print FILENAME ":" FNR}' "${files[@]}" "${others[@]}" | head -20)
if [ -n "$wide" ]; then
  echo "$wide" | sed 's/^/  /'
  echo "format: lines over 120 columns (above)"
  status=1
fi
[ $status -eq 0 ] &&
  echo "format: ${#files[@]} files clang-format clean, no line over 120 columns in them or ${#others[@]} others"
exit $status
