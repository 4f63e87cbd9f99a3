#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The layering check must fail on a bad include: a rules module that
# includes an engine header, the engine library including a tools header or
# a front-end header, and a module outside the layer folders.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src" "$tmp/include" "$tmp/tools/lib"
cp -r src/. "$tmp/src"
cp -r include/. "$tmp/include"
cp -r tools/lib/. "$tmp/tools/lib"
scripts/check-layers "$tmp" >/dev/null
for case in 'src/rules/movegen.c:poolshark/search.h' 'src/engine/engine.c:hubclient.h' \
	'src/eval/eval.c:frontend/cli.h'; do
	file=${case%%:*}
	header=${case#*:}
	cp "$file" "$tmp/$file"
	printf '#include "%s"\n' "$header" >>"$tmp/$file"
	if out=$(scripts/check-layers "$tmp"); then
		echo "check-layers missed #include \"$header\" in $file" >&2
		exit 1
	fi
	echo "check-layers refuses $file including $header: $out"
	cp "$file" "$tmp/$file"
done
for stray in src/stray.c src/misc/stray.c; do
	mkdir -p "$tmp/$(dirname "$stray")"
	printf '#include "poolshark/text.h"\n' >"$tmp/$stray"
	if out=$(scripts/check-layers "$tmp"); then
		echo "check-layers missed $stray, outside the layers" >&2
		exit 1
	fi
	echo "check-layers refuses $stray: $out"
	rm -f "$tmp/$stray"
done
