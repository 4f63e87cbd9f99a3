/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `poolshark perft`: leaf counts per depth, optional divide and hash. */
#include "cli_perft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "poolshark/clock.h"
#include "poolshark/notation.h"
#include "poolshark/perft.h"

enum { PERFT_MAX_DEPTH = 30, PERFT_MAX_HASH_MB = 65536 };

static const char perft_usage[] = "usage: poolshark perft [--variant " VARIANT_CHOICES
                                  "] [--fen FEN] [--divide | --paths] [--hash MB] DEPTH\n";

static double seconds_since(int64_t start_ns)
{
	return (double)(clock_now_ns() - start_ns) / 1e9;
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
	bool paths; /* a capture counts once per route */
	long long hash_mb;
	int depth;
} PerftArgs;

static bool parse_args(int argc, char **argv, PerftArgs *args)
{
	const char *depth_text = NULL;
	const char *fen = NULL;
	Variant variant = VARIANT_POOL;
	position_start(&args->root);
	args->divide = false;
	args->paths = false;
	args->hash_mb = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--divide")) {
			args->divide = true;
		} else if (!strcmp(a, "--paths")) {
			args->paths = true;
		} else if (!strcmp(a, "--fen") || !strcmp(a, "--hash") || !strcmp(a, "--variant")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "poolshark perft: %s needs a value\n", a);
				return false;
			}
			const char *value = argv[++i];
			if (!strcmp(a, "--fen")) {
				fen = value; /* read below, under the rules of --variant */
			} else if (!strcmp(a, "--variant")) {
				if (!cli_parse_variant("perft", value, &variant))
					return false;
			} else if (!cli_parse_number("perft", "hash size", value, 1, PERFT_MAX_HASH_MB,
			                             &args->hash_mb)) {
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
	char error[NOTATION_ERROR_MAX];
	if (fen && !notation_parse_fen(fen, variant, &args->root, error, sizeof error)) {
		fprintf(stderr, "poolshark perft: bad FEN: %s\n", error);
		return false;
	}
	if (!fen)
		position_start_variant(&args->root, variant);
	if (!depth_text) {
		fprintf(stderr, "poolshark perft: missing DEPTH\n");
		return false;
	}
	if (args->divide && args->paths) {
		fprintf(stderr, "poolshark perft: --divide and --paths: one at a time\n");
		return false;
	}
	long long depth;
	if (!cli_parse_number("perft", "depth", depth_text, 1, PERFT_MAX_DEPTH, &depth))
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
	if (args.divide) {
		PerftDivide *divide = malloc(sizeof *divide);
		if (!divide) {
			perft_table_free(table);
			fprintf(stderr, "poolshark perft: out of memory\n");
			return CLI_FAILURE;
		}
		int64_t start = clock_now_ns();
		perft_divide(&args.root, args.depth, table, divide);
		for (int i = 0; i < divide->count; i++) {
			char text[NOTATION_MOVE_MAX];
			notation_write_move(&args.root, divide->moves[i], text, sizeof text);
			printf("%s %llu\n", text, (unsigned long long)divide->leaves[i]);
		}
		print_total(args.depth, divide->total, seconds_since(start));
		free(divide);
	} else {
		for (int d = 1; d <= args.depth; d++) {
			int64_t start = clock_now_ns();
			uint64_t leaves = args.paths ? perft_count_paths(&args.root, d, table)
			                             : perft_count(&args.root, d, table);
			print_total(d, leaves, seconds_since(start));
		}
	}
	perft_table_free(table);
	return CLI_OK;
}
