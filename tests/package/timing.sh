# Sourced by the package tests: `timed NAME COMMAND...` runs the command and prints how long it
# took, so a test's log holds the figures a user would see; it returns the command's status.
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
