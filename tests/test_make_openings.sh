#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make-openings keeps exactly the positions whose engine score lies in the
# window it is given: a run with --max-score 0 reports every position's
# score (each one it drops), and a run with a window must keep those whose
# score lies in it, either way, and no other.
# Usage: POOLSHARK_BIN=... TOOL_DIR=... sh tests/test_make_openings.sh
# shellcheck source=tests/support/setup.sh
. "$(dirname "$0")/support/setup.sh"
low=0.05
high=0.30

run() {
	"$tools/make-openings" --plies 4 --engine "$bin" --depth 4 "$@"
}

# Every position and its score: those kept at --max-score 0 score 0.
if ! run --max-score 0 >"$scratch/zero" 2>"$scratch/scores"; then
	echo "FAILED: make-openings --max-score 0: $(tail -n 1 "$scratch/scores")"
	exit 1
fi
{
	sed -n 's/^dropped \(.*\) (score \(.*\))$/\1 \2/p' "$scratch/scores"
	grep -v '^#' "$scratch/zero" | sed 's/$/ +0.00/'
} >"$scratch/all"
awk -v lo=$low -v hi=$high '{ s = $2 < 0 ? -$2 : $2; if (s >= lo && s <= hi) print $1 }' \
	"$scratch/all" | sort >"$scratch/expected"
total=$(wc -l <"$scratch/all")
want=$(wc -l <"$scratch/expected")
if [ "$total" -lt 100 ] || [ "$want" -lt 5 ] || [ "$want" -eq "$total" ]; then
	echo "FAILED: $total positions scored, $want in the window [$low, $high]: the test needs both kinds"
	exit 1
fi

if ! run --min-score $low --max-score $high >"$scratch/window" 2>"$scratch/err"; then
	echo "FAILED: make-openings --min-score $low --max-score $high: $(tail -n 1 "$scratch/err")"
	exit 1
fi
grep -v '^#' "$scratch/window" | sort >"$scratch/kept"
if ! cmp -s "$scratch/kept" "$scratch/expected"; then
	echo "FAILED: the positions kept in [$low, $high] are not those whose score lies there:"
	diff "$scratch/expected" "$scratch/kept" | head -n 10
	failed=1
fi
if ! grep -q "^# remake: .*--min-score $low" "$scratch/window" ||
	! grep -q "scores from $low to $high either way" "$scratch/window"; then
	echo "FAILED: the header does not say how the window was chosen:"
	head -n 2 "$scratch/window"
	failed=1
fi
if ! grep -q "kept $want of $total positions" "$scratch/err"; then
	echo "FAILED: expected 'kept $want of $total positions', got: $(tail -n 1 "$scratch/err")"
	failed=1
fi
[ $failed -eq 0 ] && echo "test_make_openings: $want of $total positions in [$low, $high] kept, as scored"
exit $failed
