#!/usr/bin/env bash
# The C++ sources are formatted as .clang-format says: clang-format --dry-run over every C++
# file of the tree fails on the first difference, naming the file and line.
# Usage: check_format.sh SOURCE_DIR
# Exit 77 (ctest: skipped) when Debian 12's clang-format 14 is not installed (scripts/setup
# installs it): another version formats some constructs otherwise.
set -euo pipefail
source_dir=$1
formatter=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$formatter" ]; then
  echo "SKIPPED: clang-format is not installed (scripts/setup installs it)"
  exit 77
fi
version=$("$formatter" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$version" != 14 ]; then
  echo "SKIPPED: clang-format $version; the tree is formatted with Debian 12's clang-format 14"
  exit 77
fi
cd "$source_dir"
mapfile -t files < <(find app bench examples fuzz model python scenarios scheduler sim tests \
  -type f \( -name '*.cpp' -o -name '*.hpp' \) | sort)
[ "${#files[@]}" -gt 400 ] || { echo "FAILED: only ${#files[@]} C++ files found under $source_dir"; exit 1; }
"$formatter" --dry-run --Werror "${files[@]}"
echo "${#files[@]} files formatted as .clang-format says"
