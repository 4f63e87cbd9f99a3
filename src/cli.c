/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the subcommands of the poolshark binary. */
#include "poolshark/cli.h"

#include <stdio.h>

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
