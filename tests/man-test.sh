#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The manual pages (doc/man, installed by make install): each passes
# mandoc -Tlint and groff -ww without a warning, every program make install
# installs has its page and no page lacks a program, and each long option
# that a program's source names or its table of options holds is in its page.
# Needs mandoc and groff (.ci/run installs them); a few seconds.
set -eu
cd "$(dirname "$0")/.."
fail() {
	echo "FAILED: $*" >&2
	exit 1
}
command -v mandoc >/dev/null || fail "mandoc is not installed (apt-get install mandoc)"
command -v groff >/dev/null || fail "groff is not installed (apt-get install groff)"

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
for page in doc/man/*.6; do
	mandoc -Tlint -Wwarning "$page" || fail "$page: mandoc -Tlint warns (above)"
	out=$(groff -mandoc -Tutf8 -ww -z "$page" 2>&1)
	[ -z "$out" ] || fail "$page: groff -ww warns: $out"
done
pages=0
for program in poolshark $tools; do
	name=$(installed_name "$program")
	page=doc/man/$name.6
	[ -f "$page" ] || fail "$name has no manual page $page"
	pages=$((pages + 1))
	if [ "$program" = poolshark ]; then
		sources="src/frontend/*.c src/engine/options.c"
	else
		sources="tools/$program/*.c"
	fi
	text=$(mandoc -Tascii "$page" | sed "s/.\x08//g")
	# shellcheck disable=SC2086 # the globs are meant
	# The options the source spells out, and those of the tools' tables
	# (tools/lib/cmdline.h: cmdline_int("games", ...) is --games).
	for option in $({
		cat $sources | grep -o '"[^"]*' | grep -o -- '--[a-z][a-z0-9-]*'
		cat $sources | grep -oE 'cmdline_(on|off|text|int|long|decimal|choice|variant|shard|call|words)\("[a-z][a-z0-9-]*"' | sed 's/.*("/--/; s/"$//'
	} | sort -u); do
		echo "$text" | grep -q -- "$option\\b" || fail "$page does not mention $option, which $program takes"
	done
done
[ "$pages" -eq "$(ls doc/man/*.6 | wc -l)" ] || fail "doc/man holds pages of no program"
echo "manual pages: $pages, each clean under mandoc -Tlint and groff -ww, every option named"

