#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make soak: bad and odd input against the engine (Hub protocol), the CLI,
# the terminal game and pool-match, each case bounded by a timeout, then
# four fast matches of poolshark against itself: two games at a time
# (a) at a fixed move time, (b) at a fast clock on an otherwise idle
# machine, (c) at the same clock while two busy loops keep both cores
# busy; then (d) one game at a time at that clock, each engine searching
# with two threads (a quarter of the games). Prints a summary of crashes,
# stalls and wrong answers, and one line per match with its games and time
# forfeits against the goal (0, 0, at most 5 in 1,000, 0). Not in CI (it
# takes a while); exit status 1 when anything went wrong or a goal was
# missed.
#   tests/soak.sh [BUILD_DIR=build]
#   SOAK_GAMES=1000 (per match) SOAK_MOVETIME=0.05 SOAK_TC=0.2+0.002
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
engine=$build/poolshark
match=$build/bin/pool-match
games=${SOAK_GAMES:-1000}
movetime=${SOAK_MOVETIME:-0.05}
tc=${SOAK_TC:-0.2+0.002}
for program in "$engine" "$match"; do
	[ -x "$program" ] || { echo "soak: $program is missing (make first)" >&2; exit 2; }
done
work=$(mktemp -d /tmp/poolshark-soak.XXXXXX)
burners="" running=""
stop_burners() {
	if [ -n "$burners" ]; then
		kill $burners 2>/dev/null
		wait $burners 2>/dev/null
		burners=""
	fi
}
# A signal ends the match under way (timeout passes it on) and the busy
# loops, then the script: the matches run in the background, waited for,
# since the shell runs a trap only once a foreground command has ended.
trap '[ -z "$running" ] || kill $running 2>/dev/null; stop_burners; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP

cases=0 crashes=0 stalls=0 wrong=0
report() { # kind name detail
	echo "  $1: $2${3:+ ($3)}"
}

# check NAME RC EXPECTED_RCS [FILE PATTERN]: classifies one finished case.
check() {
	name=$1 rc=$2 allowed=$3
	cases=$((cases + 1))
	if [ "$rc" -eq 124 ]; then
		stalls=$((stalls + 1))
		report stall "$name" "no exit within the timeout"
	elif [ "$rc" -ge 128 ]; then
		crashes=$((crashes + 1))
		report crash "$name" "signal $((rc - 128))"
	elif ! echo " $allowed " | grep -q " $rc "; then
		wrong=$((wrong + 1))
		report "wrong exit" "$name" "status $rc, expected $allowed"
	elif [ $# -ge 5 ] && ! grep -q -- "$5" "$4"; then
		wrong=$((wrong + 1))
		report "wrong output" "$name" "no '$5'"
	fi
}

# hub NAME INPUT_FILE: the engine reads the file, then ping and quit; it must
# answer pong and exit 0.
hub() {
	{ cat "$2"; printf '\nping\nquit\n'; } >"$work/in"
	timeout 20 "$engine" <"$work/in" >"$work/out" 2>&1
	check "hub: $1" $? 0 "$work/out" '^pong'
}

# hub_text NAME TEXT: as hub, with printf-interpreted text.
hub_text() {
	printf "$2" >"$work/case"
	hub "$1" "$work/case"
}

# long_line FILE BYTES ENDING: one line of x's.
long_line() {
	head -c "$2" /dev/zero | tr '\0' x >"$1"
	printf "$3" >>"$1"
}

echo "== engine: Hub protocol"
hub_text "blank lines" '\n\n   \n\t\n'
hub_text "NUL byte" 'pi\000ng\n'
hub_text "control bytes" 'ping\001\002\033[2J\n'
hub_text "bytes above 127" 'p\303\251ng\n\377\376\n'
hub_text "unclosed quote" 'pos pos="Bbbb\n'
hub_text "quote glued to text" 'set-param name="hash"x value=1\n'
hub_text "64+ arguments" "go $(printf 'a=1 %.0s' $(seq 80))\n"
hub_text "bad positions" 'pos pos=garbage\npos fen=B:W33:B1\npos fen=B:W1,1:B2\npos pos=Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\npos\n'
hub_text "illegal moves" 'pos start moves="11-15 11-15"\npos start moves="99-100"\npos start moves="11x18x25x32x1x2x3"\n'
hub_text "bad levels" 'level depth=-1\nlevel depth=99999999999999999999\nlevel time=nan\nlevel move-time=1e309\nlevel nodes=+5\nlevel moves=0x10\nlevel\n'
hub_text "bad options" 'set-param name=hash value=0\nset-param name=hash value=99999999\nset-param name=nope value=1\nset-param name=ponder value=maybe\nset-param\nset hash\nget nope\n'
hub_text "idle stop, ponder-hit" 'stop\nponder-hit\nstop\n'
hub_text "go during a search" 'pos start\nlevel depth=30\ngo think\ngo think\npos start\nset-param name=hash value=2\nstop\n'
hub_text "ponder without ponder" 'pos start\ngo ponder\nstop\n'
hub_text "bad extensions" 'perft depth=100\nperft depth=-1\nperft\nbench depth=abc\nmove 99-100\nmove\nundo\nundo\nundo\nfoo bar\n'
hub_text "a game then undos" 'move 11-15\nmove 22-18\nmove 15x22\nundo\nundo\nundo\nundo\nboard\nboard flip\nfen\nmoves\neval\n'
hub_text "10,000 pings" "$(printf 'ping\\n%.0s' $(seq 10000))"
long_line "$work/case" 300000 '\n'
hub "300 KB line" "$work/case"
long_line "$work/case" 262144 '\r\n'
hub "256 KiB line with CRLF" "$work/case"
awk 'BEGIN { srand(7); for (i = 0; i < 65536; i++) printf "%c", int(rand() * 255) + 1 }' >"$work/case"
hub "64 KB of random bytes" "$work/case"

# End of input during a search: the process must end by itself.
printf 'pos start\ngo analyze\n' | timeout 20 "$engine" >"$work/out" 2>&1
check "hub: end of input during go analyze" $? 0

echo "== engine: command line"
cli() { # NAME EXPECTED_RCS ARGS...
	name=$1 allowed=$2
	shift 2
	timeout 20 "$engine" "$@" </dev/null >"$work/out" 2>&1
	check "cli: $name" $? "$allowed"
}
cli "unknown command" 2 frobnicate
cli "perft abc" 2 perft abc
cli "perft 0" 2 perft 0
cli "perft 31" 2 perft 31
cli "perft empty FEN" 2 perft --fen "" 3
cli "perft bad FEN" 2 perft --fen "B:W33:B1" 3
cli "perft hash 0" 2 perft --hash 0 3
cli "perft hash +5" 2 perft --hash +5 3
cli "perft hash huge" "1 2" perft --hash 99999999999 3
cli "analyse depth 0" 2 analyse --depth 0
cli "analyse two limits" 2 analyse --depth 5 --nodes 10
cli "analyse no limit" 2 analyse
cli "analyse bad FEN" 2 analyse --fen garbage --depth 3
cli "bench abc" 2 bench abc
cli "bench -1" 2 bench -1
cli "play bad level" 2 play --level abc
cli "play strength 101" 2 play --strength 101
cli "play bad FEN" 2 play --fen xyz

echo "== terminal game"
game() { # NAME PATTERN TEXT
	printf "$3" >"$work/in"
	timeout 60 "$engine" play --level 0.02 <"$work/in" >"$work/out" 2>&1
	check "play: $1" $? 0 "$work/out" "$2"
}
game "NUL byte" 'Legal moves: 9-13' '11-15\000junk\nmoves\nquit\n'
game "commands with bad arguments" 'Bye' 'undo\nundo\nnew white\nflip\nlevel 0\nlevel abc\nlevel 1e400\nstrength -1\nstrength 101\nstrength x\nsave\nsave /nonexistent/dir/x.pdn\nhint\nfoo bar baz\n12-13\nquit\n'
game "end of input without quit" 'Bye' '11-15\n'
game "bytes above 127 and control bytes" 'Bye' '\377\376\n\033[A\n\001\nquit\n'
long_line "$work/in" 300000 '\nmoves\nquit\n'
timeout 60 "$engine" play --level 0.02 <"$work/in" >"$work/out" 2>&1
check "play: 300 KB line" $? 0 "$work/out" 'Legal moves'

echo "== pool-match"
pm() { # NAME EXPECTED_RCS ARGS...
	name=$1 allowed=$2
	shift 2
	timeout 60 "$match" "$@" </dev/null >"$work/out" 2>&1
	check "pool-match: $name" $? "$allowed"
}
printf '[Event ""]\n' >"$work/empty-tag.pdn"
printf '{}' >"$work/brace.pdn"
printf ';\n' >"$work/semicolon.pdn"
printf '\000' >"$work/nul.pdn"
printf '[Event "x"]\n1. 11-15\000 *\n' >"$work/nul-in-game.pdn"
awk 'BEGIN { for (i = 0; i < 10000; i++) printf "[Tag%d \"%d\"]\n", i, i; print "1. 11-15 *" }' >"$work/tags.pdn"
awk 'BEGIN { for (i = 0; i < 5000; i++) printf "("; print "1. 11-15 *" }' >"$work/open.pdn"
awk 'BEGIN { srand(3); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 256) }' >"$work/random.pdn"
for f in empty-tag brace semicolon tags open; do
	pm "summarize $f.pdn" "0 1" --summarize "$work/$f.pdn"
done
for f in nul nul-in-game random; do
	pm "summarize $f.pdn" 1 --summarize "$work/$f.pdn"
done
pm "summarize /dev/zero" 1 --summarize /dev/zero
pm "summarize a directory" 1 --summarize "$work"
pm "summarize a missing file" 1 --summarize "$work/missing.pdn"
timeout 60 "$match" --summarize "$work/tags.pdn" >/dev/full 2>/dev/null
check "pool-match: summary to /dev/full" $? 1
pm "no engines" 2 --games 2 --depth 1
pm "games 0" 2 --engine cmd="$engine" --engine cmd="$engine" --games 0 --depth 1 --openings tools/data/openings.fen
pm "games abc" 2 --engine cmd="$engine" --engine cmd="$engine" --games abc --depth 1 --openings tools/data/openings.fen
pm "tc 0" 2 --engine cmd="$engine" --engine cmd="$engine" --games 2 --tc 0 --openings tools/data/openings.fen
pm "tc -1+0" 2 --engine cmd="$engine" --engine cmd="$engine" --games 2 --tc -1+0 --openings tools/data/openings.fen
pm "shard 3/2" 2 --engine cmd="$engine" --engine cmd="$engine" --games 2 --depth 1 --shard 3/2 --openings tools/data/openings.fen
pm "sprt elo1 < elo0" 2 --engine cmd="$engine" --engine cmd="$engine" --games 2 --depth 1 --sprt elo0=5 elo1=0 --openings tools/data/openings.fen
pm "engine without cmd" 2 --engine name=x --engine cmd="$engine" --games 2 --depth 1 --openings tools/data/openings.fen
pm "concurrency 0" 2 --engine cmd="$engine" --engine cmd="$engine" --games 2 --depth 1 --concurrency 0 --openings tools/data/openings.fen
pm "missing engine" 1 --engine cmd=/nonexistent/engine --engine cmd="$engine" --games 2 --depth 1 --openings tools/data/openings.fen
pm "engine that exits" 1 --engine cmd=true --engine cmd="$engine" --games 2 --depth 1 --openings tools/data/openings.fen
pm "engine that echoes" 1 --engine cmd=cat --engine cmd="$engine" --games 2 --depth 1 --stall-timeout 1 --openings tools/data/openings.fen
pm "refused option" 1 --engine cmd="$engine" option=hash=0 --engine cmd="$engine" --games 2 --depth 1 --openings tools/data/openings.fen
pm "missing openings" 1 --engine cmd="$engine" --engine cmd="$engine" --games 2 --depth 1 --openings "$work/missing.fen"
pm "garbage openings" 1 --engine cmd="$engine" --engine cmd="$engine" --games 2 --depth 1 --openings "$work/random.pdn"
pm "PDN to /dev/full" 1 --engine cmd="$engine" --engine cmd="$engine" --games 4 --depth 1 --openings tools/data/openings.fen --pdn /dev/full
timeout 60 "$match" --engine cmd="$engine" --engine cmd="$engine" --games 2 --depth 1 --openings tools/data/openings.fen >/dev/full 2>/dev/null
check "pool-match: summary of a match to /dev/full" $? 1

echo "abuse: $cases cases, $crashes crashes, $stalls stalls, $wrong wrong answers"

# match TAG WHAT GOAL LIMIT...: one match of $games games, $concurrency at
# a time, each engine with $threads threads; prints one line with its
# games and forfeits, and counts a missed goal.
missed=0 match_failures=0 summary="" concurrency=2 threads=1
match() {
	tag=$1 what=$2 goal=$3
	shift 3
	echo "== match ($tag): $games games, $what, poolshark against itself"
	timeout $((games * 10 + 60)) "$match" --engine cmd="$engine" name=a option=threads=$threads \
		--engine cmd="$engine" name=b option=threads=$threads \
		--games "$games" --concurrency $concurrency "$@" --openings tools/data/openings.fen \
		--pdn "$build/soak-$tag.pdn" >"$work/match" 2>"$work/match.err" &
	running=$!
	wait "$running"
	rc=$?
	running=""
	terms() { awk -v t="$1" 'index($0, "  " t " ") == 1 { n = $NF } END { print n + 0 }' "$work/match"; }
	forfeits=$(terms "time forfeit") illegal=$(terms "illegal move") crashed=$(terms crash) stalled=$(terms stall)
	played=$(sed -n 's/^Match: .*, \([0-9]*\) games.*/\1/p' "$work/match")
	sed -n '/^Match:/,$p' "$work/match"
	verdict=met
	if [ "$forfeits" -gt "$goal" ]; then
		verdict=MISSED
		missed=$((missed + 1))
	fi
	if [ $((illegal + crashed + stalled)) -gt 0 ] || [ "$rc" -ne 0 ] || [ "${played:-0}" -ne "$games" ]; then
		match_failures=$((match_failures + 1))
	fi
	line="match ($tag) $what: ${played:-0}/$games games, $forfeits time forfeits (goal: at most $goal, $verdict), $illegal illegal moves, $crashed crashes, $stalled stalls (pool-match exit $rc; records: $build/soak-$tag.pdn)"
	echo "$line"
	summary="$summary
$line"
}

# Two busy loops at the machine's own priority, one per core; each also
# ends by itself when this script is gone, should its trap not run.
start_burners() {
	for i in 1 2; do
		sh -c "while kill -0 $$ 2>/dev/null; do :; done" &
		burners="$burners $!"
	done
}

match a "--movetime $movetime" 0 --movetime "$movetime"
match b "--tc $tc, idle" 0 --tc "$tc"
start_burners
match c "--tc $tc, both cores kept busy by two other processes" $((games * 5 / 1000)) --tc "$tc"
stop_burners
all_games=$games games=$(((games + 3) / 4)) concurrency=1 threads=2
match d "--tc $tc, two threads each, one game at a time" 0 --tc "$tc"
games=$all_games

echo "soak summary: abuse $cases cases: $crashes crashes, $stalls stalls, $wrong wrong answers$summary"
[ $((crashes + stalls + wrong + missed + match_failures)) -eq 0 ]
