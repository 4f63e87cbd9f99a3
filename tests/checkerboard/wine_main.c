/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Windows test: LoadLibrary's the engine DLL and makes CheckerBoard's calls (the shared scenario);
 * with --bench, the DLL's bench. */
#include <stdio.h>
#include <string.h>
#include <windows.h>

#include "scenario.h"

/* cbtest.exe --bench DLL [DEPTH] [classic|net]: the DLL's `bench` command (its own code's
 * search speed), printed as `poolshark bench` ends its output, for bench/builds. */
static int bench(int argc, char **argv)
{
	HMODULE dll = argc > 2 ? LoadLibraryA(argv[2]) : NULL;
	CbEnginecommandFn command =
	    dll ? (CbEnginecommandFn)(void (*)(void))GetProcAddress(dll, "enginecommand") : NULL;
	if (!command) {
		fprintf(stderr, "usage: cbtest.exe --bench DLL [DEPTH] [classic|net] (cannot load %s)\n",
		        argc > 2 ? argv[2] : "a DLL");
		return 2;
	}
	char line[64], reply[CB_REPLY_SIZE] = "";
	snprintf(line, sizeof line, "bench %.8s %.8s", argc > 3 ? argv[3] : "", argc > 4 ? argv[4] : "");
	if (command(line, reply) != 1) {
		fprintf(stderr, "cbtest: %s: %s\n", line, reply);
		return 1;
	}
	unsigned long long nodes = 0, nps = 0;
	long long cpu_ms = -1;
	const char *kernel = strstr(reply, "kernel="), *n = strstr(reply, "nodes="),
	           *s = strstr(reply, "nps="), *c = strstr(reply, "cpu-ms=");
	if (!kernel || !n || !s || !c || sscanf(n, "nodes=%llu", &nodes) != 1 ||
	    sscanf(s, "nps=%llu", &nps) != 1 || sscanf(c, "cpu-ms=%lld", &cpu_ms) != 1) {
		fprintf(stderr, "cbtest: %s: unexpected reply: %s\n", line, reply);
		return 1;
	}
	printf("%s\nKernel: %.*s\nProcessor time (ms): %lld\nNodes searched: %llu\nNodes/second: %llu\n",
	       reply, (int)strcspn(kernel + 7, " "), kernel + 7, cpu_ms, nodes, nps);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--bench") == 0)
		return bench(argc, argv);
	/* usage: cbtest.exe DLL [COPY]: the scenario on DLL, then that COPY (the same DLL under
	 * another file name) is an engine of its own. */
	const char *path = argc > 1 ? argv[1] : "poolshark64.dll";
	HMODULE dll = LoadLibraryA(path);
	if (!dll) {
		fprintf(stderr, "cannot load %s (error %lu)\n", path, (unsigned long)GetLastError());
		return 2;
	}
	CbApi api;
	api.getmove = (CbGetmoveFn)(void (*)(void))GetProcAddress(dll, "getmove");
	api.enginecommand = (CbEnginecommandFn)(void (*)(void))GetProcAddress(dll, "enginecommand");
	api.log = stdout;
	if (!api.getmove || !api.enginecommand) {
		fprintf(stderr, "%s does not export getmove and enginecommand\n", path);
		return 2;
	}
	int passed = 0, failed = 0;
	for (int i = 0; i < scenario_step_count; i++) {
		char why[512] = "";
		bool ok = scenario_steps[i].run(&api, why, sizeof why);
		printf("[%s] %s%s%s\n", ok ? "  OK  " : "FAILED", scenario_steps[i].name, ok ? "" : ": ",
		       why);
		fflush(stdout);
		if (ok)
			passed++;
		else
			failed++;
	}
	/* CheckerBoard unloads an engine when another is selected, and may load it again. */
	FreeLibrary(dll);
	dll = LoadLibraryA(path);
	char reply[CB_REPLY_SIZE] = "";
	CbEnginecommandFn command =
	    dll ? (CbEnginecommandFn)(void (*)(void))GetProcAddress(dll, "enginecommand") : NULL;
	bool kept = command && command("get hashsize", reply) == 1 && strcmp(reply, "16") == 0;
	printf("[%s] FreeLibrary and LoadLibrary again: the same adapter (hashsize %s)\n",
	       kept ? "  OK  " : "FAILED", reply);
	if (kept)
		passed++;
	else
		failed++;
	/* The copy under another name is another engine: what one is set to,
	 * the other is not (CheckerBoard's primary and secondary slots). */
	if (argc > 2) {
		HMODULE copy = LoadLibraryA(argv[2]);
		CbEnginecommandFn other =
		    copy ? (CbEnginecommandFn)(void (*)(void))GetProcAddress(copy, "enginecommand") : NULL;
		char mine[CB_REPLY_SIZE] = "", theirs[CB_REPLY_SIZE] = "";
		bool apart = command && other && command("set strength 40", reply) == 1 &&
		             command("get strength", mine) == 1 && other("get strength", theirs) == 1 &&
		             strcmp(mine, "40") == 0 && strcmp(theirs, "100") == 0;
		printf("[%s] %s is a second engine (strength %s here, %s there)\n",
		       apart ? "  OK  " : "FAILED", argv[2], mine, theirs);
		if (apart)
			passed++;
		else
			failed++;
	}
	printf("cbtest: %d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
