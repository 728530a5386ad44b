#!/usr/bin/env bash
# weft as a kernel author gets it, from outside weft's tree: installed into a temporary prefix;
# the example project (examples/own-kernel, copied elsewhere) built against it with
# find_package, its unit tests run; its kernel library swept by the installed weft through the
# scenario file's `kernels` key and through --kernels, listed with its origin, and its planted
# race found and replayed; then the same kernel built with pkg-config alone, as a kernel
# library and as a program of its own (weft::main) with every verb. Prints each step's time.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR [cmake arguments for the example's configure...]
build=$1 source=$2
shift 2
. "$source/tests/package/common.sh"
prefix=$work/prefix
weft=$prefix/bin/weft

timed "cmake --install (into a temporary prefix)" cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for file in bin/weft include/weft/weft.hpp lib/cmake/weft/weftConfig.cmake lib/cmake/weft/weftConfigVersion.cmake \
            lib/pkgconfig/weft.pc share/doc/weft/README.md share/doc/weft/kernel-api.md; do
  [ -f "$prefix/$file" ] || { echo "FAILED: not installed: $file"; exit 1; }
done
[ "$(ls "$prefix/include")" = weft ] || { echo "FAILED: headers outside include/weft: $(ls "$prefix/include")"; exit 1; }
[ "$("$weft" --version)" = "weft $(sed -n 's/^Version: //p' "$prefix/lib/pkgconfig/weft.pc")" ]

project=$work/own-kernel  # the example as a user's own folder
cp -r "$source/examples/own-kernel" "$project"
timed "configure the example (find_package)" \
  cmake -S "$project" -B "$project/build" -DCMAKE_PREFIX_PATH="$prefix" "$@" > "$work/configure.log"
grep -qx "weft_DIR:PATH=$prefix/lib/cmake/weft" "$project/build/CMakeCache.txt" ||
  { echo "FAILED: find_package did not take the installed weft"; grep weft_DIR "$project/build/CMakeCache.txt"; exit 1; }
timed "build the kernel library (weft::plugin)" cmake --build "$project/build" -j2 --target own_kernels > "$work/build.log"
timed "build the unit test (weft::weft, Catch2)" cmake --build "$project/build" -j2 >> "$work/build.log"
tests=$(ctest --test-dir "$project/build" -N | sed -n 's/^Total Tests: //p')
[ "$tests" = 4 ] || { echo "FAILED: the example's ctest -N lists $tests tests, not its 4"; exit 1; }
timed "ctest (the example's unit tests)" ctest --test-dir "$project/build" --output-on-failure > "$work/ctest.log" ||
  { cat "$work/ctest.log"; exit 1; }

cd "$work"  # the scenario file finds its library relative to itself, not to here
timed "weft sweep neighbour_shift.toml --seeds 0..999" "$weft" sweep own-kernel/neighbour_shift.toml --seeds 0..999
library=own-kernel/build/libown_kernels.so
timed "weft sweep neighbour_shift --kernels ... --strategy pct" \
  "$weft" sweep neighbour_shift --kernels "$library" --seeds 0..199 --strategy pct
"$weft" list --kernels "$library" | grep -E "^scenario  neighbour_shift +$library  each device clears"
"$weft" list --kernels "$library" | grep -E "^scenario  ring_all_reduce +built in "
fails_with 1 "$weft" run own-kernel/neighbour_shift.toml --set params.handshake=0 > race.txt
grep -q "data race on hbm buffer 2 'out'" race.txt
replay=$(grep -m1 -- "--set params.handshake=0 --seed 0" race.txt)
fails_with 1 $replay > replayed.txt
cmp race.txt replayed.txt

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
timed "g++ \$(pkg-config --cflags weft) -shared: a kernel library" \
  g++ -O2 -shared -fPIC $(pkg-config --cflags weft) own-kernel/neighbour_shift.cpp -o libshift.so
"$weft" sweep neighbour_shift --kernels ./libshift.so --seeds 0..99
cat > my_weft.cpp <<'PROGRAM'
#include <weft/weft.hpp>

weft::sim::ScenarioDefinition neighbour_shift();

int main(int argc, char** argv) { return weft::main(argc, argv, {neighbour_shift()}); }
PROGRAM
timed "g++ ... \$(pkg-config --cflags --libs weft): a program with weft::main" \
  g++ -O2 my_weft.cpp own-kernel/neighbour_shift.cpp $(pkg-config --cflags --libs weft) -o my_weft
./my_weft list | grep -E "^scenario  neighbour_shift +built in "
./my_weft sweep neighbour_shift --seeds 0..99
./my_weft bench --help > /dev/null
fails_with 2 ./my_weft frob 2> verbs.txt
grep -q "unknown verb 'frob'; the verbs: list, run, replay, sweep, explore, merge, bench" verbs.txt
# Kernel libraries are for the stock weft: a program linked from the static libraries exports
# none of weft, so loading one fails cleanly (docs/kernel-api.md).
fails_with 2 ./my_weft list --kernels "$library" 2> loaded.txt
grep -q "$library: cannot load this kernel library: .*undefined symbol" loaded.txt

# The Python package, installed into the prefix's Python path: imported from there by Debian's
# python3 (nothing of the build tree on its path), its pytest suite run against the install, and
# the installed weft handing a script to it.
if [ -d "$build/python/weft" ]; then
  site=$(ls -d "$prefix"/lib/python3*/*-packages)
  env -u PYTHONPATH PYTHONPATH="$site" /usr/bin/python3 -c "import weft, sys; assert weft.__file__.startswith('$prefix'), weft.__file__"
  timed "pytest of the installed Python package" env PYTHONPATH="$site" WEFT_BINARY="$weft" \
    /usr/bin/python3 -m pytest -q -p no:cacheprovider "$source/tests/python/test_scenarios.py"
  "$weft" sweep "$source/tests/python/kernels.py::right_permute" --seeds 0..99
fi
echo "install test: passed"
