/* SPDX-License-Identifier: GPL-3.0-or-later */
/* datagen: labelled training positions from self-play, and a look at the files (doc/EVAL.md). */
#include "poolshark/textfile.h"
#include "poolshark/version.h"
#include "cmdline.h"
#include "datagen.h"

static const char usage[] =
    "usage: datagen gen --out FILE [OPTIONS]    self-play games into a training data file\n"
    "       datagen info FILE                  the header and label statistics of a file\n"
    "       datagen merge --out FILE IN...     join the shards of one run (--shard K/N)\n"
    "       datagen walk --out FILE DATA...    endgame positions by random moves, database labels\n"
    "`datagen gen --help` lists the options; doc/EVAL.md describes the file.\n";

/* info's statistics and every --help go to standard output: a write that failed fails the run. */
int main(int argc, char **argv)
{
	static const CmdlineCommand commands[] = {
	    {"gen", datagen_gen}, {"info", datagen_info}, {"merge", datagen_merge}, {"walk", datagen_walk}};
	if (version_option(argc, argv, "datagen"))
		return textfile_exit("datagen", 0);
	return textfile_exit("datagen", cmdline_dispatch("datagen", usage, commands,
	                                                 sizeof commands / sizeof commands[0], argc, argv));
}
