/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The protocol session: its output, options, the command dispatcher and its life cycle. */
#include "protocol.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/bigmem.h"
#include "poolshark/options.h"
#include "poolshark/version.h"
#include "protocol_internal.h"

/* Output. One lock around every write, so that the search thread's info and
 * done lines never cut into a reply of the input thread. */

void protocol_emit_locked(Protocol *p, const char *text)
{
	/* A block of several lines goes out under one lock. */
	char line[PROTOCOL_OUTPUT_MAX];
	const char *s = text;
	for (;;) {
		const char *end = strchr(s, '\n');
		size_t n = end ? (size_t)(end - s) : strlen(s);
		if (n >= sizeof line)
			n = sizeof line - 1;
		memcpy(line, s, n);
		line[n] = '\0';
		p->write(line, p->user);
		if (!end)
			break;
		s = end + 1;
	}
}

void protocol_emit(Protocol *p, const char *text)
{
	pthread_mutex_lock(&p->output_lock);
	protocol_emit_locked(p, text);
	pthread_mutex_unlock(&p->output_lock);
}

void protocol_error(Protocol *p, const char *message)
{
	char buffer[PROTOCOL_MESSAGE_MAX + 32], cut[PROTOCOL_MESSAGE_MAX];
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "error");
	snprintf(cut, sizeof cut, "%s", message);
	hubwriter_add(&w, "message", cut);
	protocol_emit(p, buffer);
}

void protocol_errorf(Protocol *p, const char *format, ...)
{
	char message[PROTOCOL_MESSAGE_MAX];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	protocol_error(p, message);
}

void protocol_greet(Protocol *p)
{
	char text[128];
	snprintf(text, sizeof text, "poolshark %s, American pool checkers: type help for the commands",
	         poolshark_version);
	protocol_emit(p, text);
}

const Position *protocol_position(const Protocol *p)
{
	return game_position(engine_game(p->engine));
}

bool protocol_set_option(Protocol *p, const char *name, const char *value, char *error, size_t size)
{
	EngineOptions o;
	engine_get_options(p->engine, &o);
	if (!options_parse_named(name, value, &o, error, size))
		return false;
	/* A session may allow less memory than the option's range (fuzzing). */
	if (o.hash_mb > p->config.max_hash_mb) {
		snprintf(error, size, "%s=%.40s is too large here (at most %zu MiB)", name, value,
		         p->config.max_hash_mb);
		return false;
	}
	EngineOptions before;
	engine_get_options(p->engine, &before);
	EngineStatus status = engine_set_options(p->engine, &o);
	if (status == ENGINE_HASH_TOO_LARGE) {
		engine_get_options(p->engine, &o);
		snprintf(error, size, "hash=%.40s MiB is %s (%zu MiB); hash stays %zu", value,
		         engine_status_text(status), bigmem_available_bytes() / (1024 * 1024), o.hash_mb);
		return false;
	}
	if (status == ENGINE_BAD_EGDB || status == ENGINE_BAD_NETWORK) {
		/* A database directory must hold databases: say why; the old
		 * one stays. */
		snprintf(error, size, "%s: %.150s", name, engine_refusal_text(p->engine));
		return false;
	}
	if (status != ENGINE_OK) {
		snprintf(error, size, "could not apply %s=%.40s: %s", name, value,
		         engine_status_text(status));
		return false;
	}
	if (o.variant != before.variant) {
		/* The engine started a new game under the new rules (as
		 * new-game does): say so. */
		char text[PROTOCOL_MESSAGE_MAX];
		snprintf(text, sizeof text, "info variant=%s message=\"new game from the %s start position\"",
		         variant_rules(o.variant)->name, variant_rules(o.variant)->title);
		protocol_emit(p, text);
		p->have_position = true;
	}
	return true;
}

static const ProtocolCommand *find_command(const char *name)
{
	for (int i = 0; i < protocol_hub_command_count; i++)
		if (!strcmp(protocol_hub_commands[i].name, name))
			return &protocol_hub_commands[i];
	for (int i = 0; i < protocol_extension_command_count; i++)
		if (!strcmp(protocol_extension_commands[i].name, name))
			return &protocol_extension_commands[i];
	return NULL;
}

bool protocol_handle_line(Protocol *p, const char *line, size_t length)
{
	char error[HUBLINE_ERROR_MAX];
	if (length > HUBLINE_MAX_LENGTH) {
		protocol_errorf(p, "line too long (more than %d bytes)", HUBLINE_MAX_LENGTH);
		return true;
	}
	if (!hubline_check_bytes(line, length, error, sizeof error)) {
		protocol_error(p, error);
		return true;
	}
	memcpy(p->text, line, length);
	p->text[length] = '\0';
	HubLine parsed;
	if (!hubline_parse(p->text, &parsed, error, sizeof error)) {
		protocol_error(p, error);
		return true;
	}
	if (!parsed.command)
		return true;
	const ProtocolCommand *c = find_command(parsed.command);
	if (!c) {
		protocol_errorf(p, "unknown command '%.40s' (type help)", parsed.command);
		return true;
	}
	if (!c->during_search && engine_is_searching(p->engine)) {
		protocol_errorf(p, "%s cannot run during a search (send stop first)", c->name);
		return true;
	}
	return c->run(p, &parsed);
}

void protocol_stop(Protocol *p)
{
	engine_stop(p->engine);
}

void protocol_wait(Protocol *p)
{
	engine_wait(p->engine);
}

void protocol_finish(Protocol *p)
{
	if (engine_is_searching(p->engine) && !p->search_bounded)
		engine_stop(p->engine);
	engine_wait(p->engine);
}

bool protocol_is_searching(const Protocol *p)
{
	return engine_is_searching(p->engine);
}

void protocol_default_config(ProtocolConfig *out)
{
	EngineOptions o;
	engine_default_options(&o);
	out->interactive = false;
	out->hash_mb = o.hash_mb;
	out->max_hash_mb = SIZE_MAX; /* the option's own range is the limit */
	out->max_perft_depth = 15;
	out->allow_bench = true;
	out->egdb_path[0] = '\0';
}

Protocol *protocol_create(const ProtocolConfig *config, ProtocolWrite write, void *user)
{
	Protocol *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->config = *config;
	p->write = write;
	p->user = user;
	EngineOptions o;
	engine_default_options(&o);
	o.hash_mb = config->hash_mb;
	snprintf(o.egdb_path, sizeof o.egdb_path, "%s", config->egdb_path);
	p->pos_moves = malloc(GAME_MAX_PLIES * sizeof *p->pos_moves);
	p->text = malloc(HUBLINE_MAX_LENGTH + 1);
	p->engine = p->pos_moves && p->text ? engine_create(&o) : NULL;
	if (!p->engine || pthread_mutex_init(&p->output_lock, NULL)) {
		engine_destroy(p->engine);
		free(p->pos_moves);
		free(p->text);
		free(p);
		return NULL;
	}
	return p;
}

void protocol_reset(Protocol *p)
{
	engine_stop(p->engine);
	engine_wait(p->engine);
	EngineOptions o;
	engine_default_options(&o);
	o.hash_mb = p->config.hash_mb;
	snprintf(o.egdb_path, sizeof o.egdb_path, "%s", p->config.egdb_path);
	engine_set_options(p->engine, &o);
	engine_new_game(p->engine, NULL);
	memset(&p->pending, 0, sizeof p->pending);
	p->have_position = false;
}

void protocol_destroy(Protocol *p)
{
	if (!p)
		return;
	engine_destroy(p->engine);
	pthread_mutex_destroy(&p->output_lock);
	free(p->pos_moves);
	free(p->text);
	free(p);
}
