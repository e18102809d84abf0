#!/bin/sh
# in_halves.sh SPLIT LOG COMMAND...: runs a `swift test` COMMAND as two processes at once, one on
# the tests SPLIT (a --filter pattern) matches, its output kept in LOG, the other on the rest
# (--skip SPLIT), so a suite that runs on one core takes both. A test target SPLIT does not name
# runs in the second half: none is left out. With HALF_WITHIN set (the --filter the whole run would
# have), SPLIT names a part of it and the second half runs HALF_WITHIN but SPLIT. Both halves read
# the one build (--ignore-lock: neither builds); then LOG is printed, and the exit status fails if
# either half failed.
split=$1
log=$2
shift 2
"$@" --ignore-lock --filter "$split" >"$log" 2>&1 &
first=$!
if [ -n "$HALF_WITHIN" ]; then
  "$@" --ignore-lock --filter "$HALF_WITHIN" --skip "$split"
else
  "$@" --ignore-lock --skip "$split"
fi
second=$?
wait $first
first_status=$?
echo "== the other half (--filter '$split'), exit $first_status"
cat "$log"
[ "$first_status" -eq 0 ] && [ "$second" -eq 0 ]
