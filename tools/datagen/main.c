/* SPDX-License-Identifier: GPL-3.0-or-later */
/* datagen: labelled training positions from self-play, and a look at the files (doc/EVAL.md). */
#include <stdio.h>
#include <string.h>

#include "poolshark/textfile.h"
#include "datagen.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"

static int usage(void)
{
	fprintf(
	    stderr,
	    "usage: datagen gen --out FILE [OPTIONS]    self-play games into a training data file\n"
	    "       datagen info FILE                  the header and label statistics of a file\n"
	    "       datagen merge --out FILE IN...     join the shards of one run (--shard K/N)\n"
	    "       datagen walk --out FILE DATA...    endgame positions by random moves, database labels\n"
	    "`datagen gen --help` lists the options; doc/EVAL.md describes the file.\n");
	return 2;
}

static int run(int argc, char **argv)
{
	if (version_option(argc, argv, "datagen"))
		return textfile_exit("datagen", 0);
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "gen"))
		return datagen_gen(argc - 1, argv + 1);
	if (!strcmp(argv[1], "info"))
		return datagen_info(argc - 1, argv + 1);
	if (!strcmp(argv[1], "merge"))
		return datagen_merge(argc - 1, argv + 1);
	if (!strcmp(argv[1], "walk"))
		return datagen_walk(argc - 1, argv + 1);
	fprintf(stderr, "datagen: unknown subcommand `%s`\n", argv[1]);
	return usage();
}

/* info's statistics and every --help go to standard output: a write that failed fails the run. */
int main(int argc, char **argv)
{
	return textfile_exit("datagen", run(argc, argv));
}
