#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The bench node count of the binary must equal the `Bench: N` of the newest
# commit that states one: a change of the search's behaviour says so.
# Usage: tests/bench-commit.sh BINARY
set -eu
cd "$(dirname "$0")/.."
binary=${1:-./build/poolshark}
stated=$(git log -n 1 --grep='Bench: [0-9]' --format=%B 2>/dev/null | sed -n 's/.*Bench: \([0-9][0-9]*\).*/\1/p' | tail -n 1)
if [ -z "$stated" ]; then
	echo "no commit states a Bench: signature (shallow clone?)" >&2
	exit 1
fi
nodes=$("$binary" bench | sed -n 's/^Nodes searched: \([0-9]*\)$/\1/p')
echo "bench: $nodes nodes; newest Bench: in a commit message: $stated"
if [ "$nodes" != "$stated" ]; then
	echo "the bench signature changed: end the commit message with 'Bench: $nodes'" >&2
	exit 1
fi
