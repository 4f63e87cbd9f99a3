/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tune: generate self-play training positions, fit the evaluation weights to them. */
#include "poolshark/textfile.h"
#include "poolshark/version.h"

#include "cmdline.h"
#include "tune.h"

static const char usage[] =
    "usage: tune gen [OPTIONS] > positions.txt   self-play quiet positions with results\n"
    "       tune fit --data positions.txt [OPTIONS]  fit K, then the weights\n"
    "`tune gen --help` and `tune fit --help` list the options.\n";

/* The positions, the fit and every --help go to standard output: a write that failed fails the run. */
int main(int argc, char **argv)
{
	static const CmdlineCommand commands[] = {{"gen", tune_gen}, {"fit", tune_fit}};
	if (version_option(argc, argv, "tune"))
		return textfile_exit("tune", 0);
	return textfile_exit("tune", cmdline_dispatch("tune", usage, commands,
	                                              sizeof commands / sizeof commands[0], argc, argv));
}
