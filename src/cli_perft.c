/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `poolshark perft`: leaf counts per depth, optional divide and hash. */
#include <bsd/stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "poolshark/cli.h"
#include "poolshark/notation.h"
#include "poolshark/perft.h"

enum { PERFT_MAX_DEPTH = 30, PERFT_MAX_HASH_MB = 65536 };

static const char perft_usage[] = "usage: poolshark perft [--fen FEN] [--divide] [--hash MB] DEPTH\n";

static double seconds_since(const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

static void print_total(int depth, uint64_t leaves, double seconds)
{
	double mlps = seconds > 0 ? (double)leaves / seconds / 1e6 : 0.0;
	printf("depth=%d leaves=%llu seconds=%.3f mlps=%.1f\n", depth, (unsigned long long)leaves, seconds,
	       mlps);
	fflush(stdout);
}

typedef struct PerftArgs {
	Position root;
	bool divide;
	long long hash_mb;
	int depth;
} PerftArgs;

static bool parse_number(const char *text, const char *what, long long min, long long max, long long *out)
{
	const char *problem = NULL;
	long long value = strtonum(text, min, max, &problem);
	if (problem) {
		fprintf(stderr, "poolshark perft: %s '%.40s' is %s (allowed %lld-%lld)\n", what, text,
		        problem, min, max);
		return false;
	}
	*out = value;
	return true;
}

static bool parse_args(int argc, char **argv, PerftArgs *args)
{
	const char *depth_text = NULL;
	position_start(&args->root);
	args->divide = false;
	args->hash_mb = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--divide")) {
			args->divide = true;
		} else if (!strcmp(a, "--fen") || !strcmp(a, "--hash")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "poolshark perft: %s needs a value\n", a);
				return false;
			}
			const char *value = argv[++i];
			if (!strcmp(a, "--fen")) {
				char error[NOTATION_ERROR_MAX];
				if (!notation_parse_fen(value, &args->root, error, sizeof error)) {
					fprintf(stderr, "poolshark perft: bad FEN: %s\n", error);
					return false;
				}
			} else if (!parse_number(value, "hash size", 1, PERFT_MAX_HASH_MB, &args->hash_mb)) {
				return false;
			}
		} else if (a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9')) {
			fprintf(stderr, "poolshark perft: unknown option '%.40s'\n", a);
			return false;
		} else if (depth_text) {
			fprintf(stderr, "poolshark perft: unexpected argument '%.40s'\n", a);
			return false;
		} else {
			depth_text = a;
		}
	}
	if (!depth_text) {
		fprintf(stderr, "poolshark perft: missing DEPTH\n");
		return false;
	}
	long long depth;
	if (!parse_number(depth_text, "depth", 1, PERFT_MAX_DEPTH, &depth))
		return false;
	args->depth = (int)depth;
	return true;
}

int cli_perft(int argc, char **argv)
{
	PerftArgs args;
	if (!parse_args(argc, argv, &args)) {
		fputs(perft_usage, stderr);
		return CLI_USAGE;
	}
	PerftTable *table = NULL;
	if (args.hash_mb > 0) {
		table = perft_table_create((size_t)args.hash_mb);
		if (!table) {
			fprintf(stderr, "poolshark perft: cannot allocate %lld MiB of hash\n", args.hash_mb);
			return CLI_FAILURE;
		}
	}
	struct timespec start;
	if (args.divide) {
		static PerftDivide divide; /* large; one per process run */
		clock_gettime(CLOCK_MONOTONIC, &start);
		perft_divide(&args.root, args.depth, table, &divide);
		for (int i = 0; i < divide.count; i++) {
			char text[NOTATION_MOVE_MAX];
			notation_write_move(&args.root, divide.moves[i], text, sizeof text);
			printf("%s %llu\n", text, (unsigned long long)divide.leaves[i]);
		}
		print_total(args.depth, divide.total, seconds_since(&start));
	} else {
		for (int d = 1; d <= args.depth; d++) {
			clock_gettime(CLOCK_MONOTONIC, &start);
			uint64_t leaves = perft_count(&args.root, d, table);
			print_total(d, leaves, seconds_since(&start));
		}
	}
	perft_table_free(table);
	return CLI_OK;
}
