#!/usr/bin/env bash
# Runs one weft command under Valgrind's memcheck: any error, or a definite or indirect leak,
# fails the test. Skipped (exit 77) when valgrind is not installed.
# Usage: valgrind_test.sh WEFT_BINARY SOURCE_DIR ARGS...
set -uo pipefail
weft="$1"
source_dir="$2"
shift 2
command -v valgrind > /dev/null || { echo "valgrind is not installed: skipped"; exit 77; }
cd "$source_dir"
log=$(mktemp)
# weft allocates with jemalloc (WEFT_JEMALLOC): memcheck replaces its malloc as glibc's.
valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --quiet \
  --soname-synonyms=somalloc='libjemalloc.so*' \
  "$weft" "$@" > "$log" 2>&1
status=$?
cat "$log"
rm -f "$log"
[ "$status" -eq 99 ] && echo "valgrind found errors (above)"
exit "$status"
