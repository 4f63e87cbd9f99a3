/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CheckerBoard's calls to an engine library, as steps shared by the dlopen test and the Windows test. */
#ifndef POOLSHARK_TESTS_SCENARIO_H
#define POOLSHARK_TESTS_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "frontend/cbengine.h"

#ifdef _WIN32
#define SCENARIO_CALL __stdcall
#else
#define SCENARIO_CALL
#endif

/* The two functions CheckerBoard looks up by name in the engine library. */
typedef int(SCENARIO_CALL *CbGetmoveFn)(int board[8][8], int color, double maxtime, char str[1024],
                                        int *playnow, int info, int moreinfo, CbMove *move);
typedef int(SCENARIO_CALL *CbEnginecommandFn)(const char *command, char reply[1024]);

typedef struct CbApi {
	CbGetmoveFn getmove;
	CbEnginecommandFn enginecommand;
	FILE *log; /* where steps print what they did (the game record); may be NULL */
} CbApi;

/* One step: true when every reply checked out; otherwise why[] says what did not. */
typedef struct ScenarioStep {
	const char *name;
	bool (*run)(const CbApi *api, char *why, size_t why_size);
} ScenarioStep;

/* The steps in the order CheckerBoard makes such calls: start-up probes first. */
extern const ScenarioStep scenario_steps[];
extern const int scenario_step_count;

#endif
