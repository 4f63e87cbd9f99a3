/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The referee: plays one game between two Hub engines, keeping the clocks and the rules. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "poolshark/clock.h"
#include "poolshark/hubline.h"
#include "poolshark/notation.h"

enum {
	SLICE_MS = 50,       /* longest wait before looking at the flags again */
	STOP_GRACE_MS = 1000 /* after a time forfeit: how long `stop` may take (at most the stall timeout) */
};

bool seat_start(const MatchConfig *config, Seat *seat, volatile const sig_atomic_t *interrupted, char *error,
                size_t error_size)
{
	char problem[DETAIL_MAX];
	seat->running = false;
	if (!hub_engine_spawn(&seat->engine, seat->spec->command, problem, sizeof problem)) {
		snprintf(error, error_size, "cannot start `%s`: %s", seat->spec->command, problem);
		return false;
	}
	seat->engine.interrupt = interrupted;
	if (!hub_engine_handshake(&seat->engine, seat->spec->params, seat->spec->param_count,
	                          (int)(config->handshake_timeout * 1000), problem, sizeof problem)) {
		snprintf(error, error_size, "`%s`: handshake failed: %s", seat->spec->command, problem);
		hub_engine_kill(&seat->engine);
		return false;
	}
	seat->running = true;
	return true;
}

void seat_stop(Seat *seat)
{
	hub_engine_stop(&seat->engine, 500);
	seat->running = false;
}

/* What one `go` produced. */
typedef enum Answer {
	ANSWER_DONE,
	ANSWER_TIMEOUT,
	ANSWER_CRASH,
	ANSWER_STALL,   /* no pong to a ping */
	ANSWER_NO_DONE, /* no clock, and no `done` within the move timeout */
	ANSWER_ABORT
} Answer;

typedef struct Reply {
	char move[NOTATION_MOVE_MAX * 2]; /* the move text of `done` */
	char line[160];                   /* the whole `done` line, for the record */
	bool has_score;
	double score; /* men, side to move's view, from the last `info` */
	int depth;
	double seconds;
} Reply;

/* Copies as much of src as fits (always terminated). */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void read_info(char *line, Reply *reply)
{
	HubLine parsed;
	char error[HUBLINE_ERROR_MAX];
	if (!hubline_parse(line, &parsed, error, sizeof error) || !parsed.command)
		return;
	if (!strcmp(parsed.command, "info")) {
		const char *score = hubline_value(&parsed, "score");
		const char *depth = hubline_value(&parsed, "depth");
		char *end;
		if (score) {
			double s = strtod(score, &end);
			if (end != score && *end == '\0' && isfinite(s)) {
				reply->score = s;
				reply->has_score = true;
			}
		}
		if (depth)
			reply->depth = (int)strtol(depth, NULL, 10);
	} else if (!strcmp(parsed.command, "done")) {
		const char *move = hubline_value(&parsed, "move");
		if (!move)
			move = hubline_word(&parsed, 0); /* tolerate `done 11-15` */
		copy_text(reply->move, sizeof reply->move, move ? move : "");
	}
}

/*
 * Waits for `done`. deadline_ms < 0: no clock, and then the move may last
 * config->move_timeout at most (ANSWER_STALL after that). The clock is
 * looked at after every line, so an engine that talks without end loses on
 * time all the same. Pings after stall_ms of silence and gives up when no
 * pong comes stall_ms after the ping.
 */
static Answer await_done(const MatchConfig *config, Seat *seat, int64_t start, int64_t deadline_ms,
                         volatile const sig_atomic_t *interrupted, const atomic_bool *stop, Reply *reply)
{
	char line[HUB_LINE_MAX], copy[HUB_LINE_MAX];
	int64_t stall_ms = (int64_t)(config->stall_timeout * 1000);
	int64_t last_heard = start, ping_at = -1;
	int64_t move_limit = deadline_ms < 0 ? (int64_t)(config->move_timeout * 1000) : -1;

	for (;;) {
		if (*interrupted || atomic_load(stop))
			return ANSWER_ABORT;
		HubRead r = hub_engine_read_line(&seat->engine, line, sizeof line, SLICE_MS);
		int64_t now = clock_now_ms();
		if (r == HUB_READ_EOF)
			return ANSWER_CRASH;
		if (r == HUB_READ_LINE) {
			char word[16];
			last_heard = now;
			copy_text(copy, sizeof copy, line);
			read_info(copy, reply);
			if (sscanf(line, "%15s", word) == 1) {
				if (!strcmp(word, "pong"))
					ping_at = -1;
				if (!strcmp(word, "done")) {
					reply->seconds = (double)(now - start) / 1000.0;
					copy_text(reply->line, sizeof reply->line, line);
					return ANSWER_DONE;
				}
			}
		}
		if (deadline_ms >= 0 && now > start + deadline_ms) {
			reply->seconds = (double)(now - start) / 1000.0;
			return ANSWER_TIMEOUT;
		}
		if (move_limit >= 0 && now - start > move_limit) {
			reply->seconds = (double)(now - start) / 1000.0;
			return ANSWER_NO_DONE;
		}
		if (r == HUB_READ_LINE)
			continue;
		/* A dead engine whose pipe is still held open elsewhere. */
		if (!hub_engine_is_alive(&seat->engine))
			return ANSWER_CRASH;
		if (ping_at < 0 && now - last_heard >= stall_ms) {
			hub_engine_send(&seat->engine, "ping");
			ping_at = now;
		} else if (ping_at >= 0 && now - ping_at >= stall_ms) {
			return ANSWER_STALL;
		}
	}
}

/* After a time forfeit: ask for the move, and replace the engine if it will not stop. */
static bool stop_search(const MatchConfig *config, Seat *seat)
{
	char line[HUB_LINE_MAX];
	int64_t grace = (int64_t)(config->stall_timeout * 1000);
	int64_t until = clock_now_ms() + (grace < STOP_GRACE_MS ? grace : STOP_GRACE_MS);
	hub_engine_send(&seat->engine, "stop");
	while (clock_now_ms() < until) {
		HubRead r = hub_engine_read_line(&seat->engine, line, sizeof line, SLICE_MS);
		if (r == HUB_READ_EOF)
			return false;
		if (r == HUB_READ_LINE && !strncmp(line, "done", 4) && (line[4] == '\0' || line[4] == ' '))
			return true;
	}
	return false;
}

static void set_outcome(GameOutcome *out, GameResult result, const char *termination)
{
	out->result = result;
	snprintf(out->termination, sizeof out->termination, "%s", termination);
}

/* The side to move lost by a fault of its engine: the other side wins. */
static void forfeit(GameOutcome *out, const Game *game, const char *termination)
{
	Color loser = game_position(game)->side;
	set_outcome(out, loser == BLACK ? RESULT_WHITE_WINS : RESULT_BLACK_WINS, termination);
}

static bool send_position(Seat *seat, const Game *game, char *buffer, size_t size)
{
	char hub[NOTATION_HUB_POSITION_MAX], move[NOTATION_MOVE_MAX];
	size_t used = 0;
	/* The moves value first, into the back half of the buffer. */
	char *moves = buffer + size / 2;
	size_t moves_size = size / 2;
	moves[0] = '\0';
	for (int i = 0; i < game->ply_count; i++) {
		notation_write_move_hub(game->moves[i], position_variant(&game->positions[0]), move,
		                        sizeof move);
		int n = snprintf(moves + used, moves_size - used, "%s%s", i ? " " : "", move);
		if (n < 0 || (size_t)n >= moves_size - used)
			return false;
		used += (size_t)n;
	}
	HubWriter w;
	notation_write_hub_position(&game->positions[0], hub, sizeof hub);
	hubwriter_init(&w, buffer, size / 2, "pos");
	hubwriter_add(&w, "pos", hub);
	if (game->ply_count > 0)
		hubwriter_add(&w, "moves", moves);
	return !w.truncated && hub_engine_send(&seat->engine, buffer);
}

static bool send_limits(Seat *seat, const Limits *limits, double clock)
{
	switch (limits->kind) {
	case LIMIT_DEPTH: return hub_engine_sendf(&seat->engine, "level depth=%lld", limits->depth);
	case LIMIT_NODES: return hub_engine_sendf(&seat->engine, "level nodes=%lld", limits->nodes);
	case LIMIT_MOVETIME:
		return hub_engine_sendf(&seat->engine, "level move-time=%.3f", limits->move_time);
	case LIMIT_CLOCK:
		return hub_engine_sendf(&seat->engine, "level time=%.3f inc=%.3f", clock, limits->increment);
	default: return true;
	}
}

/* An engine that ignored us (no pong, no `done`, no answer to `stop`) would
 * ignore `quit` too: it is killed at once, to be replaced. */
static void replace_engine(Seat *seat, GameOutcome *out, int e)
{
	hub_engine_kill(&seat->engine);
	seat->running = false;
	out->restart[e] = true;
}

static void describe_exit(Seat *seat, char *out, size_t size)
{
	hub_engine_kill(&seat->engine); /* reaps it, so the status is known */
	seat->running = false;
	hub_engine_describe_exit(&seat->engine, out, size);
}

void referee_play(const MatchConfig *config, Seat seats[2], int black_engine, const Position *opening,
                  Game *game, char **comments, char *line_buffer, size_t line_size,
                  volatile const sig_atomic_t *interrupted, const atomic_bool *stop, GameOutcome *out)
{
	double clock[2];
	int streak[2][2] = {{0, 0}, {0, 0}}; /* [engine][0: Black winning, 1: White winning] */
	char how[128];

	memset(out, 0, sizeof *out);
	game_init(game, opening);
	for (int e = 0; e < 2; e++) {
		clock[e] = seats[e].spec->limits.base;
		hub_engine_send(&seats[e].engine, "new-game");
	}
	for (;;) {
		GameStatus status = game_status(game);
		if (status.result != RESULT_NONE) {
			set_outcome(out, status.result, game_reason_text(status.reason));
			return;
		}
		if (config->max_moves > 0 && game->ply_count >= 2 * config->max_moves) {
			set_outcome(out, RESULT_DRAW, "adjudication: move cap");
			snprintf(out->detail, sizeof out->detail, "%d moves each", config->max_moves);
			return;
		}
		Color side = game_position(game)->side;
		int e = side == BLACK ? black_engine : 1 - black_engine;
		Seat *seat = &seats[e];
		const Limits *limits = &seat->spec->limits;
		const char *name = seat->spec->name;
		int64_t allowed = -1;
		Reply reply = {.depth = 0};

		if (limits->kind == LIMIT_CLOCK) {
			clock[e] += limits->increment; /* Hub: the increment comes before the move */
			allowed = (int64_t)((clock[e] + config->margin) * 1000);
		} else if (limits->kind == LIMIT_MOVETIME) {
			allowed = (int64_t)((limits->move_time + config->margin) * 1000);
		}
		bool sent = send_position(seat, game, line_buffer, line_size) &&
		            send_limits(seat, limits, clock[e]) && hub_engine_send(&seat->engine, "go think");
		int64_t start = clock_now_ms();
		Answer answer =
		    sent ? await_done(config, seat, start, allowed, interrupted, stop, &reply) : ANSWER_CRASH;

		switch (answer) {
		case ANSWER_ABORT: out->aborted = true; return;
		case ANSWER_CRASH:
			describe_exit(seat, how, sizeof how);
			forfeit(out, game, "crash");
			snprintf(out->detail, sizeof out->detail, "%s %s", name, how);
			out->restart[e] = true;
			return;
		case ANSWER_STALL:
		case ANSWER_NO_DONE: {
			bool ping = answer == ANSWER_STALL;
			forfeit(out, game, "stall");
			snprintf(out->detail, sizeof out->detail, "%s %s within %.1f s", name,
			         ping ? "answered no ping" : "sent no `done`",
			         ping ? config->stall_timeout : config->move_timeout);
			replace_engine(seat, out, e);
			return;
		}
		case ANSWER_TIMEOUT:
			forfeit(out, game, "time forfeit");
			snprintf(out->detail, sizeof out->detail, "%s used more than %.3f s", name,
			         (double)allowed / 1000.0);
			if (!stop_search(config, seat))
				replace_engine(seat, out, e);
			return;
		case ANSWER_DONE: break;
		}
		if (allowed >= 0 && reply.seconds * 1000 > (double)allowed) {
			forfeit(out, game, "time forfeit");
			snprintf(out->detail, sizeof out->detail, "%s used %.3f s of %.3f s", name,
			         reply.seconds, (double)allowed / 1000.0);
			return;
		}
		if (limits->kind == LIMIT_CLOCK)
			clock[e] = clock[e] > reply.seconds ? clock[e] - reply.seconds : 0.0;

		Move m;
		char error[NOTATION_ERROR_MAX];
		const Position *p = game_position(game);
		if (notation_parse_move(p, reply.move, &m, error, sizeof error) != MOVE_PARSE_OK) {
			forfeit(out, game, "illegal move");
			snprintf(out->detail, sizeof out->detail, "%s sent \"%s\": %s", name, reply.line,
			         error);
			return;
		}
		if (!game_play(game, m)) {
			set_outcome(out, RESULT_DRAW, "adjudication: game too long");
			return;
		}
		if (config->comments && (comments[game->ply_count - 1] = malloc(48)) != NULL) {
			if (reply.has_score)
				snprintf(comments[game->ply_count - 1], 48, "%+.2f/%d %.3fs", reply.score,
				         reply.depth, reply.seconds);
			else
				snprintf(comments[game->ply_count - 1], 48, "%.3fs", reply.seconds);
		}
		if (config->adjudicate_score > 0) {
			/* Both engines must see the same side winning, each on its own last N moves. */
			double black_view = side == BLACK ? reply.score : -reply.score;
			bool black_wins = reply.has_score && black_view >= config->adjudicate_score;
			bool white_wins = reply.has_score && black_view <= -config->adjudicate_score;
			streak[e][0] = black_wins ? streak[e][0] + 1 : 0;
			streak[e][1] = white_wins ? streak[e][1] + 1 : 0;
			for (int d = 0; d < 2; d++) {
				if (streak[0][d] >= config->adjudicate_moves &&
				    streak[1][d] >= config->adjudicate_moves) {
					set_outcome(out, d == 0 ? RESULT_BLACK_WINS : RESULT_WHITE_WINS,
					            "adjudication: score");
					snprintf(out->detail, sizeof out->detail,
					         "both engines scored beyond %.2f for %d moves",
					         config->adjudicate_score, config->adjudicate_moves);
					return;
				}
			}
		}
	}
}
