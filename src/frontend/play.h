/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `poolshark play`: a game against the engine in the terminal. */
#ifndef POOLSHARK_PLAY_H
#define POOLSHARK_PLAY_H

/* Runs the terminal game on stdin/stdout; argv[0] is "play". Returns the
 * exit status (cli.h). */
int play_main(int argc, char **argv);

#endif
