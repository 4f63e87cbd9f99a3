/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine process side of the protocol: stdin in this thread, flushed lines on stdout. */
#include "hubloop.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "poolshark/egdb.h"
#include "poolshark/hubline.h"

static void write_file(const char *line, void *user)
{
	FILE *out = user;
	fputs(line, out);
	fputc('\n', out);
	fflush(out);
}

int hubloop_run(int in_fd, FILE *out, const ProtocolConfig *config)
{
	LineReader reader;
	if (!linereader_init(&reader, in_fd))
		return 1;
	Protocol *p = protocol_create(config, write_file, out);
	if (!p) {
		linereader_free(&reader);
		return 1;
	}
	if (config->interactive)
		protocol_greet(p);
	for (;;) {
		const char *line;
		size_t length;
		LineStatus status = linereader_next(&reader, &line, &length);
		if (status == LINE_TOO_LONG) {
			char message[80];
			snprintf(message, sizeof message, "line too long (more than %d bytes), ignored",
			         HUBLINE_MAX_LENGTH);
			protocol_error(p, message);
			continue;
		}
		if (status != LINE_OK) {
			protocol_finish(p);
			break;
		}
		if (!protocol_handle_line(p, line, length))
			break;
	}
	protocol_destroy(p);
	linereader_free(&reader);
	return 0;
}

int hubloop_main(int argc, char **argv)
{
	ProtocolConfig config;
	protocol_default_config(&config);
	egdb_default_dir(config.egdb_path, sizeof config.egdb_path);
	if (argc == 3 && (!strcmp(argv[1], "--egdb") || !strcmp(argv[1], "--egdb-path"))) {
		snprintf(config.egdb_path, sizeof config.egdb_path, "%s",
		         strcmp(argv[2], "none") ? argv[2] : "");
		if (!cli_check_egdb("hub", config.egdb_path, NULL))
			return CLI_USAGE;
	} else if (argc > 1) {
		fprintf(stderr, "usage: poolshark [hub [--egdb DIR|none]]\n");
		return CLI_USAGE;
	}
	/* A GUI that dies closes the pipe; writing to it must fail, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	config.interactive = isatty(STDIN_FILENO) != 0;
	return hubloop_run(STDIN_FILENO, stdout, &config) ? CLI_FAILURE : CLI_OK;
}
