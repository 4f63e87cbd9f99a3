/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `poolshark perft`: leaf counts from the command line. */
#ifndef POOLSHARK_CLI_PERFT_H
#define POOLSHARK_CLI_PERFT_H

/* `poolshark perft [--fen FEN] [--divide] [--hash MB] DEPTH`; argv[0] is
 * "perft". Returns the exit status (cli.h). */
int cli_perft(int argc, char **argv);

#endif
