#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The bench node count must not depend on the compiler or the optimisation:
# build with clang -O0 and gcc -O2, run `poolshark bench` on them and on the
# default build (make: -O3 -march=native) and, on a machine with AVX2, gcc
# -O2 -mavx2 (the portable kernel compiled for AVX2), under each evaluation
# (classic, net), compare. Each build runs the network's best kernel for
# this processor; tests/test_kernels.sh compares the kernels themselves.
set -eu
cd "$(dirname "$0")/.."

DEPTH=${BENCH_DEPTH:-}
make --no-print-directory BUILD=build-sig-clang CC=clang OPT=-O0 build-sig-clang/poolshark >/dev/null
make --no-print-directory BUILD=build-sig-gcc CC=gcc OPT=-O2 build-sig-gcc/poolshark >/dev/null

make --no-print-directory build/poolshark >/dev/null
avx2=
if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
	make --no-print-directory BUILD=build-sig-avx2 CC=gcc OPT="-O2 -mavx2" build-sig-avx2/poolshark >/dev/null
	avx2=./build-sig-avx2/poolshark
fi

for eval in classic net; do
	clang_nodes=$(./build-sig-clang/poolshark bench --eval $eval $DEPTH | grep '^Nodes searched:')
	gcc_nodes=$(./build-sig-gcc/poolshark bench --eval $eval $DEPTH | grep '^Nodes searched:')
	default_nodes=$(./build/poolshark bench --eval $eval $DEPTH | grep '^Nodes searched:')

	echo "eval=$eval clang -O0: $clang_nodes"
	echo "eval=$eval gcc -O2:   $gcc_nodes"
	echo "eval=$eval default:   $default_nodes"
	avx2_nodes=$gcc_nodes
	if [ -n "$avx2" ]; then
		avx2_nodes=$($avx2 bench --eval $eval $DEPTH | grep '^Nodes searched:')
		echo "eval=$eval gcc -O2 -mavx2: $avx2_nodes"
	fi
	if [ -z "$clang_nodes" ] || [ "$clang_nodes" != "$gcc_nodes" ] || [ "$default_nodes" != "$gcc_nodes" ] ||
		[ "$avx2_nodes" != "$gcc_nodes" ]; then
		echo "bench signature mismatch under eval=$eval" >&2
		exit 1
	fi
done
echo "bench signature: same"
