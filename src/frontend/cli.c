/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the subcommands of the poolshark binary. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/egdb.h"
#include "poolshark/nnue.h"
#include "poolshark/number.h"

bool cli_parse_number(const char *program, const char *what, const char *text, long long min, long long max,
                      long long *out)
{
	const char *problem = number_parse(text, min, max, out);
	if (problem)
		fprintf(stderr, "poolshark %s: %s '%.40s' is %s (allowed %lld-%lld)\n", program, what, text,
		        problem, min, max);
	return !problem;
}

bool cli_parse_variant(const char *program, const char *text, Variant *out)
{
	if (variant_parse(text, out))
		return true;
	fprintf(stderr, "poolshark %s: unknown variant '%.40s' (known: %s)\n", program, text, VARIANT_NAMES);
	return false;
}

bool cli_check_egdb(const char *program, const char *dir, const Variant *variant)
{
	if (!dir[0])
		return true;
	char why[512] = "";
	for (int v = 0; v < VARIANT_COUNT; v++) {
		if (variant && v != (int)*variant)
			continue;
		char reason[512] = "";
		Egdb *db = egdb_open(dir, (Variant)v, reason, sizeof reason);
		int pieces = egdb_max_pieces(db);
		egdb_close(db);
		if (pieces > 0)
			return true;
		if (db)
			snprintf(reason, sizeof reason, "no complete endgame database in '%.400s'", dir);
		if (!why[0])
			snprintf(why, sizeof why, "%s", reason); /* the first rule set's reason */
	}
	fprintf(stderr, "poolshark %s: --egdb %.400s: %s\n", program, dir, why);
	return false;
}

bool cli_check_eval_file(const char *program, const EngineOptions *options)
{
	if (!strcmp(options->eval_file, "default"))
		return true;
	NnueNetwork *net = malloc(sizeof *net);
	char why[512] = "not enough memory";
	bool ok = net && nnue_load_file(net, options->eval_file, options->variant, why, sizeof why);
	free(net);
	if (!ok)
		fprintf(stderr, "poolshark %s: --eval-file %.400s\n", program, why);
	return ok;
}
