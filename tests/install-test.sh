#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make install and make uninstall:
#  - make install with a PREFIX in a scratch directory (its own build,
#    build-install/ there) installs exactly the programs, pages and
#    openings; the installed poolshark has no databases until
#    PREFIX/share/poolshark/egdb exists, then finds them by itself;
#    make uninstall removes every file it installed and no other;
#  - make install into a DESTDIR that cannot be written fails naming the
#    path and leaves the DESTDIR as it was: a file where a directory should
#    be, and (as root) a read-only bind mount or an immutable directory
#    under the manual pages' directory, so that the programs were already
#    staged when it fails.
# About 15 s of CPU (a build of its own).
set -eu
cd "$(dirname "$0")/.."
scratch=$(mktemp -d /tmp/install-test.XXXXXX)
mounted=""
immutable=""
cleanup() {
	[ -z "$mounted" ] || umount "$mounted" 2>/dev/null || true
	[ -z "$immutable" ] || chattr -i "$immutable" 2>/dev/null || true
	rm -rf "$scratch"
}
trap cleanup EXIT
fail() {
	echo "FAILED: $*" >&2
	exit 1
}

tools=$(for d in tools/*/; do
	n=$(basename "$d")
	[ "$n" != lib ] && ls "$d"*.c >/dev/null 2>&1 && echo "$n"
done)
# The installed names (mk/release.mk, INSTALL_PREFIXED).
installed_name() {
	case " datagen make-book make-openings selfplay train tune " in
	*" $1 "*) echo "poolshark-$1" ;;
	*) echo "$1" ;;
	esac
}

# make install into a scratch PREFIX, from a build of its own.
prefix=$scratch/usr
build=$scratch/build-install
make --no-print-directory -j2 BUILD="$build" OPT=-O2 PREFIX="$prefix" install >"$scratch/install.log" ||
	{
		tail -n 20 "$scratch/install.log"
		fail "make install PREFIX=$prefix failed"
	}
expected=$( (echo "bin/poolshark"
	for t in $tools; do echo "bin/$(installed_name "$t")"; done
	for p in doc/man/*.6; do echo "share/man/man6/$(basename "$p")"; done
	for o in tools/data/openings*.fen; do echo "share/poolshark/$(basename "$o")"; done) | LC_ALL=C sort)
found=$(cd "$prefix" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
[ "$found" = "$expected" ] || fail "make install wrote other files than expected:
$(printf '%s\n' "$expected" >"$scratch/e"; printf '%s\n' "$found" | diff "$scratch/e" - || true)"
[ -x "$prefix/bin/poolshark" ] && [ ! -x "$prefix/share/man/man6/poolshark.6" ] || fail "wrong modes"
"$prefix/bin/poolshark" --version | grep -q '^poolshark ' || fail "the installed poolshark --version"
"$prefix/bin/poolshark-train" --version | grep -q '^train (poolshark) ' || fail "poolshark-train --version"

# The databases: none, then PREFIX/share/poolshark/egdb found by itself.
egdb=$prefix/share/poolshark/egdb
reply=$(printf 'get egdb-path\n' | "$prefix/bin/poolshark")
[ "$reply" = "get name=egdb-path value=none" ] || fail "without databases: $reply"
"$prefix/bin/pool-egdb" build --dir "$egdb" --pieces 3 --quiet >/dev/null || fail "pool-egdb build --pieces 3"
reply=$(printf 'get egdb-path\n' | "$prefix/bin/poolshark")
[ "$reply" = "get name=egdb-path value=$egdb" ] || fail "with $egdb: $reply"
line=$("$prefix/bin/poolshark" analyse --fen 'W:WK1,K2:BK32' --depth 2 | head -n 1)
echo "$line" | grep -q 'egdb-hits [1-9]' || fail "the installed poolshark does not probe $egdb: $line"
echo "installed: $(echo "$found" | wc -l) files; poolshark finds $egdb: $line"

# Without --openings, the installed pool-match plays the rule set's
# installed openings (no source tree in the working directory).
match=$(cd "$scratch" && "$prefix/bin/pool-match" --engine cmd="$prefix/bin/poolshark" \
	--engine cmd="$prefix/bin/poolshark" --variant english --games 2 --depth 2 --pdn match.pdn 2>&1) ||
	fail "the installed pool-match without --openings: $match"
first=$(grep -v '^#' "$prefix/share/poolshark/openings-english.fen" | head -n 1)
grep -q "^\[FEN \"$first\"\]" "$scratch/match.pdn" ||
	fail "the installed pool-match did not play from $prefix/share/poolshark/openings-english.fen"
echo "installed pool-match without --openings: $prefix/share/poolshark/openings-english.fen"

# Installing again over the same files is an update, not an error.
make --no-print-directory BUILD="$build" OPT=-O2 PREFIX="$prefix" install >/dev/null || fail "a second make install"

make --no-print-directory BUILD="$build" OPT=-O2 PREFIX="$prefix" uninstall >"$scratch/uninstall.log" ||
	fail "make uninstall"
left=$(cd "$prefix" && find . -type f | sed 's|^\./||' | grep -v '^share/poolshark/egdb/' || true)
[ -z "$left" ] || fail "make uninstall left: $left"
[ -n "$(ls "$egdb")" ] || fail "make uninstall removed the databases, which make install did not install"
echo "make uninstall: removed every installed file, kept $egdb"

# An unwritable DESTDIR: the install fails, names the path, changes nothing.
# try_unwritable CASE DESTDIR PATH: PATH must be named in the error.
try_unwritable() {
	# Names, types, modes, sizes and contents (a directory's time changes).
	before=$(cd "$2" && find . -printf '%y %m %s %p\n' | LC_ALL=C sort && find . -type f -exec cat {} +)
	if make --no-print-directory BUILD="$build" OPT=-O2 PREFIX="$prefix" DESTDIR="$2" install \
		>"$scratch/out" 2>"$scratch/err"; then
		fail "$1: make install succeeded"
	fi
	grep -qF "$3" "$scratch/err" || fail "$1: the error does not name $3: $(cat "$scratch/err")"
	grep -q 'nothing was installed' "$scratch/err" || fail "$1: no 'nothing was installed': $(cat "$scratch/err")"
	after=$(cd "$2" && find . -printf '%y %m %s %p\n' | LC_ALL=C sort && find . -type f -exec cat {} +)
	[ "$before" = "$after" ] || fail "$1: make install changed $2:
$(printf '%s\n' "$before" >"$scratch/b"; printf '%s\n' "$after" | diff "$scratch/b" - || true)"
	echo "unwritable DESTDIR, $1: refused, $(grep -m1 'cannot' "$scratch/err")"
}

# A file where PREFIX/share should be; an older poolshark in bin stays.
dest=$scratch/dest-file
mkdir -p "$dest$prefix/bin"
echo "an older poolshark" >"$dest$prefix/bin/poolshark"
echo "not a directory" >"$dest$prefix/share"
try_unwritable "a file in the way" "$dest" "$dest$prefix/share"
[ "$(cat "$dest$prefix/bin/poolshark")" = "an older poolshark" ] || fail "the older poolshark was replaced"

# The manual pages' directory read-only, the programs' writable.
dest=$scratch/dest-ro
man6=$dest$prefix/share/man/man6
mkdir -p "$dest$prefix/bin" "$man6"
how=""
if [ "$(id -u)" = 0 ]; then
	if mount --bind "$man6" "$man6" 2>/dev/null; then
		mounted=$man6
		if mount -o remount,ro,bind "$man6" 2>/dev/null; then
			how="a read-only bind mount"
		else
			umount "$man6"
			mounted=""
		fi
	fi
	if [ -z "$how" ] && chattr +i "$man6" 2>/dev/null; then
		immutable=$man6
		how="an immutable directory (chattr +i)"
	fi
else
	chmod 555 "$man6"
	how="a directory without write permission"
fi
if [ -n "$how" ]; then
	try_unwritable "$how" "$dest" "$man6"
else
	echo "unwritable DESTDIR: neither a read-only bind mount nor chattr +i works here; only the first case ran"
fi
