/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Placeholder until this subcommand is written. */
#include <stdio.h>

#include "poolshark/cli.h"

int cli_protocol(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "poolshark: not available yet\n");
	return CLI_FAILURE;
}
