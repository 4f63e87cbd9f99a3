/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The signals of a program that drives engines, set up in one place. */
#include "signals.h"

#include <string.h>
#include <sys/prctl.h>

/* Written by the handler only: the one mutable global a signal allows. */
static volatile sig_atomic_t stop_requested;

static void on_stop(int signal_number)
{
	(void)signal_number;
	stop_requested = 1;
}

volatile const sig_atomic_t *signals_catch_stop(void)
{
	struct sigaction action;
	memset(&action, 0, sizeof action);
	action.sa_handler = on_stop;
	sigemptyset(&action.sa_mask);
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGHUP, &action, NULL);
	signal(SIGPIPE, SIG_IGN);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	return &stop_requested;
}
