# Sourced first by every package test: strict mode, a scratch folder $work removed when the test
# ends, and two helpers. `timed NAME COMMAND...` runs the command and prints how long it took (on
# stderr), so a test's log holds the figures a user would see; it returns the command's status.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

timed() {
  local name=$1
  shift
  local start=$EPOCHREALTIME status=0
  "$@" || status=$?
  awk -v name="$name" -v start="$start" -v end="$EPOCHREALTIME" \
    'BEGIN { printf "time: %-58s %6.1f s\n", name, end - start }' >&2
  return "$status"
}

# `fails_with STATUS COMMAND...`: the command must exit with STATUS.
fails_with() {
  local expected=$1
  shift
  local status=0
  "$@" || status=$?
  if [ "$status" -ne "$expected" ]; then
    echo "FAILED: exit $status, not $expected: $*"
    return 1
  fi
}
