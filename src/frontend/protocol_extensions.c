/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The protocol's commands for people and scripts: help, board, fen, moves, move, undo, legal, game, perft,
 * bench, eval, get, set. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/bench.h"
#include "poolshark/clock.h"
#include "poolshark/diagram.h"
#include "poolshark/eval.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/number.h"
#include "poolshark/options.h"
#include "poolshark/perft.h"
#include "poolshark/text.h"
#include "poolshark/version.h"
#include "protocol_internal.h"

static const char *const help_text =
    "poolshark speaks the Hub protocol (version 2) on the 8x8 pool board.\n"
    "Hub commands (what a GUI sends):\n"
    "  hub                      identify: id, one param line per option, wait\n"
    "  set-param name=N value=V set an option (see get)\n"
    "  init                     answered by ready\n"
    "  new-game                 start position, clear the hash table\n"
    "  pos pos=P [moves=M]      P: B or W, then 32 letters b B w W e for squares 1-32\n"
    "  pos start | pos fen=F    the start position, or a PDN FEN; moves in Hub or PDN form\n"
    "  level depth=N | nodes=N | move-time=S | [moves=N] time=S [inc=S] | infinite\n"
    "  go think | go ponder | go analyze      search; info lines, then done move=M ponder=M\n"
    "  go ... searchmoves=\"M M\"                only these root moves (multipv: one line each)\n"
    "  ping | stop | ponder-hit               also during a search\n"
    "  quit\n"
    "Commands for people and scripts:\n"
    "  help                     this text\n"
    "  board [flip]             the board with square numbers, side to move and FEN\n"
    "  fen | moves              the FEN | the legal moves in PDN\n"
    "  move M | undo            play a move on the current game | take one back\n"
    "  legal                    one line per legal move: PDN, path, captured, Hub form\n"
    "  lookup                   the endgame databases' win, draw or loss, in plies, of each move\n"
    "  book                     the opening book's moves of the position, with their weights\n"
    "  game                     the game record: start FEN, moves in PDN, FEN, result\n"
    "  perft depth=N [divide]   count the leaves of the move tree\n"
    "  bench [depth=N]          fixed-depth search benchmark\n"
    "  eval                     the static evaluation and its terms\n"
    "  name | about             who is speaking\n"
    "  get [OPTION] | set OPTION VALUE        read or change an option\n"
    "Options:";

static bool cmd_help(Protocol *p, const HubLine *line)
{
	(void)line;
	char text[4096];
	size_t used = 0;
	used += (size_t)snprintf(text, sizeof text, "%s", help_text);
	for (int i = 0; i < options_count() && used < sizeof text; i++) {
		const OptionDef *def = options_at(i);
		used +=
		    (size_t)snprintf(text + used, sizeof text - used, "\n  %-24s %s", def->name, def->help);
	}
	if (used < sizeof text)
		snprintf(text + used, sizeof text - used, "\nScores are in men, from the side to move.");
	protocol_emit(p, text);
	return true;
}

static bool cmd_board(Protocol *p, const HubLine *line)
{
	char text[DIAGRAM_MAX];
	diagram_draw(protocol_position(p), hubline_has_word(line, "flip"), text, sizeof text);
	protocol_emit(p, text);
	return true;
}

static bool cmd_fen(Protocol *p, const HubLine *line)
{
	(void)line;
	char fen[NOTATION_FEN_MAX], buffer[NOTATION_FEN_MAX + 16];
	HubWriter w;
	notation_write_fen(protocol_position(p), fen, sizeof fen);
	hubwriter_init(&w, buffer, sizeof buffer, "fen");
	hubwriter_add(&w, "value", fen);
	protocol_emit(p, buffer);
	return true;
}

static bool cmd_moves(Protocol *p, const HubLine *line)
{
	(void)line;
	char text[PROTOCOL_OUTPUT_MAX / 2], buffer[PROTOCOL_OUTPUT_MAX];
	int n = notation_write_legal_moves(protocol_position(p), text, sizeof text);
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "moves");
	hubwriter_addf(&w, "count", "%d", n);
	hubwriter_add(&w, "moves", text);
	protocol_emit(p, buffer);
	return true;
}

/* One line per legal move with everything a board needs to enter it square
 * by square: PDN text, the landing squares in order, the captured squares
 * and the Hub form that `done` uses; then the count. */
static bool cmd_legal(Protocol *p, const HubLine *line)
{
	(void)line;
	const Position *pos = protocol_position(p);
	MoveList list;
	movegen_generate(pos, &list);
	movelist_sort(&list);
	pthread_mutex_lock(&p->output_lock);
	for (int i = 0; i < list.count; i++) {
		Move m = list.moves[i];
		char buffer[512], text[NOTATION_MOVE_MAX], captured[128] = "";
		size_t used = 0;
		HubWriter w;
		hubwriter_init(&w, buffer, sizeof buffer, "legal");
		notation_write_move(pos, m, text, sizeof text);
		hubwriter_add(&w, "move", text);
		notation_write_move_path(pos, m, text, sizeof text);
		hubwriter_add(&w, "path", text);
		BoardNumbering numbering = variant_rules(position_variant(pos))->numbering;
		for (int number = 1; number <= SQUARE_COUNT; number++)
			if (m.captured & bb_square(variant_square_of_number(numbering, number)))
				text_append(captured, sizeof captured, &used, "%s%d", used ? "," : "",
				            number);
		if (used)
			hubwriter_add(&w, "captured", captured);
		notation_write_move_hub(m, position_variant(pos), text, sizeof text);
		hubwriter_add(&w, "hub", text);
		protocol_emit_locked(p, buffer);
	}
	char buffer[64];
	snprintf(buffer, sizeof buffer, "legal count=%d", list.count);
	protocol_emit_locked(p, buffer);
	pthread_mutex_unlock(&p->output_lock);
	return true;
}

/* result= and reason= once the rules have ended the game. */
static void add_result(HubWriter *w, const Game *g)
{
	GameStatus status = game_status(g);
	if (status.result == RESULT_NONE)
		return;
	hubwriter_add(w, "result", game_result_text(status.result));
	hubwriter_add(w, "reason", game_reason_text(status.reason));
}

static const char *verdict_name(EgdbResult r)
{
	return r == EGDB_WIN ? "win" : r == EGDB_LOSS ? "loss" : "draw";
}

/* The endgame databases' verdict on each legal move of the position (best
 * first), then on the position: `lookup move=M hub=H result=R plies=N`,
 * then `lookup result=R plies=N count=K`. */
static bool cmd_lookup(Protocol *p, const HubLine *line)
{
	(void)line;
	static EgdbMoveVerdict moves[MOVELIST_CAPACITY];
	EgdbVerdict verdict;
	const char *why;
	pthread_mutex_lock(&p->output_lock);
	int count = engine_lookup(p->engine, &verdict, moves, MOVELIST_CAPACITY, &why);
	if (count < 0) {
		pthread_mutex_unlock(&p->output_lock);
		protocol_errorf(p, "lookup: %s", why);
		return true;
	}
	const Position *pos = protocol_position(p);
	for (int i = 0; i < count; i++) {
		char buffer[256], text[NOTATION_MOVE_MAX];
		HubWriter w;
		hubwriter_init(&w, buffer, sizeof buffer, "lookup");
		notation_write_move(pos, moves[i].move, text, sizeof text);
		hubwriter_add(&w, "move", text);
		notation_write_move_hub(moves[i].move, position_variant(pos), text, sizeof text);
		hubwriter_add(&w, "hub", text);
		hubwriter_add(&w, "result", verdict_name(moves[i].verdict.result));
		hubwriter_addf(&w, "plies", "%d", moves[i].verdict.plies);
		protocol_emit_locked(p, buffer);
	}
	char buffer[128];
	snprintf(buffer, sizeof buffer, "lookup result=%s plies=%d count=%d", verdict_name(verdict.result),
	         verdict.plies, count);
	protocol_emit_locked(p, buffer);
	pthread_mutex_unlock(&p->output_lock);
	return true;
}

/* The opening book's moves of the position with their weights, heaviest
 * first: `book move=M hub=H weight=W`, then `book count=K`. */
static bool cmd_book(Protocol *p, const HubLine *line)
{
	(void)line;
	Move moves[MOVELIST_CAPACITY];
	int weights[MOVELIST_CAPACITY];
	pthread_mutex_lock(&p->output_lock);
	int count = engine_book_moves(p->engine, moves, weights, MOVELIST_CAPACITY);
	const Position *pos = protocol_position(p);
	for (int i = 0; i < count; i++) {
		char buffer[256], text[NOTATION_MOVE_MAX];
		HubWriter w;
		hubwriter_init(&w, buffer, sizeof buffer, "book");
		notation_write_move(pos, moves[i], text, sizeof text);
		hubwriter_add(&w, "move", text);
		notation_write_move_hub(moves[i], position_variant(pos), text, sizeof text);
		hubwriter_add(&w, "hub", text);
		hubwriter_addf(&w, "weight", "%d", weights[i]);
		protocol_emit_locked(p, buffer);
	}
	char buffer[64];
	snprintf(buffer, sizeof buffer, "book count=%d", count);
	protocol_emit_locked(p, buffer);
	pthread_mutex_unlock(&p->output_lock);
	return true;
}

/* The engine's game record: where it started, its moves in PDN, where it
 * stands, and its result once the rules end it. */
static bool cmd_game(Protocol *p, const HubLine *line)
{
	(void)line;
	const Game *g = engine_game(p->engine);
	enum { MOVES_MAX = PROTOCOL_OUTPUT_MAX / 2 };
	char *moves = malloc(MOVES_MAX), *buffer = malloc(PROTOCOL_OUTPUT_MAX);
	if (!moves || !buffer) {
		free(moves);
		free(buffer);
		protocol_error(p, "out of memory");
		return true;
	}
	size_t used = 0;
	moves[0] = '\0';
	for (int i = 0; i < g->ply_count; i++) {
		char text[NOTATION_MOVE_MAX];
		notation_write_move(&g->positions[i], g->moves[i], text, sizeof text);
		text_append(moves, MOVES_MAX, &used, "%s%s", i ? " " : "", text);
	}
	if (text_truncated(MOVES_MAX, used)) {
		protocol_errorf(p, "the game is too long to list (%d plies)", g->ply_count);
	} else {
		char fen[NOTATION_FEN_MAX];
		HubWriter w;
		hubwriter_init(&w, buffer, PROTOCOL_OUTPUT_MAX, "game");
		notation_write_fen(&g->positions[0], fen, sizeof fen);
		hubwriter_add(&w, "start", fen);
		notation_write_fen(game_position(g), fen, sizeof fen);
		hubwriter_add(&w, "fen", fen);
		hubwriter_addf(&w, "plies", "%d", g->ply_count);
		hubwriter_add(&w, "moves", moves);
		add_result(&w, g);
		protocol_emit(p, buffer);
	}
	free(moves);
	free(buffer);
	return true;
}

/* After move or undo: where the game stands. */
static void report_game(Protocol *p, const char *command, const char *played)
{
	const Game *g = engine_game(p->engine);
	char fen[NOTATION_FEN_MAX], buffer[512];
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, command);
	if (played)
		hubwriter_add(&w, "played", played);
	notation_write_fen(game_position(g), fen, sizeof fen);
	hubwriter_add(&w, "fen", fen);
	add_result(&w, g);
	protocol_emit(p, buffer);
}

static bool cmd_move(Protocol *p, const HubLine *line)
{
	const char *text = hubline_word(line, 0);
	if (!text)
		text = hubline_value(line, "move");
	if (!text) {
		protocol_error(p, "move needs a move, e.g. move 11-15");
		return true;
	}
	const Game *g = engine_game(p->engine);
	const Position *pos = game_position(g);
	GameStatus status = game_status(g);
	if (status.result != RESULT_NONE) {
		protocol_errorf(p, "the game is over (%s)", game_reason_text(status.reason));
		return true;
	}
	Move m;
	char error[NOTATION_ERROR_MAX], played[NOTATION_MOVE_MAX];
	if (notation_parse_move(pos, text, &m, error, sizeof error) != MOVE_PARSE_OK) {
		protocol_error(p, error);
		return true;
	}
	notation_write_move(pos, m, played, sizeof played);
	EngineStatus played_status = engine_play(p->engine, m);
	if (played_status != ENGINE_OK) {
		protocol_error(p, engine_status_text(played_status));
		return true;
	}
	p->have_position = true;
	report_game(p, "move", played);
	return true;
}

static bool cmd_undo(Protocol *p, const HubLine *line)
{
	(void)line;
	EngineStatus status = engine_undo(p->engine);
	if (status != ENGINE_OK) {
		protocol_error(p, engine_status_text(status));
		return true;
	}
	report_game(p, "undo", NULL);
	return true;
}

/* "perft depth=N" with the figures every speed line carries. */
static void emit_speed(Protocol *p, const char *command, int depth, uint64_t nodes, int64_t elapsed_ns)
{
	char buffer[256];
	HubWriter w;
	double seconds = (double)elapsed_ns / 1e9;
	hubwriter_init(&w, buffer, sizeof buffer, command);
	hubwriter_addf(&w, "depth", "%d", depth);
	hubwriter_addf(&w, "nodes", "%" PRIu64, nodes);
	hubwriter_addf(&w, "time", "%.3f", seconds);
	hubwriter_addf(&w, "nps", "%.2f", seconds > 0 ? (double)nodes / seconds / 1e6 : 0.0);
	protocol_emit(p, buffer);
}

static bool cmd_perft(Protocol *p, const HubLine *line)
{
	const char *text = hubline_value(line, "depth");
	if (!text)
		text = hubline_word(line, 0);
	if (text && !strcmp(text, "divide"))
		text = hubline_word(line, 1);
	if (!text) {
		protocol_error(p, "perft needs depth=N");
		return true;
	}
	long long depth;
	const char *problem = number_parse(text, 1, p->config.max_perft_depth, &depth);
	if (problem) {
		protocol_errorf(p, "perft depth=%.30s is %s (1..%d)", text, problem,
		                p->config.max_perft_depth);
		return true;
	}
	const Position *pos = protocol_position(p);
	PerftTable *table = depth > 5 ? perft_table_create(64) : NULL;
	int64_t start = clock_now_ns();
	uint64_t total;
	if (hubline_has_word(line, "divide")) {
		PerftDivide *d = malloc(sizeof *d);
		if (!d) {
			perft_table_free(table);
			protocol_error(p, "out of memory");
			return true;
		}
		perft_divide(pos, (int)depth, table, d);
		for (int i = 0; i < d->count; i++) {
			char move[NOTATION_MOVE_MAX], buffer[256];
			HubWriter w;
			notation_write_move(pos, d->moves[i], move, sizeof move);
			hubwriter_init(&w, buffer, sizeof buffer, "perft");
			hubwriter_add(&w, "move", move);
			hubwriter_addf(&w, "nodes", "%" PRIu64, d->leaves[i]);
			protocol_emit(p, buffer);
		}
		total = d->total;
		free(d);
	} else {
		total = perft_count(pos, (int)depth, table);
	}
	perft_table_free(table);
	emit_speed(p, "perft", (int)depth, total, clock_now_ns() - start);
	return true;
}

static void emit_bench_position(int index, const Position *root, const SearchResult *result, void *user)
{
	Protocol *p = user;
	char move[NOTATION_MOVE_MAX] = "none", buffer[512];
	HubWriter w;
	if (!move_is_none(result->best))
		notation_write_move(root, result->best, move, sizeof move);
	hubwriter_init(&w, buffer, sizeof buffer, "bench");
	hubwriter_addf(&w, "position", "%d", index + 1);
	hubwriter_addf(&w, "nodes", "%" PRIu64, result->nodes);
	hubwriter_add(&w, "best", move);
	protocol_emit(p, buffer);
}

/*
 * The same measurement as `poolshark bench` (bench_run), so the node total is
 * the same signature (under the engine's variant, eval and eval-file options). It runs in the input thread:
 * lines sent meanwhile are answered when it ends.
 */
static bool cmd_bench(Protocol *p, const HubLine *line)
{
	if (!p->config.allow_bench) {
		protocol_error(p, "bench is turned off here");
		return true;
	}
	const char *text = hubline_value(line, "depth");
	if (!text)
		text = hubline_word(line, 0);
	long long depth = BENCH_DEFAULT_DEPTH;
	const char *problem = text ? number_parse(text, 1, BENCH_MAX_DEPTH, &depth) : NULL;
	if (problem) {
		protocol_errorf(p, "bench depth=%.30s is %s (1..%d)", text, problem, BENCH_MAX_DEPTH);
		return true;
	}
	BenchTotals totals;
	EngineOptions options;
	engine_get_options(p->engine, &options);
	char error[ENGINE_PATH_MAX + 256];
	if (!bench_run((int)depth, options.variant, options.eval, options.eval_file, emit_bench_position, p,
	               &totals, error, sizeof error)) {
		protocol_errorf(p, "bench: %s", error);
		return true;
	}
	emit_speed(p, "bench", totals.depth, totals.nodes, totals.elapsed_ms * 1000000);
	return true;
}

static bool cmd_eval(Protocol *p, const HubLine *line)
{
	(void)line;
	const Position *pos = protocol_position(p);
	const EvalWeights *weights = eval_weights_for((Variant)pos->variant);
	EvalTermScore terms[EVAL_TERM_MAX];
	int n = eval_explain(pos, weights, terms, EVAL_TERM_MAX);
	char buffer[1024];
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "eval");
	hubwriter_add(&w, "side", pos->side == BLACK ? "black" : "white");
	hubwriter_addf(&w, "score", "%.2f", eval_evaluate(pos, weights) / 100.0);
	int net;
	if (engine_network_score(p->engine, pos, &net))
		hubwriter_addf(&w, "net", "%.2f", net / 100.0);
	for (int i = 0; i < n; i++)
		hubwriter_addf(&w, terms[i].name, "%.2f", terms[i].value / 100.0);
	hubwriter_addf(&w, "draw-scale", "%.2f", eval_draw_scale(pos, weights) / 16.0);
	protocol_emit(p, buffer);
	return true;
}

static bool cmd_name(Protocol *p, const HubLine *line)
{
	(void)line;
	char buffer[128];
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "name");
	hubwriter_add(&w, "value", "poolshark");
	hubwriter_add(&w, "version", poolshark_version);
	protocol_emit(p, buffer);
	return true;
}

static bool cmd_about(Protocol *p, const HubLine *line)
{
	(void)line;
	char buffer[256], text[160];
	HubWriter w;
	snprintf(text, sizeof text, "poolshark %s, an engine for American pool checkers; GPL-3.0-or-later",
	         poolshark_version);
	hubwriter_init(&w, buffer, sizeof buffer, "about");
	hubwriter_add(&w, "value", text);
	protocol_emit(p, buffer);
	return true;
}

static void emit_option(Protocol *p, const char *command, const OptionDef *def)
{
	char buffer[OPTION_TEXT_MAX + 256], value[OPTION_TEXT_MAX];
	HubWriter w;
	EngineOptions o;
	engine_get_options(p->engine, &o);
	options_format(def, &o, value, sizeof value);
	hubwriter_init(&w, buffer, sizeof buffer, command);
	hubwriter_add(&w, "name", def->name);
	hubwriter_add(&w, "value", value);
	protocol_emit_locked(p, buffer);
}

static bool cmd_get(Protocol *p, const HubLine *line)
{
	const char *name = hubline_word(line, 0);
	if (name && !options_find(name)) {
		char names[OPTION_ERROR_MAX];
		options_names(names, sizeof names);
		protocol_errorf(p, "unknown option '%.40s' (options: %s)", name, names);
		return true;
	}
	pthread_mutex_lock(&p->output_lock);
	for (int i = 0; i < options_count(); i++)
		if (!name || !strcmp(name, options_at(i)->name))
			emit_option(p, "get", options_at(i));
	pthread_mutex_unlock(&p->output_lock);
	return true;
}

static bool cmd_set(Protocol *p, const HubLine *line)
{
	const char *name = hubline_word(line, 0), *value = hubline_word(line, 1);
	char error[PROTOCOL_MESSAGE_MAX];
	if (!name || !value) {
		protocol_error(p, "set needs an option and a value, e.g. set hash 128");
		return true;
	}
	if (!protocol_set_option(p, name, value, error, sizeof error)) {
		protocol_error(p, error);
		return true;
	}
	pthread_mutex_lock(&p->output_lock);
	emit_option(p, "set", options_find(name));
	pthread_mutex_unlock(&p->output_lock);
	return true;
}

const ProtocolCommand protocol_extension_commands[] = {
    {"help", cmd_help, true},     {"board", cmd_board, true},  {"fen", cmd_fen, true},
    {"moves", cmd_moves, true},   {"move", cmd_move, false},   {"undo", cmd_undo, false},
    {"perft", cmd_perft, false},  {"bench", cmd_bench, false}, {"eval", cmd_eval, true},
    {"name", cmd_name, true},     {"about", cmd_about, true},  {"get", cmd_get, true},
    {"set", cmd_set, false},      {"legal", cmd_legal, true},  {"game", cmd_game, true},
    {"lookup", cmd_lookup, true}, {"book", cmd_book, false},
};
const int protocol_extension_command_count =
    (int)(sizeof protocol_extension_commands / sizeof protocol_extension_commands[0]);
