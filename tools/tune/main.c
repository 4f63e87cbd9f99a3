/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tune: generate self-play training positions, fit the evaluation weights to them. */
#include <string.h>

#include "poolshark/textfile.h"
#include "poolshark/version.h"

#include "tune.h"

static int usage(void)
{
	fprintf(stderr, "usage: tune gen [OPTIONS] > positions.txt   self-play quiet positions with results\n"
	                "       tune fit --data positions.txt [OPTIONS]  fit K, then the weights\n"
	                "`tune gen --help` and `tune fit --help` list the options.\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (version_option(argc, argv, "tune"))
		return textfile_exit("tune", 0);
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "gen"))
		return textfile_exit("tune gen", tune_gen(argc - 1, argv + 1));
	if (!strcmp(argv[1], "fit"))
		return textfile_exit("tune fit", tune_fit(argc - 1, argv + 1));
	return usage();
}
