#!/bin/sh
# timed.sh NAME COMMAND...: runs COMMAND, then prints how long it took under NAME (for CI's budget)
# and exits as COMMAND did.
name=$1
shift
start=$(date +%s)
"$@"
status=$?
took=$(( $(date +%s) - start ))
printf '== %s: %d s (%dm%02ds), exit %d\n' "$name" "$took" $((took / 60)) $((took % 60)) "$status"
exit $status
