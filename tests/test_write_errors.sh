#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every program whose results go to standard output, run with it on
# /dev/full: it must say so and exit non-zero. The same run with room for
# its output must succeed, so that the failure is the output's.
# Usage: POOLSHARK_BIN=... TOOL_DIR=... sh tests/test_write_errors.sh
# shellcheck source=tests/support/setup.sh
. "$(dirname "$0")/support/setup.sh"

# check NAME COMMAND...: COMMAND >/dev/null exits 0, COMMAND >/dev/full does
# not and names the lost output on stderr.
check() {
	name=$1
	shift
	if ! "$@" >/dev/null 2>"$scratch/err"; then
		echo "FAILED: $name: fails even with room for its output:"
		cat "$scratch/err"
		failed=1
		return
	fi
	"$@" >/dev/full 2>"$scratch/err"
	status=$?
	if [ $status -eq 0 ] || ! grep -q 'writing standard output failed' "$scratch/err"; then
		echo "FAILED: $name >/dev/full: exit $status, stderr: $(tail -n 1 "$scratch/err")"
		failed=1
	else
		echo "ok: $name >/dev/full: exit $status"
	fi
}

# hub mode reads its commands from stdin.
hub() {
	printf 'hub\nquit\n' | "$bin"
}

printf 'B:W21:B1 1 0\nW:W21:B1 0 1\n' >"$scratch/data.txt"
printf 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n' >"$scratch/start.fen"
"$tools/pool-egdb" build --dir "$scratch/egdb" --pieces 2 >/dev/null 2>&1 || {
	echo "FAILED: pool-egdb build --pieces 2"
	failed=1
}

check "poolshark perft 3" "$bin" perft 3
check "poolshark analyse" "$bin" analyse --depth 2
check "poolshark bench 1" "$bin" bench 1
check "poolshark help" "$bin" help
check "poolshark hub" hub
check "pool-egdb info" "$tools/pool-egdb" info --dir "$scratch/egdb" --pieces 2
check "make-openings" "$tools/make-openings" --plies 1
check "selfplay" "$tools/selfplay" --games 2 --depth-a 1 --depth-b 1 --random-plies 2
check "tune gen" "$tools/tune" gen --openings "$scratch/start.fen" --games 2 --depth 1
check "pool-match --help" "$tools/pool-match" --help
check "tune fit" "$tools/tune" fit --data "$scratch/data.txt" --passes 0
exit $failed
