/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `poolshark annotate`: a PDN file reviewed move by move, games in parallel jobs. */
#ifndef POOLSHARK_CLI_ANNOTATE_H
#define POOLSHARK_CLI_ANNOTATE_H

/* `poolshark annotate [--OPTION VALUE ...] (--depth D | --movetime MS | --nodes N) [--jobs N]
 * [--output FILE] [FILE]` (its --help says what it writes). Returns the exit status (cli.h):
 * CLI_FAILURE when a game could not be read (the others are written), on a write error,
 * and when the input holds no game. */
int cli_annotate(int argc, char **argv);

#endif
