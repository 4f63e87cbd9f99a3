/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Subcommands of the poolshark binary; each returns the process exit status. */
#ifndef POOLSHARK_CLI_H
#define POOLSHARK_CLI_H

/* Exit statuses shared by every subcommand. */
enum { CLI_OK = 0, CLI_FAILURE = 1, CLI_USAGE = 2 };

/* `poolshark perft [--fen FEN] [--divide] [--hash MB] DEPTH` (src/cli_perft.c).
 * argv[0] is "perft". */
int cli_perft(int argc, char **argv);

/* `poolshark bench [DEPTH]` (src/cli_search.c). */
int cli_bench(int argc, char **argv);

/* `poolshark analyse [--fen FEN] (--depth D | --movetime MS | --nodes N)`
 * (src/cli_search.c). */
int cli_analyse(int argc, char **argv);

/* `poolshark play`: a game against the engine in the terminal (src/play.c). */
int cli_play(int argc, char **argv);

/* `poolshark` with no subcommand (or `poolshark hub`): the line protocol on
 * stdin/stdout (src/protocol.c). */
int cli_protocol(int argc, char **argv);

#endif
