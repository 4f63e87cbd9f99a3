/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The functions CheckerBoard looks up in an engine DLL (getmove, enginecommand), over one CbEngine. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

#include "frontend/cbengine.h"
#include "poolshark/cpu.h"

#ifdef _WIN32
#include <windows.h>
#define CB_EXPORT __declspec(dllexport)
#define CB_CALL   __stdcall
#else
#define CB_EXPORT __attribute__((visibility("default")))
#define CB_CALL
#endif

/*
 * CheckerBoard's interface has no context argument, so the library keeps
 * its one adapter here, made on the first call. This is the project's only
 * mutable global, and it exists because the interface leaves no choice.
 */
static CbEngine *instance;
static pthread_once_t instance_once = PTHREAD_ONCE_INIT;

static void make_instance(void)
{
#ifdef _WIN32
	/* CheckerBoard FreeLibrary()s an engine when another is selected; the
	 * Engine's helper threads may still run then, and threads cannot be
	 * joined from DllMain. So the DLL stays loaded once used (pinned), and
	 * a later LoadLibrary() of it finds this same adapter again. */
	HMODULE self;
	GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
	                   (LPCSTR)(void *)&instance, &self);
#endif
	/* A processor below the build's floor (x86-64-v2 for the DLL) gets
	 * no engine, and never one of the instructions it lacks. */
	char why[CB_SHORT_REPLY];
	if (cpu_runs_this_build(why, sizeof why))
		instance = cbengine_create();
}

/* Why there is no adapter (the processor, or memory), into a buffer of
 * CheckerBoard's of at least CB_SHORT_REPLY bytes. */
static void no_adapter(char *text)
{
	char why[CB_SHORT_REPLY - 16];
	if (cpu_runs_this_build(why, sizeof why))
		snprintf(why, sizeof why, "not enough memory");
	snprintf(text, CB_SHORT_REPLY, "poolshark: %s", why);
}

static CbEngine *adapter(void)
{
	pthread_once(&instance_once, make_instance);
	return instance;
}

CB_EXPORT int CB_CALL getmove(int board[8][8], int color, double maxtime, char str[1024], int *playnow,
                              int info, int moreinfo, CbMove *move);
CB_EXPORT int CB_CALL enginecommand(const char *command, char reply[1024]);

/* CheckerBoard's getmove(): see cbengine_getmove(). */
CB_EXPORT int CB_CALL getmove(int board[8][8], int color, double maxtime, char str[1024], int *playnow,
                              int info, int moreinfo, CbMove *move)
{
	CbEngine *cb = adapter();
	if (!cb) {
		no_adapter(str);
		return CB_UNKNOWN;
	}
	return cbengine_getmove(cb, board, color, maxtime, str, playnow, (unsigned)info, (unsigned)moreinfo,
	                        move);
}

/* CheckerBoard's enginecommand(): 1 when the command was understood and done, else 0. */
CB_EXPORT int CB_CALL enginecommand(const char *command, char reply[1024])
{
	CbEngine *cb = adapter();
	if (!cb) {
		no_adapter(reply);
		return 0;
	}
	return cbengine_command(cb, command, reply, CB_REPLY_SIZE) ? 1 : 0;
}
