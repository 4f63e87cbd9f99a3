#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every build keeps to its own directory: after other builds (make sanitize,
# make portable, ...) a plain `make` leaves the programs of the top
# directory exact copies of the default build's, none of them sanitized.
# CI runs it after make sanitize.
set -eu
cd "$(dirname "$0")/.."

make --no-print-directory all >/dev/null
status=0
for program in poolshark $(ls -d tools/*/ | sed 's|tools/||; s|/||' | grep -v '^lib$'); do
	[ -n "$(ls tools/"$program"/*.c 2>/dev/null)" ] || [ "$program" = poolshark ] || continue
	built=build/bin/$program
	[ "$program" = poolshark ] && built=build/poolshark
	if ! cmp -s "$program" "$built"; then
		echo "./$program is not a copy of $built" >&2
		status=1
	fi
	if nm -D "$program" | grep -q asan; then
		echo "./$program is a sanitizer build" >&2
		status=1
	fi
done
[ $status -eq 0 ] && echo "build directories: the top-level programs are the default build's"
exit $status
