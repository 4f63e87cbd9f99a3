#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One version, the Makefile's VERSION: every program's --version prints it
# (the engine "poolshark VERSION", each tool "NAME (poolshark) VERSION"), so
# do the Hub `id` line and debian/changelog, and a --version on /dev/full
# fails as a lost write.
# Usage: POOLSHARK_BIN=... TOOL_DIR=... sh tests/test_version.sh
set -u
cd "$(dirname "$0")/.."
bin=${POOLSHARK_BIN:?POOLSHARK_BIN must be set (make test does)}
tools=${TOOL_DIR:?TOOL_DIR must be set (make test does)}
version=$(sed -n 's/^VERSION *:= *//p' Makefile)
failed=0
fail() {
	echo "FAILED: $*"
	failed=1
}
[ -n "$version" ] || fail "no VERSION := line in the Makefile"

# expect WHAT EXPECTED ACTUAL
expect() {
	[ "$3" = "$2" ] || fail "$1: expected '$2', got '$3'"
}

expect "poolshark --version" "poolshark $version" "$("$bin" --version)"
count=0
for dir in tools/*/; do
	name=$(basename "$dir")
	ls "$dir"*.c >/dev/null 2>&1 && [ "$name" != lib ] || continue
	count=$((count + 1))
	expect "$name --version" "$name (poolshark) $version" "$("$tools/$name" --version 2>&1)"
done
[ "$count" -ge 9 ] || fail "found $count tools under tools/, expected at least 9"

expect "the Hub id line" "id name=poolshark version=$version author=\"the poolshark authors\" country=none" \
	"$(printf 'hub\nquit\n' | "$bin" | sed -n 1p)"

# The Debian package's version is the release's (a native package).
changelog=$(sed -n '1s/^poolshark (\([^)]*\)).*/\1/p' debian/changelog)
expect "debian/changelog's newest entry" "$version" "$changelog"

if "$bin" --version >/dev/full 2>/dev/null; then
	fail "poolshark --version >/dev/full exits 0"
fi

[ $failed -eq 0 ] && echo "version $version: poolshark, $count tools, the Hub id line, debian/changelog"
exit $failed
