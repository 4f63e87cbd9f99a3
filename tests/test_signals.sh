#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# SIGTERM ends each long-running program at once, and SIGTERM and SIGINT end
# a program that drives an engine (make-openings) with that engine too.
# (SIGINT is only sent where the program sets its own handler: a background
# job of a non-interactive shell starts with SIGINT ignored.)
# Usage: POOLSHARK_BIN=... TOOL_DIR=... sh tests/test_signals.sh
# shellcheck source=tests/support/setup.sh
. "$(dirname "$0")/support/setup.sh"

now_ms() {
	date +%s%3N
}

# stop SIGNAL NAME COMMAND...: starts COMMAND (for far longer than a
# second of work), sends SIGNAL 0.2 s later and expects it gone within 2 s
# (a loaded machine's margin: it takes some 100 ms).
stop() {
	sig=$1
	name=$2
	shift 2
	"$@" >/dev/null 2>&1 &
	pid=$!
	sleep 0.2
	sent=$(now_ms)
	kill -"$sig" "$pid"
	while kill -0 "$pid" 2>/dev/null && [ $(($(now_ms) - sent)) -lt 3000 ]; do
		sleep 0.05
	done
	took=$(($(now_ms) - sent))
	if kill -0 "$pid" 2>/dev/null; then
		echo "FAILED: $name still runs 3 s after SIG$sig"
		kill -KILL "$pid"
		failed=1
	elif [ "$took" -gt 2000 ]; then
		echo "FAILED: $name took $took ms to end after SIG$sig"
		failed=1
	else
		echo "ok: $name ended $took ms after SIG$sig"
	fi
	wait "$pid" 2>/dev/null
}

stop TERM "poolshark analyse" "$bin" analyse --depth 60
stop TERM "selfplay" "$tools/selfplay" --games 1000 --depth-a 12 --depth-b 12
printf 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n' >"$scratch/start.fen"
stop TERM "tune gen" "$tools/tune" gen --openings "$scratch/start.fen" --games 100000 --depth 12

# The engine of make-openings, deep in a search, must not outlive it.
engine="sh -c 'echo \$\$ > $scratch/engine.pid; exec $bin'"
for sig in TERM INT; do
	rm -f "$scratch/engine.pid"
	stop "$sig" "make-openings --engine" "$tools/make-openings" --plies 2 --depth 60 --engine "$engine"
	sleep 0.1
	if ! [ -s "$scratch/engine.pid" ]; then
		echo "FAILED: make-openings did not start its engine"
		failed=1
	elif kill -0 "$(cat "$scratch/engine.pid")" 2>/dev/null; then
		echo "FAILED: make-openings left its engine running after SIG$sig"
		kill -KILL "$(cat "$scratch/engine.pid")"
		failed=1
	fi
done
exit $failed
