#!/usr/bin/env bash
# Browser test of the HTML timeline, looked at as a person would, in Debian's headless chromium:
#   - a race weft finds (a sweep of the early-reuse all-gather): opened as it opens, on the
#     failure (boxes, arrows, both racing accesses, the broken chain, the explanation), and in
#     the causal view (#causal: fewer lanes, the chain still drawn);
#   - a program of two launches on 4 devices, at fit: a boundary per device where its second
#     launch begins;
#   - a 64-device ring all-gather of 24,576 steps: at fit (#view=fit: one activity band per
#     device, arrows as counts) and at 100 % (#view=100: boxes, only what is in view);
#   - no console message on any page; every page ends its script (body[data-ready]);
#   - the figures, printed, not asserted: the large page's size (it must stay under 5 MB, which
#     is asserted) and the time to interactive of each view (body[data-ready-ms], milliseconds
#     from navigation to the end of the first drawing).
# Screenshots of each view are written to ARTIFACTS/*.png.
# Usage: timeline_test.sh WEFT SOURCE_DIR ARTIFACTS
# Exit 77 (ctest: skipped) only when chromium is not installed; scripts/setup installs it.
set -euo pipefail
weft=$1
source_dir=$2
artifacts=$3

browser=$(command -v chromium || true)
if [ -z "$browser" ]; then
  echo "SKIPPED: chromium is not installed (scripts/setup installs it: apt-get install chromium)"
  exit 77
fi

mkdir -p "$artifacts"
artifacts=$(cd "$artifacts" && pwd)  # file:// URLs need an absolute path
weft=$(cd "$(dirname "$weft")" && pwd)/$(basename "$weft")
rm -f "$artifacts"/*.html "$artifacts"/*.png "$artifacts"/sweep.jsonl "$artifacts"/*.log
cd "$source_dir"

fail() {
  echo "FAILED: $*"
  exit 1
}

# A race weft finds: the first failing seed of a sweep that expects none.
"$weft" sweep scenarios/ring_all_gather_early_reuse_race.toml --seeds 0..199 --expect ok --shrink-budget 0 \
  --jsonl "$artifacts/sweep.jsonl" > /dev/null || true
seed=$(sed -n 's/.*"seed":\([0-9][0-9]*\).*"verdict":"data_race".*/\1/p' "$artifacts/sweep.jsonl" | head -n 1)
[ -n "$seed" ] || fail "the sweep found no race (see $artifacts/sweep.jsonl)"
echo "race at seed $seed"
"$weft" run scenarios/ring_all_gather_early_reuse_race.toml --seed "$seed" --html "$artifacts/race.html" > /dev/null ||
  fail "weft run --seed $seed did not give the expected data_race"
"$weft" run ring_all_gather --set topology.devices=64 --seed 0 --html "$artifacts/big.html" > "$artifacts/big.txt" ||
  fail "the 64-device ring all-gather did not run as expected"
grep -q "seed 0, 24576 steps" "$artifacts/big.txt" || fail "the 64-device run is not 24,576 steps long ($artifacts/big.txt)"

# A program of two launches on 4 devices: where each device's second launch begins.
"$weft" run scenarios/pallas_reduce_scatter_two_launches.toml --seed 0 --html "$artifacts/launches.html" > /dev/null ||
  fail "the two-launch reduce-scatter did not give the expected ok"

for page in race big launches; do
  if grep -q 'http' "$artifacts/$page.html"; then fail "$page.html names a URL (it must fetch nothing)"; fi
done
big_bytes=$(stat -c %s "$artifacts/big.html")
echo "figure: the 64-device, 24,576-step page is $big_bytes bytes"
[ "$big_bytes" -lt 5000000 ] || fail "the 64-device page is $big_bytes bytes, not under 5 MB"

run_browser() {  # run_browser LOG URL ARGS...: a fresh profile each time, no network services
  local log=$1 url=$2
  shift 2
  local profile
  profile=$(mktemp -d)
  local status=0
  timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
    --enable-logging=stderr --v=0 --window-size=1400,900 "$@" "$url" 2> "$log" || status=$?
  rm -rf "$profile"
  [ "$status" -eq 0 ] || fail "chromium exited with $status (see $log)"
  if grep -q ':CONSOLE' "$log"; then
    grep ':CONSOLE' "$log"
    fail "the page $url wrote to the console"
  fi
}

dom=""
count() { (grep -o -- "$1" "$dom" || true) | wc -l; }
check() {  # check DESCRIPTION PATTERN [MIN_COUNT [MAX_COUNT]]
  local found
  found=$(count "$2")
  [ "$found" -ge "${3:-1}" ] || fail "$1: found $found of '$2' in the DOM ($dom)"
  [ -z "${4:-}" ] || [ "$found" -le "$4" ] || fail "$1: found $found of '$2' in the DOM, more than $4 ($dom)"
  echo "ok: $1 ($found)"
}
attribute() { sed -n "s/.*<$1[^>]* $2=\"\([^\"]*\)\".*/\1/p" "$dom" | head -n 1; }

view() {  # view NAME PAGE FRAGMENT: the DOM after the script ran, and a screenshot
  local name=$1 page=$2 fragment=$3
  dom="$artifacts/$name.dom.html"
  # The DOM without the page's data and script, whose text would match the patterns below.
  run_browser "$artifacts/$name.log" "file://$artifacts/$page.html$fragment" --dump-dom |
    perl -0pe 's/<script.*?<\/script>//gs' > "$dom"
  run_browser "$artifacts/$name-screenshot.log" "file://$artifacts/$page.html$fragment" --hide-scrollbars \
    --screenshot="$artifacts/$name.png"
  [ -s "$artifacts/$name.png" ] || fail "no screenshot of $name"
  check "$name: the script ran to its end" 'data-ready="yes"'
  echo "figure: $name is interactive $(attribute body data-ready-ms) ms after navigation" \
    "(its script started at $(attribute body data-script-start-ms) ms)"
  echo "screenshot: $artifacts/$name.png"
}

view race race ""
check "the header" 'id="run-header"'
check "the verdict in the header" '<b>data_race</b>'
check "the seed in the header" "<td id=\"seed\">seed $seed,"
check "the description" 'id="description"'
check "the explanation, down to the line to move" 'move device [0-9]* core 0.s signal of semaphore [0-9]* .capacity. at line'
check "boxes, not bands, when the run fits" 'data-lod="boxes"'
check "lane labels, for the lanes in view" 'class="lane-label"' 8
check "the first racing access" 'id="mark-0"'
check "the second racing access" 'id="mark-1"'
check "operation boxes" 'class="op ' 100
check "signal-to-wait arrows" 'class="wake' 10
check "the broken chain, highlighted" 'class="wake chain"' 1
all_lanes=$(attribute svg data-visible-lanes)

view race-causal race "#causal"
check "the causal view is on" 'data-causal="on"'
causal_lanes=$(attribute svg data-visible-lanes)
[ "$causal_lanes" -lt "$all_lanes" ] || fail "the causal view shows $causal_lanes lanes of $all_lanes"
echo "ok: the causal view shows $causal_lanes of $all_lanes lanes"
check "the broken chain, in the causal view" 'class="wake chain"' 1
check "both racing accesses, in the causal view" 'id="mark-[01]"' 2

view big-fit big "#view=fit"
check "at fit: lanes aggregate into device bands" 'data-lod="bands"'
check "at fit: an activity band per device" 'class="activity" data-device=' 64 64
check "at fit: no boxes" 'class="op ' 0 0
check "at fit: arrows as counts" 'class="wake counted"' 1

view big-100 big "#view=100"
check "at 100 %: boxes again" 'data-lod="boxes"'
check "at 100 %: boxes drawn, only those in view" 'class="op ' 1 3000

view launches-fit launches "#view=fit"
check "a program: each device's second launch marked where it begins" 'class="launch-boundary" data-device="[0-3]" data-launch="2"' 4 4

echo "browser test passed"
