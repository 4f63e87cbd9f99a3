/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `poolshark play`: a game against the engine in the terminal. */
#include "play.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "poolshark/diagram.h"
#include "poolshark/engine.h"
#include "poolshark/game.h"
#include "poolshark/hubline.h"
#include "poolshark/notation.h"
#include "poolshark/number.h"
#include "poolshark/options.h"
#include "poolshark/pdn.h"
#include "poolshark/score.h"
#include "poolshark/version.h"

enum { INPUT_MAX = 1024, PLAY_HASH_MB = 64 };

static const double LEVEL_MIN_SECONDS = 0.01, LEVEL_MAX_SECONDS = 3600.0;

typedef struct PlaySession {
	Engine *engine;
	Color person;                      /* the side the person plays */
	bool flipped;                      /* White's side at the top of the diagram */
	double seconds;                    /* engine time per move */
	bool announced;                    /* the end of this game has been announced */
	char last[NOTATION_MOVE_MAX + 32]; /* "poolshark played 22-18", shown under the board */
	Position start;                    /* where every new game starts */
} PlaySession;

static const char *color_name(Color c)
{
	return c == BLACK ? "Black" : "White";
}

static const Game *session_game(const PlaySession *s)
{
	return engine_game(s->engine);
}

static void show_board(PlaySession *s)
{
	char text[DIAGRAM_MAX];
	diagram_draw(game_position(session_game(s)), s->flipped, text, sizeof text);
	printf("\n%s\n", text);
	if (s->last[0])
		printf("%s\n", s->last);
}

static void show_help(void)
{
	printf("Type a move in PDN: 11-15, a capture 15x22, or the full path 11x18x25 when two\n"
	       "captures share their first and last square. Commands:\n"
	       "  help          this text\n"
	       "  hint          the move poolshark would play for you\n"
	       "  moves         your legal moves\n"
	       "  undo          take back your last move (and the engine's reply)\n"
	       "  new [white]   a new game (you play Black unless you say white)\n"
	       "  flip          turn the board around\n"
	       "  level <s>     engine time per move in seconds (now as set)\n"
	       "  strength <n>  0-100: below 100 poolshark looks less far and varies its play\n"
	       "  threads <n>   search threads (1 by default)\n"
	       "  book <file>   opening book: default (the built-in one, on), off, or a file\n"
	       "  eval <e>      evaluation: classic (hand-written) or net (the network)\n"
	       "  eval-file <f> the network of eval net: default (the built-in one) or a file\n"
	       "  hash <MiB>    and every other engine option (see poolshark's help): set it\n"
	       "  save <file>   write the game as PDN\n"
	       "  quit          leave\n");
}

/* Announces the end once; true when the game is over. */
static bool check_end(PlaySession *s)
{
	GameStatus st = game_status(session_game(s));
	if (st.result == RESULT_NONE)
		return false;
	if (!s->announced) {
		s->announced = true;
		if (st.result == RESULT_DRAW)
			printf("Game over: draw by the %s.\n", game_reason_text(st.reason));
		else {
			Color winner = st.result == RESULT_BLACK_WINS ? BLACK : WHITE;
			printf("Game over: %s wins (%s has no legal move). %s\n", color_name(winner),
			       color_name(color_other(winner)),
			       winner == s->person ? "Well played!" : "poolshark wins.");
		}
		printf("Type new for another game, undo to take back, save <file>, or quit.\n");
	}
	return true;
}

/* The engine's move after `seconds` of thought (move_none() when it has none). */
static Move think(PlaySession *s, double seconds, SearchResult *r)
{
	SearchLimits limits = {0};
	limits.move_time_ms = (int64_t)llround(seconds * 1000.0);
	if (limits.move_time_ms < 1)
		limits.move_time_ms = 1;
	if (engine_search_sync(s->engine, &limits, NULL, NULL, r) != ENGINE_OK)
		return move_none();
	return r->best;
}

static void engine_move(PlaySession *s)
{
	const Position *p = game_position(session_game(s));
	printf("poolshark thinks...\n");
	fflush(stdout);
	SearchResult r;
	Move m = think(s, s->seconds, &r);
	if (move_is_none(m))
		return;
	char text[NOTATION_MOVE_MAX], score[64];
	notation_write_move(p, m, text, sizeof text);
	if (r.egdb_root && score_is_decisive(r.score))
		snprintf(score, sizeof score, "database %s in %d plies", r.score > 0 ? "win" : "loss",
		         abs(score_mate_plies(r.score)));
	else
		score_write(r.score, score, sizeof score);
	engine_play(s->engine, m);
	snprintf(s->last, sizeof s->last, "poolshark played %s", text);
	if (r.book)
		printf("poolshark plays %s (from its opening book)\n", text);
	else
		printf("poolshark plays %s (depth %d, its view: %s)\n", text, r.depth, score);
}

/* A new game from s->start; false, having said why, when the engine
 * refuses it (the old game stays). */
static bool new_game(PlaySession *s, Color person)
{
	EngineStatus status = engine_new_game(s->engine, &s->start);
	if (status != ENGINE_OK) {
		printf("No new game: %s.\n", engine_status_text(status));
		return false;
	}
	s->person = person;
	s->flipped = person == BLACK; /* the person's men at the bottom */
	s->announced = false;
	s->last[0] = '\0';
	printf("New game: you play %s, poolshark plays %s, %.2f s per move.\n", color_name(person),
	       color_name(color_other(person)), s->seconds);
	return true;
}

static void undo(PlaySession *s)
{
	const Game *g = session_game(s);
	if (g->ply_count == 0) {
		printf("Nothing to take back.\n");
		return;
	}
	/* Back to the person's turn, taking back at least one move of theirs
	 * when they have made one. */
	engine_undo(s->engine);
	while (g->ply_count > 0 && game_position(g)->side != s->person)
		engine_undo(s->engine);
	s->announced = false;
	s->last[0] = '\0';
	printf("Taken back; %s to move.\n", color_name(game_position(g)->side));
}

static void save(PlaySession *s, const char *file)
{
	FILE *f = fopen(file, "w");
	if (!f) {
		printf("Cannot write %s.\n", file);
		return;
	}
	char date[16];
	time_t now = time(NULL);
	struct tm tm;
	if (localtime_r(&now, &tm))
		strftime(date, sizeof date, "%Y.%m.%d", &tm);
	else
		snprintf(date, sizeof date, "????.??.??");
	PdnTag tags[] = {
	    {"Event", "casual game"},
	    {"Date", date},
	    {"Black", s->person == BLACK ? "you" : "poolshark"},
	    {"White", s->person == WHITE ? "you" : "poolshark"},
	};
	bool ok = pdn_write_game(f, session_game(s), tags, 4, NULL);
	ok = fclose(f) == 0 && ok;
	printf(ok ? "Saved the game to %s.\n" : "Writing %s failed.\n", file);
}

typedef enum InputStatus { INPUT_LINE, INPUT_BAD, INPUT_END } InputStatus;

/*
 * Reads the next line into *line (a NUL-terminated copy in `out`). A line
 * that is too long, or holds a NUL byte (a person types none; a pipe might
 * send one), is INPUT_BAD with what to tell the person in `out`; the line
 * after it is read normally.
 */
static InputStatus read_input(LineReader *reader, char *out, size_t size)
{
	const char *text;
	size_t length;
	LineStatus status = linereader_next(reader, &text, &length);
	if (status == LINE_TOO_LONG || (status == LINE_OK && length >= size)) {
		snprintf(out, size, "That line is too long.");
		return INPUT_BAD;
	}
	if (status != LINE_OK)
		return INPUT_END;
	if (memchr(text, '\0', length)) {
		snprintf(out, size, "That line holds a NUL byte; it was ignored.");
		return INPUT_BAD;
	}
	memcpy(out, text, length + 1);
	return INPUT_LINE;
}

static bool parse_seconds(const char *text, double *out)
{
	return !number_parse_decimal(text, LEVEL_MIN_SECONDS, LEVEL_MAX_SECONDS, out);
}

/* An engine option typed as a command (`strength 40`, `hash 128`): set it,
 * or say what it takes and what it is. */
static void set_option(PlaySession *s, const OptionDef *def, const char *value)
{
	EngineOptions options;
	engine_get_options(s->engine, &options);
	char error[OPTION_ERROR_MAX], text[OPTION_TEXT_MAX], expected[OPTION_ERROR_MAX];
	if (value && options_parse(def, value, &options, error, sizeof error)) {
		EngineOptions before;
		engine_get_options(s->engine, &before);
		EngineStatus status = engine_set_options(s->engine, &options);
		if (status == ENGINE_BAD_EGDB || status == ENGINE_BAD_NETWORK) {
			/* As the Hub option: a directory without databases or a
			 * network of other rules is refused and the old one
			 * stays. A network's reason starts with its file. */
			const char *why = engine_refusal_text(s->engine);
			if (!strncmp(why, value, strlen(value)))
				snprintf(error, sizeof error, "%s: %s", def->name, why);
			else
				snprintf(error, sizeof error, "%s %.200s: %s", def->name, value, why);
		} else if (status == ENGINE_OK) {
			if (options.variant != before.variant) {
				/* The engine started the new rules' game: every new
				 * game starts there too (a --fen was of the old rules). */
				position_start_variant(&s->start, options.variant);
			}
			options_format(def, &options, text, sizeof text);
			printf("poolshark now plays with %s %s.\n", def->name, text);
			return;
		} else
			snprintf(error, sizeof error, "%s %.200s: %s", def->name, value,
			         engine_status_text(status));
	}
	if (value)
		printf("%s.\n", error);
	engine_get_options(s->engine, &options);
	options_format(def, &options, text, sizeof text);
	options_describe_values(def, expected, sizeof expected);
	printf("%s takes %s (%s); now %s.\n", def->name, expected, def->help, text);
}

/* Handles what the person typed; false on quit. */
static bool person_input(PlaySession *s, char *line)
{
	char *word = strtok(line, " \t");
	char *arg = strtok(NULL, " \t");
	const Position *p = game_position(session_game(s));
	if (!word)
		return true;
	if (!strcmp(word, "quit") || !strcmp(word, "exit"))
		return false;
	if (!strcmp(word, "help") || !strcmp(word, "?")) {
		show_help();
	} else if (!strcmp(word, "flip")) {
		s->flipped = !s->flipped;
		show_board(s);
	} else if (!strcmp(word, "new")) {
		new_game(s, arg && !strcmp(arg, "white") ? WHITE : BLACK);
		show_board(s);
	} else if (!strcmp(word, "undo")) {
		undo(s);
		show_board(s);
	} else if (!strcmp(word, "level")) {
		double v;
		if (arg && parse_seconds(arg, &v)) {
			s->seconds = v;
			printf("poolshark now thinks %.2f s per move.\n", v);
		} else
			printf("level takes seconds, from %.2f to %.0f (e.g. level 2.5); now %.2f.\n",
			       LEVEL_MIN_SECONDS, LEVEL_MAX_SECONDS, s->seconds);
	} else if (options_find(word)) {
		set_option(s, options_find(word), arg);
	} else if (!strcmp(word, "save")) {
		if (arg)
			save(s, arg);
		else
			printf("save needs a file name, e.g. save game.pdn\n");
	} else if (!strcmp(word, "board")) {
		show_board(s);
	} else if (!strcmp(word, "moves")) {
		char list[4096];
		notation_write_legal_moves(p, list, sizeof list);
		printf("Legal moves: %s\n", list);
	} else if (!strcmp(word, "hint")) {
		if (check_end(s) || p->side != s->person) {
			printf("No hint: it is not your move.\n");
		} else {
			/* The hint is the best move poolshark finds, whatever the
			 * strength it plays at. */
			SearchResult r;
			EngineOptions options, full;
			engine_get_options(s->engine, &options);
			full = options;
			full.strength = 100;
			engine_set_options(s->engine, &full);
			Move m = think(s, s->seconds < 1.0 ? s->seconds : 1.0, &r);
			engine_set_options(s->engine, &options);
			char text[NOTATION_MOVE_MAX];
			notation_write_move(p, m, text, sizeof text);
			printf("Hint: %s\n", text);
		}
	} else if (check_end(s)) {
		/* announced already */
	} else if (p->side != s->person) {
		printf("It is poolshark's move.\n");
	} else {
		Move m;
		char error[NOTATION_ERROR_MAX], list[4096], text[NOTATION_MOVE_MAX];
		if (arg || notation_parse_move(p, word, &m, error, sizeof error) != MOVE_PARSE_OK) {
			notation_write_legal_moves(p, list, sizeof list);
			printf("%s: %s\nLegal moves: %s\n", arg ? "unknown command" : "not a legal move",
			       arg ? word : error, list);
			return true;
		}
		notation_write_move(p, m, text, sizeof text);
		engine_play(s->engine, m);
		snprintf(s->last, sizeof s->last, "you played %s", text);
		show_board(s);
	}
	return true;
}

static int usage(const char *problem, const char *argument)
{
	if (problem)
		fprintf(stderr, "poolshark play: %s '%.40s'\n", problem, argument);
	fprintf(stderr,
	        "usage: poolshark play [--variant " VARIANT_CHOICES "] [--white|--black] [--level SECONDS]\n"
	        "  [--fen FEN] [--OPTION VALUE ...]\n"
	        "  (options: --strength 0-100, --hash MB, --egdb DIR|none, ...; see poolshark's help)\n");
	return CLI_USAGE;
}

int play_main(int argc, char **argv)
{
	int person = -1; /* the side that moves first, unless chosen */
	double seconds = 1.0;
	const char *fen = NULL; /* read after the loop, under the rules of --variant */
	Position start;
	position_start(&start);
	EngineOptions options;
	engine_default_options(&options);
	options.hash_mb = PLAY_HASH_MB;
	char default_egdb[sizeof options.egdb_path];
	egdb_default_dir(default_egdb, sizeof default_egdb);
	snprintf(options.egdb_path, sizeof options.egdb_path, "%s", default_egdb);
	/* Against a person the book varies the openings and saves time. */
	snprintf(options.book, sizeof options.book, "default");
	for (int i = 1; i < argc; i++) {
		char error[OPTION_ERROR_MAX];
		if (options_parse_flag(argc, argv, &i, &options, error, sizeof error))
			continue;
		if (error[0]) {
			fprintf(stderr, "poolshark play: %s\n", error);
			return usage(NULL, NULL);
		}
		if (!strcmp(argv[i], "--white"))
			person = WHITE;
		else if (!strcmp(argv[i], "--black"))
			person = BLACK;
		else if (!strcmp(argv[i], "--level") && i + 1 < argc) {
			if (!parse_seconds(argv[++i], &seconds))
				return usage("--level takes seconds from 0.01 to 3600, not", argv[i]);
		} else if (!strcmp(argv[i], "--fen") && i + 1 < argc)
			fen = argv[++i];
		else
			return usage("unknown or incomplete argument", argv[i]);
	}
	char fen_error[NOTATION_ERROR_MAX];
	if (fen && !notation_parse_fen(fen, options.variant, &start, fen_error, sizeof fen_error)) {
		fprintf(stderr, "poolshark: bad FEN: %s\n", fen_error);
		return CLI_USAGE;
	}
	if (strcmp(options.egdb_path, default_egdb) &&
	    !cli_check_egdb("play", options.egdb_path, &options.variant))
		return CLI_USAGE;
	if (!cli_check_eval_file("play", &options))
		return CLI_USAGE;
	const VariantRules *rules = variant_rules(options.variant);
	if (!fen)
		position_start_variant(&start, options.variant);
	if (person < 0)
		person = rules->white_first ? WHITE : BLACK;
	PlaySession s = {0};
	s.seconds = seconds;
	s.start = start;
	LineReader reader;
	if (!linereader_init(&reader, STDIN_FILENO)) {
		fprintf(stderr, "poolshark: out of memory\n");
		return CLI_FAILURE;
	}
	s.engine = engine_create(&options);
	if (!s.engine) {
		fprintf(stderr, "poolshark: out of memory\n");
		linereader_free(&reader);
		return CLI_FAILURE;
	}
	printf("poolshark %s: %s. Type help for the commands.\n", poolshark_version, rules->title);
	if (!new_game(&s, (Color)person)) {
		linereader_free(&reader);
		engine_destroy(s.engine);
		return CLI_FAILURE;
	}
	show_board(&s);
	for (;;) {
		if (!check_end(&s) && game_position(session_game(&s))->side != s.person) {
			engine_move(&s);
			show_board(&s);
			continue;
		}
		if (!check_end(&s))
			printf("Your move (%s)> ", color_name(s.person));
		else
			printf("> ");
		fflush(stdout);
		char line[INPUT_MAX];
		InputStatus status = read_input(&reader, line, sizeof line);
		if (status == INPUT_END) {
			printf("\n");
			break;
		}
		if (status == INPUT_BAD)
			printf("%s\n", line);
		else if (!person_input(&s, line))
			break;
	}
	printf("Bye.\n");
	linereader_free(&reader);
	engine_destroy(s.engine);
	return CLI_OK;
}
