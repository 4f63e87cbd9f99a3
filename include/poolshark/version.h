/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The version of poolshark and where an installed copy keeps its data: set in the Makefile. */
#ifndef POOLSHARK_VERSION_H
#define POOLSHARK_VERSION_H

#include <stdbool.h>

/* "0.2": what `hub`, `name`, `about`, `--version`, the terminal game and PDN files report. */
extern const char poolshark_version[];

/*
 * The endgame database directory of an installed copy, PREFIX/share/poolshark/egdb
 * (`make install`'s PREFIX, compiled in), or "" in a build that installs nowhere
 * (the Windows DLL, the page). egdb_default_dir() looks there.
 */
extern const char poolshark_installed_egdb_dir[];

/*
 * The --version option of every program: when argv[1] is "--version", prints
 * "poolshark VERSION" (program "poolshark") or "PROGRAM (poolshark) VERSION"
 * on standard output and returns true, and the program then exits with
 * status 0 (through textfile_exit, which reports a failed write). Otherwise
 * prints nothing and returns false.
 */
bool version_option(int argc, char **argv, const char *program);

#endif
