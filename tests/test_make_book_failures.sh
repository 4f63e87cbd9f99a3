#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make-book with an output it cannot write (a missing directory, a
# directory, /dev/full): exit 1, an error naming the file, and, in the
# sanitizer build (make sanitize), no leak reported by LeakSanitizer.
# Usage: POOLSHARK_BIN=... TOOL_DIR=... sh tests/test_make_book_failures.sh
# shellcheck source=tests/support/setup.sh
. "$(dirname "$0")/support/setup.sh"
small="--depth 1 --plies 2 --positions 3 --hash 1"

mkdir "$scratch/adir"
for out in "$scratch/no/such/dir.book" "$scratch/adir" /dev/full; do
	# shellcheck disable=SC2086 # $small is a list of words
	"$tools/make-book" --out "$out" $small 2>"$scratch/err"
	status=$?
	if [ $status -ne 1 ] || ! grep -q "make-book: cannot write '$out'" "$scratch/err" ||
		grep -q LeakSanitizer "$scratch/err"; then
		echo "FAILED: make-book --out $out: exit $status, stderr:"
		cat "$scratch/err"
		failed=1
	else
		echo "ok: make-book --out $out: exit 1, nothing leaked"
	fi
done
# shellcheck disable=SC2086
if ! "$tools/make-book" --out "$scratch/ok.book" $small 2>"$scratch/err" || ! [ -s "$scratch/ok.book" ] ||
	grep -q LeakSanitizer "$scratch/err"; then
	echo "FAILED: make-book --out a writable file:"
	cat "$scratch/err"
	failed=1
fi
exit $failed
