#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package, as CI builds and uses it: dpkg-buildpackage -us -uc -b
# on a copy of the tree gives poolshark_VERSION_amd64.deb, lintian finds no
# error in it, and once it is installed on this machine the installed
# programs alone play a whole game (poolshark over the Hub protocol, both
# sides, every move checked by the engine's own `move`), a move in the
# terminal game, and a short match of two installed engines (pool-match,
# the installed openings); then the package is removed.
# It installs into /usr (/usr/games/poolshark, ...): CI only (.ci/run, as root on a throwaway machine).
set -euo pipefail
cd "$(dirname "$0")/.."
fail() {
	echo "FAILED: $*" >&2
	exit 1
}
[ "$(id -u)" = 0 ] || fail "deb-test installs a package: run it as root on a machine you can throw away (CI)"
for tool in dpkg-buildpackage dh lintian; do
	command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install dpkg-dev debhelper lintian)"
done
version=$(sed -n 's/^VERSION *:= *//p' Makefile)
scratch=$(mktemp -d /tmp/deb-test.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# The tree as it is (tracked files with their changes, and new ones), so
# that the build starts clean.
src=$scratch/poolshark-$version
mkdir "$src"
git ls-files -z --cached --others --exclude-standard |
	tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$src"
started=$SECONDS
(cd "$src" && dpkg-buildpackage -us -uc -b -j"$(nproc)" >"$scratch/build.log" 2>&1) || {
	tail -n 30 "$scratch/build.log"
	fail "dpkg-buildpackage -us -uc -b failed"
}
deb=$scratch/poolshark_${version}_amd64.deb
[ -f "$deb" ] || fail "dpkg-buildpackage made no $(basename "$deb"): $(ls "$scratch")"
echo "dpkg-buildpackage -us -uc -b: $(basename "$deb") in $((SECONDS - started)) s"

started=$SECONDS
lintian --fail-on error --tag-display-limit 0 "$scratch"/poolshark_"${version}"_amd64.changes >"$scratch/lintian.log" 2>&1 ||
	{
		cat "$scratch/lintian.log"
		fail "lintian reports errors"
	}
echo "lintian ($((SECONDS - started)) s): $(grep -c '^E:' "$scratch/lintian.log" || true) errors, $(grep -c '^W:' "$scratch/lintian.log" || true) warnings"
sed 's/^/  /' "$scratch/lintian.log"

export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq "$deb" >/dev/null || fail "apt-get install $deb"
trap 'apt-get remove -y -qq poolshark >/dev/null 2>&1 || true; rm -rf "$scratch"' EXIT
# Debian's games live in /usr/games, which a user's PATH has (root's not).
export PATH=/usr/games:$PATH
[ "$(command -v poolshark)" = /usr/games/poolshark ] || fail "poolshark is not /usr/games/poolshark"
[ "$(poolshark --version)" = "poolshark $version" ] || fail "poolshark --version: $(poolshark --version)"
for page in poolshark pool-match pool-egdb; do
	[ -f /usr/share/man/man6/$page.6.gz ] || fail "no manual page /usr/share/man/man6/$page.6.gz"
done

# A whole game, the engine against itself at depth 4, through the Hub
# protocol: each `done move=` is played with `move`, until a result.
coproc ENGINE { poolshark; }
# Bash unsets ENGINE and ENGINE_PID once the coprocess has exited, which
# may happen before `wait` runs: keep the pid and the descriptors now.
engine_pid=$ENGINE_PID
engine_in=${ENGINE[1]}
engine_out=${ENGINE[0]}
send() { echo "$1" >&"$engine_in"; }
send "new-game"
send "level depth=4"
result=""
plies=0
while [ -z "$result" ] && [ $plies -lt 400 ]; do
	send "go think"
	move=""
	while IFS= read -r -t 30 line <&"$engine_out"; do
		case "$line" in
		done*)
			move=$(sed -n 's/^done move=\([^ ]*\).*/\1/p' <<<"$line")
			break
			;;
		error*) fail "the engine answered go think with: $line" ;;
		esac
	done
	[ -n "$move" ] || fail "no move from the engine after $plies plies"
	send "move $move"
	IFS= read -r -t 10 line <&"$engine_out" || fail "no answer to move $move"
	case "$line" in
	"move played="*) ;;
	*) fail "move $move: $line" ;;
	esac
	plies=$((plies + 1))
	result=$(sed -n 's/.* result=\([^ ]*\) reason=\(.*\)/\1 (\2)/p' <<<"$line")
done
send "quit"
wait "$engine_pid" || fail "the engine exited with status $?"
[ -n "$result" ] || fail "the game had no result after $plies plies"
echo "installed poolshark, a game against itself at depth 4 over the Hub protocol: $result after $plies plies"

out=$(printf '11-15\nquit\n' | poolshark play --level 0.1)
grep -q '^poolshark played ' <<<"$out" || fail "poolshark play did not answer 11-15: $(tail -n 5 <<<"$out")"

# A short match between two installed engines.
pool-match --engine cmd=poolshark name=full --engine cmd=poolshark name=gentle option=strength=40 \
	--games 4 --depth 4 --openings /usr/share/poolshark/openings.fen --pdn "$scratch/match.pdn" \
	>"$scratch/match.log" 2>/dev/null || {
	cat "$scratch/match.log"
	fail "pool-match between two installed engines failed"
}
grep -q '^Match: full vs gentle, 4 games' "$scratch/match.log" || fail "pool-match: $(cat "$scratch/match.log")"
[ "$(grep -c '^\[Result ' "$scratch/match.pdn")" = 4 ] || fail "match.pdn does not hold 4 games"
echo "installed pool-match: $(grep '^Result for' "$scratch/match.log")"

apt-get remove -y -qq poolshark >/dev/null || fail "apt-get remove poolshark"
[ ! -e /usr/games/poolshark ] || fail "/usr/games/poolshark is still there after apt-get remove"
echo "the package installs, plays and is removed"
