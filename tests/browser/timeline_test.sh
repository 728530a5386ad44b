#!/usr/bin/env bash
# Browser test of the HTML timeline: weft finds a real race (a sweep of the early-reuse
# all-gather), writes its timeline with --html, and Debian's chromium loads it headless:
#   - no console message at all (errors, uncaught exceptions);
#   - the DOM after the page's script ran has the lanes, the racing pair and the header;
#   - a screenshot is written to ARTIFACTS/race.png.
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
rm -f "$artifacts"/race.* "$artifacts"/sweep.jsonl "$artifacts"/dom.html "$artifacts"/console*.log
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

if grep -q 'http' "$artifacts/race.html"; then fail "the page names a URL (it must fetch nothing)"; fi

run_browser() {  # run_browser LOG ARGS...: a fresh profile each time, no network services
  local log=$1
  shift
  local profile
  profile=$(mktemp -d)
  local status=0
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
    --enable-logging=stderr --v=0 --window-size=1400,900 "$@" "file://$artifacts/race.html" 2> "$log" || status=$?
  rm -rf "$profile"
  [ "$status" -eq 0 ] || fail "chromium exited with $status (see $log)"
}

run_browser "$artifacts/console.log" --dump-dom > "$artifacts/dom.html"
run_browser "$artifacts/console-screenshot.log" --hide-scrollbars --screenshot="$artifacts/race.png"

for log in "$artifacts/console.log" "$artifacts/console-screenshot.log"; do
  if grep -q ':CONSOLE' "$log"; then
    grep ':CONSOLE' "$log"
    fail "the page wrote to the console"
  fi
done

dom="$artifacts/dom.html"
check() {  # check DESCRIPTION PATTERN [MIN_COUNT]
  local count
  count=$( (grep -o -- "$2" "$dom" || true) | wc -l)
  [ "$count" -ge "${3:-1}" ] || fail "$1: found $count of '$2' in the DOM ($dom)"
  echo "ok: $1 ($count)"
}
check "the script ran to its end" 'data-ready="yes"'
check "the header" 'id="run-header"'
check "the verdict in the header" '<b>data_race</b>'
check "the seed in the header" "<td id=\"seed\">seed $seed,"
check "the schedule in the header" 'id="schedule"'
check "a lane per core" 'class="lane lane-core"' 8
check "a label per lane" 'class="lane-label"' 16
check "the first racing access" 'id="mark-0"'
check "the second racing access" 'id="mark-1"'
check "operation boxes" 'class="op ' 100
check "tooltips (moved from <title> by the script)" 'data-tip=' 100
check "signal-to-wait arrows" 'class="wake"' 1

[ -s "$artifacts/race.png" ] || fail "no screenshot"
echo "screenshot: $artifacts/race.png"
echo "browser test passed"
