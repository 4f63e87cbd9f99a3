/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GUI side of the Hub protocol: run an engine process and talk to it over pipes. */
#define _GNU_SOURCE /* pipe2 */
#include "hubclient.h"

#include "poolshark/clock.h"

#include "poolshark/hubline.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void hub_engine_init(HubEngine *e)
{
	memset(e, 0, sizeof *e);
	e->to_engine = -1;
	e->from_engine = -1;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

bool hub_engine_spawn(HubEngine *e, const char *command, char *error, size_t error_size)
{
	int in[2], out[2];
	char shell_line[HUB_LINE_MAX];

	hub_engine_init(e);
	if ((size_t)snprintf(shell_line, sizeof shell_line, "exec %s", command) >= sizeof shell_line) {
		snprintf(error, error_size, "engine command too long");
		return false;
	}
	/* Close-on-exec from birth: engines started by other threads must not
	 * inherit these ends, or this engine's death would never read as EOF. */
	if (pipe2(in, O_CLOEXEC) != 0) {
		snprintf(error, error_size, "pipe: %s", strerror(errno));
		return false;
	}
	if (pipe2(out, O_CLOEXEC) != 0) {
		snprintf(error, error_size, "pipe: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		return false;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(error, error_size, "fork: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return false;
	}
	if (pid == 0) {
		sigset_t none;
		setpgid(0, 0);
		/* Ignored signals and the mask survive exec: give the engine
		 * the defaults it expects. */
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (dup2(in[0], STDIN_FILENO) < 0 || dup2(out[1], STDOUT_FILENO) < 0)
			_exit(127);
		execl("/bin/sh", "sh", "-c", shell_line, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid); /* also here: no race with a kill of the group */
	close(in[0]);
	close(out[1]);
	e->pid = pid;
	e->to_engine = in[1];
	e->from_engine = out[0];
	return true;
}

bool hub_engine_send(HubEngine *e, const char *line)
{
	size_t length = strlen(line);
	if (e->to_engine < 0)
		return false;
	const char *parts[2] = {line, "\n"};
	size_t sizes[2] = {length, 1};
	for (int i = 0; i < 2; i++) {
		size_t done = 0;
		while (done < sizes[i]) {
			ssize_t n = write(e->to_engine, parts[i] + done, sizes[i] - done);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return false;
			done += (size_t)n;
		}
	}
	return true;
}

bool hub_engine_sendf(HubEngine *e, const char *format, ...)
{
	char line[HUB_LINE_MAX];
	va_list args;
	va_start(args, format);
	int n = vsnprintf(line, sizeof line, format, args);
	va_end(args);
	if (n < 0 || (size_t)n >= sizeof line)
		return false;
	return hub_engine_send(e, line);
}

/* Moves one line out of the buffer if a whole one (or a full buffer) is there. */
static bool take_line(HubEngine *e, char *line, size_t size, bool flush)
{
	char *newline = memchr(e->buffer, '\n', e->buffered);
	size_t length;
	if (newline)
		length = (size_t)(newline - e->buffer);
	else if (e->buffered == sizeof e->buffer || (flush && e->buffered > 0))
		length = e->buffered;
	else
		return false;
	size_t used = newline ? length + 1 : length;
	size_t copy = length < size - 1 ? length : size - 1;
	memcpy(line, e->buffer, copy);
	line[copy] = '\0';
	if (copy > 0 && line[copy - 1] == '\r')
		line[copy - 1] = '\0';
	memmove(e->buffer, e->buffer + used, e->buffered - used);
	e->buffered -= used;
	return true;
}

HubRead hub_engine_read_line(HubEngine *e, char *line, size_t size, int timeout_ms)
{
	int64_t deadline = clock_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	for (;;) {
		if (take_line(e, line, size, false))
			return HUB_READ_LINE;
		if (e->from_engine < 0)
			return take_line(e, line, size, true) ? HUB_READ_LINE : HUB_READ_EOF;
		int64_t left = deadline - clock_now_ms();
		struct pollfd p = {.fd = e->from_engine, .events = POLLIN};
		int ready = poll(&p, 1, left > 0 ? (int)left : 0);
		if (ready < 0 && errno == EINTR)
			return HUB_READ_TIMEOUT; /* let the caller look at its flags */
		if (ready <= 0)
			return HUB_READ_TIMEOUT;
		ssize_t n = read(e->from_engine, e->buffer + e->buffered, sizeof e->buffer - e->buffered);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close_fd(&e->from_engine);
			continue;
		}
		e->buffered += (size_t)n;
	}
}

/*
 * Reaps the members of the engine's process group that were handed to us
 * when their parent died (we are their subreaper), until the group is empty
 * or GROUP_REAP_MS have passed. Called with the group already killed; the
 * leader's id stays reserved while any member is left, so it names this
 * group only.
 */
static void reap_group(pid_t group)
{
	enum { GROUP_REAP_MS = 2000 };
	int64_t deadline = clock_now_ms() + GROUP_REAP_MS;
	for (;;) {
		int status;
		while (waitpid(-group, &status, WNOHANG) > 0)
			;
		if (kill(-group, 0) != 0 || clock_now_ms() > deadline)
			return;
		struct timespec pause = {0, 1000 * 1000};
		nanosleep(&pause, NULL);
	}
}

/* Kills the group of a leader that is alive or not yet reaped (its id is
 * still reserved then), reaps the leader, then the rest of the group. */
static void end_group(HubEngine *e)
{
	int status;
	kill(-e->pid, SIGKILL);
	kill(e->pid, SIGKILL);
	while (waitpid(e->pid, &status, 0) < 0) {
		if (errno != EINTR)
			return;
	}
	e->exited = true;
	e->wait_status = status;
	reap_group(e->pid);
}

bool hub_engine_is_alive(HubEngine *e)
{
	if (e->pid <= 0 || e->exited)
		return false;
	/* WNOWAIT: a dead leader stays unreaped until its group is killed. */
	siginfo_t info;
	memset(&info, 0, sizeof info);
	if (waitid(P_PID, (id_t)e->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
		/* Not our child any more (reaped elsewhere): its id may be
		 * another process's by now, so it gets no signal. */
		e->exited = true;
		e->wait_status = -1;
		return false;
	}
	if (info.si_pid == 0)
		return true;
	end_group(e);
	return false;
}

void hub_engine_kill(HubEngine *e)
{
	if (e->pid > 0 && !e->exited)
		end_group(e); /* a wrapper's children go too */
	close_fd(&e->to_engine);
	close_fd(&e->from_engine);
	e->buffered = 0;
}

void hub_engine_stop(HubEngine *e, int grace_ms)
{
	if (e->pid <= 0) {
		close_fd(&e->to_engine);
		close_fd(&e->from_engine);
		return;
	}
	if (!e->exited && e->to_engine >= 0)
		hub_engine_send(e, "quit");
	close_fd(&e->to_engine);
	int64_t deadline = clock_now_ms() + grace_ms;
	while (hub_engine_is_alive(e) && clock_now_ms() < deadline) {
		struct timespec pause = {0, 5 * 1000 * 1000};
		nanosleep(&pause, NULL);
	}
	hub_engine_kill(e);
}

void hub_engine_describe_exit(const HubEngine *e, char *out, size_t size)
{
	if (!e->exited)
		snprintf(out, size, "still running");
	else if (WIFEXITED(e->wait_status))
		snprintf(out, size, "exited with status %d", WEXITSTATUS(e->wait_status));
	else if (WIFSIGNALED(e->wait_status))
		snprintf(out, size, "killed by signal %d (%s)", WTERMSIG(e->wait_status),
		         strsignal(WTERMSIG(e->wait_status)));
	else
		snprintf(out, size, "ended (status %d)", e->wait_status);
}

bool hub_engine_handshake(HubEngine *e, const HubParam *params, int param_count, int timeout_ms, char *error,
                          size_t error_size)
{
	char line[HUB_LINE_MAX], out[HUB_LINE_MAX], bad[HUBLINE_ERROR_MAX];
	int64_t deadline = clock_now_ms() + timeout_ms;
	const char *expect = "wait";
	HubLine parsed;

	if (!hub_engine_send(e, "hub")) {
		snprintf(error, error_size, "cannot write to the engine");
		return false;
	}
	enum { SLICE_MS = 50 }; /* longest wait before looking at e->interrupt again */
	for (;;) {
		int64_t left = deadline - clock_now_ms();
		if (e->interrupt && *e->interrupt) {
			snprintf(error, error_size, "interrupted");
			return false;
		}
		if (left <= 0) {
			snprintf(error, error_size, "no `%s` within %d ms", expect, timeout_ms);
			return false;
		}
		HubRead r =
		    hub_engine_read_line(e, line, sizeof line, (int)(left < SLICE_MS ? left : SLICE_MS));
		if (r == HUB_READ_EOF) {
			char how[96];
			hub_engine_kill(e);
			hub_engine_describe_exit(e, how, sizeof how);
			snprintf(error, error_size, "engine %s before `%s`", how, expect);
			return false;
		}
		/* Unknown or malformed lines are ignored, as Hub asks. */
		if (r != HUB_READ_LINE || !hubline_parse(line, &parsed, bad, sizeof bad) || !parsed.command)
			continue;
		/* A set-param or init refused: the engine would not play as asked. */
		if (!strcmp(parsed.command, "error") && !strcmp(expect, "ready")) {
			const char *message = hubline_value(&parsed, "message");
			snprintf(error, error_size, "it refused %s: %s",
			         param_count > 0 ? "an option" : "init", message ? message : line);
			return false;
		}
		if (!strcmp(parsed.command, "id")) {
			const char *name = hubline_value(&parsed, "name");
			if (name)
				snprintf(e->name, sizeof e->name, "%s", name);
		}
		if (strcmp(parsed.command, expect))
			continue;
		if (!strcmp(expect, "ready"))
			return true;
		for (int i = 0; i < param_count; i++) {
			HubWriter w;
			hubwriter_init(&w, out, sizeof out, "set-param");
			hubwriter_add(&w, "name", params[i].name);
			hubwriter_add(&w, "value", params[i].value);
			hub_engine_send(e, out);
		}
		if (!hub_engine_send(e, "init")) {
			snprintf(error, error_size, "cannot write to the engine");
			return false;
		}
		expect = "ready";
	}
}
