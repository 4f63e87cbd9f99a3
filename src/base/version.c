/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The version string; the build passes POOLSHARK_VERSION from the Makefile's VERSION. */
#include "poolshark/version.h"

#include <stdio.h>
#include <string.h>

#ifndef POOLSHARK_VERSION
#error "build with -DPOOLSHARK_VERSION=\"x.y\" (the Makefile does)"
#endif

const char poolshark_version[] = POOLSHARK_VERSION;

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
