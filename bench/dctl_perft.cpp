// SPDX-License-Identifier: GPL-3.0-or-later
// A perft driver over DCTL's pool rules, for side-by-side speed figures.
//
// Built by bench/build-dctl from a local DCTL checkout; never part of the
// engine. It takes the same arguments as `poolshark perft [--fen FEN] DEPTH`
// and prints the same lines (every depth from 1), so bench/compare and bench/icount run it
// unchanged. Counting is DCTL's own: duplicate captures dropped, the last
// ply counted in bulk, no table.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dctl/algo/traversal/root.hpp>
#include <dctl/core.hpp>
#include <string>

int main(int argc, char **argv)
{
	using namespace dctl::core;
	std::string fen = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
	int depth = 0;

	for (int i = 1; i < argc; i++) {
		if (!std::strcmp(argv[i], "perft"))
			continue;
		if (!std::strcmp(argv[i], "--fen") && i + 1 < argc)
			fen = argv[++i];
		else
			depth = std::atoi(argv[i]);
	}
	if (depth < 1) {
		std::fprintf(stderr, "usage: dctl-perft [perft] [--fen FEN] DEPTH\n");
		return 2;
	}
	auto const state = pdn::read<pool>{}(fen);
	for (int d = 1; d <= depth; d++) {
		auto const start = std::chrono::steady_clock::now();
		auto const leaves =
		    dctl::algo::traversal::depth_limited_count<true>(state, d, drop_duplicates_gen);
		std::chrono::duration<double> const seconds = std::chrono::steady_clock::now() - start;
		double const s = seconds.count();
		std::printf("depth=%d leaves=%lld seconds=%.3f mlps=%.1f\n", d, (long long)leaves, s,
		            s > 0 ? (double)leaves / s / 1e6 : 0.0);
	}
	return 0;
}
