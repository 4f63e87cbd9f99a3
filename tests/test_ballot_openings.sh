#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tools/data/openings-english.fen is the ACF three-move deck: 156 openings,
# each one's moves played legally by the engine to the FEN written under
# them (scripts/ballot-openings remakes the file unchanged), no number,
# moves or position twice; the script refuses an illegal move, a repeated
# opening and a transposition of one; pool-match --variant english plays
# the deck when no --openings is given, from any working directory.
# Usage: POOLSHARK_BIN=... TOOL_DIR=... sh tests/test_ballot_openings.sh (from the source tree)
# shellcheck source=tests/support/setup.sh
. "$(dirname "$0")/support/setup.sh"
deck=tools/data/openings-english.fen
want=156

if ! sh scripts/ballot-openings "$bin" "$deck" >"$scratch/remade" 2>"$scratch/err"; then
	echo "FAILED: scripts/ballot-openings refuses $deck: $(tail -n 1 "$scratch/err")"
	exit 1
fi
if ! cmp -s "$scratch/remade" "$deck"; then
	echo "FAILED: $deck is not what its moves give:"
	diff "$deck" "$scratch/remade" | head -n 10
	failed=1
fi
openings=$(grep -c '^# ACF [0-9]*: ' "$deck")
fens=$(grep -vc '^#' "$deck")
if [ "$openings" -ne $want ] || [ "$fens" -ne $want ]; then
	echo "FAILED: $deck has $openings openings and $fens positions, the deck $want"
	failed=1
fi
for what in 's/^# ACF \([0-9]*\):.*/\1/p' 's/^# ACF [0-9]*: //p' '/^[^#]/p'; do
	repeated=$(sed -n "$what" "$deck" | sort | uniq -d | head -n 3)
	if [ -n "$repeated" ]; then
		echo "FAILED: given twice in $deck: $repeated"
		failed=1
	fi
done

# Each broken copy must be refused, naming the opening.
refused() { # NAME SED-SCRIPT EXPECTED-MESSAGE
	sed "$2" "$deck" >"$scratch/$1.fen"
	if sh scripts/ballot-openings "$bin" "$scratch/$1.fen" >/dev/null 2>"$scratch/$1.err"; then
		echo "FAILED: an opening with $1 is accepted"
		failed=1
	elif ! grep -q "$3" "$scratch/$1.err"; then
		echo "FAILED: an opening with $1: expected '$3', got: $(cat "$scratch/$1.err")"
		failed=1
	fi
}
refused "an illegal move" 's/^# ACF 2: 9-13 21-17 6-9$/# ACF 2: 9-13 21-17 6-10/' \
	'ACF 2 (9-13 21-17 6-10): 6-10 is not played: error message="illegal move 6-10"'
refused "the moves of another" 's/^# ACF 2: 9-13 21-17 6-9$/# ACF 2: 9-13 21-17 5-9/' \
	'the moves of ACF 2 given twice'
refused "the number of another" 's/^# ACF 2: /# ACF 1: /' 'the number of ACF 1 given twice'
refused "the position of another" 's/^# ACF 2: 9-13 21-17 6-9$/# ACF 2: 9-13 21-17 12-16/' \
	'the position of ACF 160 given twice'

# pool-match without --openings: the deck, in file order.
first=$(grep -v '^#' "$deck" | head -n 1)
if ! "$tools/pool-match" --engine cmd="$bin" --engine cmd="$bin" --variant english --games 2 --depth 1 \
	--max-moves 20 --pdn "$scratch/match.pdn" >"$scratch/match.out" 2>&1; then
	echo "FAILED: pool-match --variant english without --openings: $(tail -n 3 "$scratch/match.out")"
	failed=1
elif [ "$(grep -c "^\[FEN \"$first\"\]" "$scratch/match.pdn")" -ne 2 ]; then
	echo "FAILED: pool-match --variant english did not start both games from ACF 1 ($first):"
	grep '^\[FEN' "$scratch/match.pdn"
	failed=1
fi
# The same from a working directory outside the tree: pool-match finds the
# deck in the tree that holds it.
tools_abs=$(cd "$tools" && pwd)
bin_abs=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
mkdir "$scratch/elsewhere"
if ! (cd "$scratch/elsewhere" && "$tools_abs/pool-match" --engine cmd="$bin_abs" --engine cmd="$bin_abs" \
	--variant english --games 2 --depth 1 --max-moves 20 --pdn match.pdn) >"$scratch/elsewhere.out" 2>&1; then
	echo "FAILED: pool-match --variant english run outside the tree: $(tail -n 3 "$scratch/elsewhere.out")"
	failed=1
elif [ "$(grep -c "^\[FEN \"$first\"\]" "$scratch/elsewhere/match.pdn")" -ne 2 ]; then
	echo "FAILED: pool-match run outside the tree did not start both games from ACF 1 ($first)"
	failed=1
fi
[ $failed -eq 0 ] && echo "test_ballot_openings: $want openings of the three-move deck, each legal and remade as written"
exit $failed
