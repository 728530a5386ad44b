#!/usr/bin/env bash
# The example project (examples/own-kernel, copied elsewhere) with weft built inside it through
# FetchContent of this checkout instead of installed: its ctest lists its own 4 tests and no
# test of weft's, it builds without Catch2 or Google Benchmark being asked for by weft, and its
# tests pass. Prints each step's time (weft's libraries are compiled again here).
# Usage: fetchcontent_test.sh SOURCE_DIR [cmake arguments for the example's configure...]
source=$1
shift
. "$source/tests/package/common.sh"

project=$work/own-kernel
cp -r "$source/examples/own-kernel" "$project"
timed "configure the example (FetchContent of the checkout)" \
  cmake -S "$project" -B "$project/build" -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES="$source/tests/package/fetch_weft.cmake" \
        -DWEFT_CHECKOUT="$source" "$@" > "$work/configure.log"
grep -q "^WEFT_BUILD_TESTS:BOOL=OFF" "$project/build/CMakeCache.txt"
if grep -q "^benchmark_DIR" "$project/build/CMakeCache.txt"; then
  echo "FAILED: weft looked for Google Benchmark"
  exit 1
fi
# The example's targets and the weft libraries they link (weft's own executable is not built).
timed "build the example and weft's libraries" \
  cmake --build "$project/build" -j2 --target own_kernels neighbour_shift_test > "$work/build.log" ||
  { tail -50 "$work/build.log"; exit 1; }
# Catch2's tests are listed once their executable is built.
tests=$(ctest --test-dir "$project/build" -N | sed -n 's/^Total Tests: //p')
[ "$tests" = 4 ] || { echo "FAILED: the example's ctest -N lists $tests tests, not its 4:"; ctest --test-dir "$project/build" -N; exit 1; }
timed "ctest (the example's unit tests)" ctest --test-dir "$project/build" --output-on-failure
echo "fetchcontent test: passed"
