/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `poolshark bench` and `poolshark analyse`: the search from the command line. */
#ifndef POOLSHARK_CLI_SEARCH_H
#define POOLSHARK_CLI_SEARCH_H

/* `poolshark bench [DEPTH]`. Returns the exit status (cli.h). */
int cli_bench(int argc, char **argv);

/* `poolshark analyse [--fen FEN] [--OPTION VALUE ...] (--depth D | --movetime MS | --nodes N)`.
 * Returns the exit status (cli.h). */
int cli_analyse(int argc, char **argv);

#endif
