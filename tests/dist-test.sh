#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make dist, then what a user does with the tarball: unpacks it in a
# scratch directory, checks SHA256SUMS, runs every Linux program's
# --version and the engine's bench (the node count of the default build)
# and a searched move from it, and the DLL's test program under Wine
# against the bundle's two DLLs. Then make dist once more in a fresh clone
# of the same tree (every program built again, in another directory): the
# tarball must be the same bytes.
# CI runs it after make checkerboard and make web (.ci/run): make dist
# reuses their output, the clone builds everything (about 2-3 minutes on
# two cores). A dirty tree needs DIST_DIRTY=1, as make dist does; the
# clone then gets the same uncommitted changes.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
version=$(sed -n 's/^VERSION *:= *//p' Makefile)
name=poolshark-$version
scratch=$(mktemp -d /tmp/dist-test.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
fail() {
	echo "FAILED: $*" >&2
	exit 1
}
export MAKEFLAGS="${MAKEFLAGS:--j2}"

started=$(date +%s)
make --no-print-directory dist
echo "make dist: $(($(date +%s) - started)) s"
tarball=dist/$name.tar.gz

# What a user has: the tarball alone.
tar -xzf "$tarball" -C "$scratch"
b=$scratch/$name
(cd "$b" && sha256sum --quiet -c SHA256SUMS) || fail "the files of the bundle do not match its SHA256SUMS"
listed=$(sed 's/^[0-9a-f]*  //' "$b/SHA256SUMS")
present=$(cd "$b" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort)
[ "$listed" = "$present" ] || fail "SHA256SUMS does not list exactly the bundle's files"
grep -q "$(git rev-parse HEAD)" "$b/README" || fail "the bundle's README does not name commit $(git rev-parse HEAD)"
for f in README COPYING CHANGES.md windows/poolshark64.dll windows/poolshark64b.dll web/index.html \
	bin/poolshark bin/pool-match share/man/man6/poolshark.6 share/man/man6/pool-match.6; do
	[ -f "$b/$f" ] || fail "the bundle has no $f"
done
cmp -s "$b/windows/poolshark64.dll" "$b/windows/poolshark64b.dll" || fail "the two DLLs differ"

count=0
for program in "$b"/bin/*; do
	p=$(basename "$program")
	file "$program" | grep -q 'statically linked' || fail "bin/$p is not statically linked: $(file -b "$program")"
	"$program" --version | grep -Eq "^[a-z-]+( \(poolshark\))? $version\$" ||
		fail "bin/$p --version: $("$program" --version 2>&1)"
	[ -f "$b/share/man/man6/$p.6" ] || fail "bin/$p has no manual page share/man/man6/$p.6"
	count=$((count + 1))
done
[ "$count" -ge 10 ] || fail "bin/ holds $count programs, expected 10"

make --no-print-directory build/poolshark >/dev/null
expected=$(./build/poolshark bench | grep '^Nodes searched:')
got=$(cd "$scratch" && "$b/bin/poolshark" bench | grep '^Nodes searched:')
[ "$got" = "$expected" ] || fail "the bundle's bench says '$got', the default build '$expected'"
move=$(printf 'pos start\nlevel depth=8\ngo think\n' | "$b/bin/poolshark" | grep '^done move=')
echo "bundle: bin/poolshark bench $got; $move"

# The DLL's test program, from the source tree (it reads tools/data), against
# the bundle's DLLs.
make --no-print-directory build-win/cbtest.exe >/dev/null
export WINEPREFIX="$top/build-win/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
wine build-win/cbtest.exe "$(winepath -w "$b/windows/poolshark64.dll")" "$(winepath -w "$b/windows/poolshark64b.dll")" ||
	fail "cbtest.exe under wine failed on the bundle's DLLs"

# The same bundle from a fresh clone in another directory.
git clone -q --no-hardlinks "$top" "$scratch/clone"
git diff --binary HEAD >"$scratch/changes.diff"
if [ -s "$scratch/changes.diff" ]; then
	(cd "$scratch/clone" && git apply "$scratch/changes.diff")
fi
git ls-files --others --exclude-standard -z | tar --null -T - -cf - | tar -xf - -C "$scratch/clone"
started=$(date +%s)
(cd "$scratch/clone" && make --no-print-directory dist >"$scratch/clone.log" 2>&1) || {
	tail -n 20 "$scratch/clone.log"
	fail "make dist in a fresh clone failed"
}
echo "make dist in a fresh clone, every program built: $(($(date +%s) - started)) s"
if ! cmp -s "$scratch/clone/$tarball" "$tarball"; then
	diff "$scratch/clone/dist/$name/SHA256SUMS" "dist/$name/SHA256SUMS" >&2 || true
	fail "make dist in a fresh clone gave another tarball (the files that differ are above)"
fi
echo "dist: $tarball, $(wc -c <"$tarball") bytes, the same from a fresh clone; sha256 $(sha256sum "$tarball" | cut -d' ' -f1)"
