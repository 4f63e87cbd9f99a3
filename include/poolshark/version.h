/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The version of poolshark, set in one place: VERSION in the Makefile. */
#ifndef POOLSHARK_VERSION_H
#define POOLSHARK_VERSION_H

#include <stdbool.h>

/* "0.2": what `hub`, `name`, `about`, `--version`, the terminal game and PDN files report. */
extern const char poolshark_version[];

/*
 * The --version option of every program: when argv[1] is "--version", prints
 * "poolshark VERSION" (program "poolshark") or "PROGRAM (poolshark) VERSION"
 * on standard output and returns true, and the program then exits with
 * status 0 (through textfile_exit, which reports a failed write). Otherwise
 * prints nothing and returns false.
 */
bool version_option(int argc, char **argv, const char *program);

#endif
