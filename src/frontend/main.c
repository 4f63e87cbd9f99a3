/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The poolshark binary: picks a subcommand and hands it argv. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_annotate.h"
#include "cli_perft.h"
#include "cli_search.h"
#include "hubloop.h"
#include "play.h"
#include "poolshark/cpu.h"
#include "poolshark/nnue.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"

typedef struct Subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} Subcommand;

static const Subcommand subcommands[] = {
    {"hub", hubloop_main, "the line protocol on stdin/stdout (the default): hub [--egdb DIR|none]"},
    {"play", play_main, "play a game against the engine in this terminal"},
    {"perft", cli_perft, "count leaves of the move tree: perft [--fen FEN] [--divide] [--hash MB] DEPTH"},
    {"bench", cli_bench, "search benchmark: bench [--variant V] [--eval E] [--eval-file F] [DEPTH]"},
    {"analyse", cli_analyse,
     "search one position: analyse [--fen FEN] (--depth D | --movetime MS | --nodes N)"},
    {"annotate", cli_annotate,
     "review the games of a PDN file: annotate (--depth D | --movetime MS | --nodes N) [--jobs N] [FILE]"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: poolshark [SUBCOMMAND [ARGS]]\n\n");
	for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
		fprintf(out, "  %-8s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(out, "\nWith no subcommand poolshark speaks the Hub protocol; type `help` there.\n"
	             "poolshark --version prints the version.\n");
}

/* Whether this processor runs this build, and POOLSHARK_KERNEL (if set)
 * names a kernel it runs; if not, says why. */
static bool processor_fits(void)
{
	char why[256];
	NnueKernel kernel;
	if (cpu_runs_this_build(why, sizeof why) && nnue_kernel_from_environment(&kernel, why, sizeof why))
		return true;
	fprintf(stderr, "poolshark: %s\n", why);
	return false;
}

/* Every subcommand's results go to standard output: a write that failed
 * (a full disk, /dev/full) fails the run. */
int main(int argc, char **argv)
{
	if (version_option(argc, argv, "poolshark"))
		return textfile_exit("poolshark", CLI_OK);
	if (!processor_fits())
		return CLI_FAILURE;
	if (argc < 2 || !strcmp(argv[1], "--egdb"))
		return textfile_exit("poolshark", hubloop_main(argc, argv));
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return textfile_exit("poolshark", CLI_OK);
	}
	for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return textfile_exit("poolshark", subcommands[i].run(argc - 1, argv + 1));
	fprintf(stderr, "poolshark: unknown subcommand '%s'\n", argv[1]);
	usage(stderr);
	return CLI_USAGE;
}
