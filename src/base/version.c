/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The version string and an installed copy's database directory, both from the Makefile. */
#include "poolshark/version.h"

#include <stdio.h>
#include <string.h>

#ifndef POOLSHARK_VERSION
#error "build with -DPOOLSHARK_VERSION=\"x.y\" (the Makefile does)"
#endif
/* Only the builds of programs a user installs name a prefix. */
#ifndef POOLSHARK_EGDB_DIR
#define POOLSHARK_EGDB_DIR ""
#endif

const char poolshark_version[] = POOLSHARK_VERSION;
const char poolshark_installed_egdb_dir[] = POOLSHARK_EGDB_DIR;

bool version_option(int argc, char **argv, const char *program)
{
	if (argc < 2 || strcmp(argv[1], "--version"))
		return false;
	if (!strcmp(program, "poolshark"))
		printf("poolshark %s\n", poolshark_version);
	else
		printf("%s (poolshark) %s\n", program, poolshark_version);
	return true;
}
