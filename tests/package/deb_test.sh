#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` from the build folder, its control fields (Depends names
# Debian's packages); then, as root on a machine where no weft package is installed, apt-get
# installs it, the installed weft runs, find_package and pkg-config find weft under /usr with
# no path given, the example's kernel library builds against it and /usr/bin/weft sweeps it;
# and apt-get purges it again. Skipped (exit 77, with the reason) when not root, or when a
# weft package is installed already (it is not ours to replace). Prints each step's time.
# Usage: deb_test.sh BUILD_DIR SOURCE_DIR [cmake arguments for the example's configure...]
build=$1 source=$2
shift 2
. "$source/tests/package/common.sh"

timed "cpack -G DEB" cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" > "$work/cpack.log" ||
  { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/weft_*.deb)
echo "package: $(basename "$deb"), $(du -h "$deb" | cut -f1)"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for package in libboost-context-dev libboost-fiber-dev libeigen3-dev libtomlplusplus-dev libstdc++6; do
  [[ ", $depends," == *", $package "* || ", $depends," == *", $package,"* ]] ||
    { echo "FAILED: Depends lacks $package"; exit 1; }
done
dpkg-deb -c "$deb" > "$work/contents.txt"
for file in ./usr/bin/weft ./usr/include/weft/weft.hpp ./usr/lib/cmake/weft/weftConfig.cmake ./usr/lib/pkgconfig/weft.pc \
            ./usr/lib/libweft_api.a ./usr/lib/libweft_engine.a ./usr/share/doc/weft/kernel-api.md; do
  grep -q " $file\$" "$work/contents.txt" || { echo "FAILED: the package lacks $file"; exit 1; }
done

if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: installing the package needs root"
  exit 77
fi
exec 9> /tmp/weft-deb-test.lock  # one installing test at a time on this machine
flock 9
if [[ "$(dpkg-query -W -f='${Status}' weft 2> /dev/null || true)" == "install ok installed" ]]; then
  echo "skipped: a weft package is installed already ($(dpkg-query -W -f='${Version}' weft)); remove it with: dpkg -r weft"
  exit 77
fi
trap 'dpkg --purge weft > /dev/null 2>&1 || true; rm -rf "$work"' EXIT  # even when a step fails
timed "apt-get install ./$(basename "$deb")" \
  env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$deb" 2>&1 > "$work/apt.log" ||
  { cat "$work/apt.log"; exit 1; }

[ "$(/usr/bin/weft --version)" = "weft $(dpkg-deb -f "$deb" Version)" ]
[ "$(pkg-config --modversion weft)" = "$(dpkg-deb -f "$deb" Version)" ]
cp -r "$source/examples/own-kernel" "$work/own-kernel"
timed "configure the example against /usr" cmake -S "$work/own-kernel" -B "$work/own-kernel/build" "$@" > "$work/configure.log"
grep -qx "weft_DIR:PATH=/usr/lib/cmake/weft" "$work/own-kernel/build/CMakeCache.txt"
timed "build the kernel library" cmake --build "$work/own-kernel/build" -j2 --target own_kernels > "$work/build.log"
timed "/usr/bin/weft sweep neighbour_shift.toml --seeds 0..999" /usr/bin/weft sweep "$work/own-kernel/neighbour_shift.toml" --seeds 0..999

if [ -d "$build/python/weft" ]; then  # built with the Python package: the .deb ships it
  grep -q " ./usr/lib/python3/dist-packages/weft/__init__.py\$" "$work/contents.txt" ||
    { echo "FAILED: the package lacks the Python package weft"; exit 1; }
  (cd / && env -u PYTHONPATH /usr/bin/python3 -c "import weft; assert weft.__file__.startswith('/usr/lib/python3/dist-packages')")
  timed "/usr/bin/weft sweep kernels.py::right_permute (Python)" \
    /usr/bin/weft sweep "$source/tests/python/kernels.py::right_permute" --seeds 0..99
fi
timed "apt-get purge weft" apt-get purge -y weft 2>&1 > "$work/apt.log"
[ ! -e /usr/bin/weft ] && [ ! -e /usr/include/weft ] || { echo "FAILED: apt-get purge left weft's files"; exit 1; }
echo "deb test: passed"
