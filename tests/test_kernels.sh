#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every network kernel this processor runs gives the same engine: forced in
# turn with POOLSHARK_KERNEL, each must give the same bench node counts
# under both evaluations and play the same games of a fixed-depth match,
# every move and every score in them; a kernel the processor lacks, and a
# name that is no kernel, are refused with a message and exit status 1.
# Usage: POOLSHARK_BIN=... TOOL_DIR=... sh tests/test_kernels.sh
# shellcheck source=tests/support/setup.sh
. "$(dirname "$0")/support/setup.sh"
fail() {
	echo "FAILED: $*"
	failed=1
}

# A name that is no kernel.
if POOLSHARK_KERNEL=avx9000 "$bin" bench 1 >"$scratch/out" 2>"$scratch/err"; then
	fail "POOLSHARK_KERNEL=avx9000 was accepted"
elif ! grep -q 'POOLSHARK_KERNEL=avx9000: not a kernel' "$scratch/err"; then
	fail "POOLSHARK_KERNEL=avx9000: $(cat "$scratch/err")"
fi

ran=""
for kernel in portable avx2 avxvnni avx512vnni; do
	POOLSHARK_KERNEL=$kernel "$bin" bench 1 >"$scratch/out" 2>"$scratch/err"
	status=$?
	if [ $status -ne 0 ]; then
		# Refused, never an illegal instruction (status 132) or a crash.
		if [ $status -ne 1 ] || ! grep -q "POOLSHARK_KERNEL=$kernel: this processor cannot run it" "$scratch/err"; then
			fail "POOLSHARK_KERNEL=$kernel: exit status $status: $(cat "$scratch/err")"
		elif [ $kernel = portable ]; then
			fail "the portable kernel was refused: $(cat "$scratch/err")"
		else
			echo "test_kernels: $kernel: not on this processor, not run"
		fi
		continue
	fi
	if ! grep -q "^Kernel: $kernel\$" "$scratch/out"; then
		fail "POOLSHARK_KERNEL=$kernel: bench names another kernel: $(grep Kernel "$scratch/out")"
		continue
	fi
	ran="$ran $kernel"
	for eval in classic net; do
		POOLSHARK_KERNEL=$kernel "$bin" bench --eval $eval | grep '^Nodes searched:' >"$scratch/$kernel-$eval"
	done
	# Both engines at fixed depths, so that the games are the engine's
	# alone; the times in the move comments are struck out.
	POOLSHARK_KERNEL=$kernel "$tools/pool-match" --engine cmd="$bin" name=deep depth=6 \
		--engine cmd="$bin" name=shallow depth=5 --games 8 --concurrency 1 \
		--openings tools/data/openings.fen --pdn "$scratch/$kernel.pdn" >/dev/null 2>"$scratch/err" ||
		fail "POOLSHARK_KERNEL=$kernel: pool-match: $(tail -n 1 "$scratch/err")"
	sed -e 's/ [0-9.]*s}/}/g' -e '/^\[Date /d' "$scratch/$kernel.pdn" >"$scratch/$kernel.games"
done

case $ran in
" portable"*) ;;
*) fail "the portable kernel did not run" ;;
esac
first=${ran# }
first=${first%% *}
games=$(grep -c '^\[Result' "$scratch/$first.games")
scores=$(grep -o '{[-+][0-9.]*/[0-9]*}' "$scratch/$first.games" | wc -l)
if [ "$games" -ne 8 ] || [ "$scores" -lt 200 ]; then
	fail "the match gave $games games and $scores scored moves: too few to compare"
fi
for kernel in $ran; do
	for eval in classic net; do
		cmp -s "$scratch/$first-$eval" "$scratch/$kernel-$eval" ||
			fail "bench --eval $eval: $first $(cat "$scratch/$first-$eval"), $kernel $(cat "$scratch/$kernel-$eval")"
	done
	cmp -s "$scratch/$first.games" "$scratch/$kernel.games" ||
		fail "the games of $kernel differ from those of $first: $(diff "$scratch/$first.games" "$scratch/$kernel.games" | head -n 4)"
done
[ $failed -eq 0 ] && echo "test_kernels: the same bench and the same $games games, $scores scores, with:$ran"
exit $failed
