/* SPDX-License-Identifier: GPL-3.0-or-later */
/* egdb-convert: does poolshark win database wins and hold database draws under the real draw rules? */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/egdb.h"
#include "poolshark/engine.h"
#include "poolshark/game.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/random.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"
#include "cmdline.h"

typedef struct Options {
	const char *dir;
	Variant variant;
	int pieces;    /* the largest positions picked; one fewer too */
	bool playable; /* only wins that perfect play converts within the draw counts */
	bool list;     /* print the won positions, play none */
	bool has_class;
	EgdbClass only;         /* with has_class: the one material picked */
	long long movetime_ms;  /* per move instead of nodes when > 0 */
	const char *class_name; /* --class, parsed into only */
	int positions, draws, min_distance;
	long long nodes, seed;
	bool without, verbose;
} Options;

typedef struct Tally {
	int games, won, drawn, lost;
	int by_reason[END_BALANCE + 1];
	long plies_won; /* over the won games */
	long distance;  /* database distance of the won games' starts */
} Tally;

/* The database's move for the side that is not poolshark: the fastest win,
 * else a draw, else the longest loss; ties to the first in generation order. */
static Move perfect_move(Egdb *db, const Position *p)
{
	MoveList list;
	int n = movegen_generate(p, &list), best = 0, best_rank = 0;
	for (int i = 0; i < n; i++) {
		Position next;
		uint8_t v;
		position_make(p, list.moves[i], &next);
		if (!egdb_probe(db, &next, &v))
			return list.moves[0];
		int d = egdb_value_distance(v), rank;
		if (egdb_value_result(v) == EGDB_LOSS)
			rank = 1000 - d; /* we win */
		else if (egdb_value_result(v) == EGDB_DRAW)
			rank = 0;
		else
			rank = -1000 + d;
		if (i == 0 || rank > best_rank) {
			best = i;
			best_rank = rank;
		}
	}
	return list.moves[best];
}

/*
 * Whether the side to move in *start, won in the databases, wins the game
 * under the draw rules when both sides play the databases' moves (the
 * fastest win, the longest defence): a win that the counts cannot stop.
 */
static bool perfect_play_wins(Egdb *db, const Position *start)
{
	static Game g; /* one at a time; too large for the stack */
	game_init(&g, start);
	while (game_status(&g).result == RESULT_NONE)
		if (!game_play(&g, perfect_move(db, game_position(&g))))
			return false;
	GameResult r = game_status(&g).result;
	return r == (start->side == BLACK ? RESULT_BLACK_WINS : RESULT_WHITE_WINS);
}

/* A random position of P-1 or P pieces with the wanted database value. */
static bool pick(Egdb *db, uint64_t *rng, bool want_win, const Options *o, Position *out)
{
	EgdbClass pairs[512];
	int count = egdb_class_pairs(o->pieces, pairs, NULL, 512);
	for (int tries = 0; tries < 1000000; tries++) {
		EgdbClass c = pairs[random_below(rng, (uint64_t)count)];
		if (egdb_class_pieces(&c) < o->pieces - 1)
			continue;
		if (random_below(rng, 2))
			c = egdb_class_swap(c);
		if (o->has_class)
			c = o->only;
		Position p;
		uint8_t v;
		if (!egdb_position(o->variant, c, random_below(rng, egdb_class_size(c)), &p) ||
		    !egdb_probe(db, &p, &v))
			continue;
		if (movegen_has_capture(&p))
			continue; /* the point is play, not a capture */
		if (want_win &&
		    (egdb_value_result(v) != EGDB_WIN || egdb_value_distance(v) < o->min_distance ||
		     (o->playable && !perfect_play_wins(db, &p))))
			continue;
		if (!want_win) {
			/* A draw where some move loses: holding it takes a choice. */
			if (egdb_value_result(v) != EGDB_DRAW)
				continue;
			MoveList list;
			bool can_lose = false;
			int n = movegen_generate(&p, &list);
			for (int i = 0; i < n; i++) {
				Position next;
				uint8_t nv;
				position_make(&p, list.moves[i], &next);
				can_lose |= egdb_probe(db, &next, &nv) && egdb_value_result(nv) == EGDB_WIN;
			}
			if (!can_lose)
				continue;
		}
		/* A random colour to move. */
		if (random_below(rng, 2)) {
			Position turned = p; /* Black to move: turn the board, swap the colours */
			Bitboard b = 0, w = 0, k = 0;
			for (int s = 0; s < SQUARE_COUNT; s++) {
				int t = SQUARE_COUNT - 1 - s;
				if (turned.pieces[BLACK] & bb_square(s))
					w |= bb_square(t);
				if (turned.pieces[WHITE] & bb_square(s))
					b |= bb_square(t);
				if (turned.kings & bb_square(s))
					k |= bb_square(t);
			}
			position_set(&p, b, w, k, WHITE);
			p.variant = (uint8_t)o->variant;
		}
		*out = p;
		return true;
	}
	return false;
}

/* Plays one game from *start: poolshark (engine) is the side to move. */
static GameStatus play(Engine *e, Egdb *db, const Position *start, const Options *o, Game *g, int *plies)
{
	Color engine_side = start->side;
	game_init(g, start);
	engine_new_game(e, start);
	for (;;) {
		GameStatus st = game_status(g);
		if (st.result != RESULT_NONE) {
			*plies = g->ply_count;
			return st;
		}
		const Position *p = game_position(g);
		Move m;
		if (p->side == engine_side) {
			SearchLimits limits = {0};
			SearchResult r;
			limits.nodes = o->movetime_ms > 0 ? 0 : o->nodes;
			limits.move_time_ms = o->movetime_ms;
			engine_set_game(e, g);
			engine_search_sync(e, &limits, NULL, NULL, &r);
			m = r.best;
		} else {
			m = perfect_move(db, p);
		}
		game_play(g, m);
	}
}

static void run_set(Engine *e, Egdb *db, const Options *o, bool wins, Tally *t, Game *g)
{
	uint64_t rng = (uint64_t)o->seed + (wins ? 0 : 1);
	int n = wins ? o->positions : o->draws;
	for (int i = 0; i < n; i++) {
		Position start;
		uint8_t v;
		if (!pick(db, &rng, wins, o, &start) || !egdb_probe(db, &start, &v)) {
			fprintf(stderr, "egdb-convert: no position found\n");
			return;
		}
		int plies;
		GameStatus st = play(e, db, &start, o, g, &plies);
		bool engine_won = (st.result == RESULT_BLACK_WINS && start.side == BLACK) ||
		                  (st.result == RESULT_WHITE_WINS && start.side == WHITE);
		t->games++;
		if (engine_won) {
			t->won++;
			t->plies_won += plies;
			t->distance += egdb_value_distance(v);
		} else if (st.result == RESULT_DRAW) {
			t->drawn++;
			t->by_reason[st.reason]++;
		} else {
			t->lost++;
		}
		if (o->verbose) {
			char fen[NOTATION_FEN_MAX];
			notation_write_fen(&start, fen, sizeof fen);
			printf("%-5s %3d  %-38s database %s %3d  game: %-5s in %3d plies%s%s\n",
			       wins ? "win" : "draw", i + 1, fen, wins ? "win in" : "draw  ",
			       egdb_value_distance(v),
			       engine_won                 ? "won"
			       : st.result == RESULT_DRAW ? "drawn"
			                                  : "LOST",
			       plies, st.result == RESULT_DRAW ? " by " : "",
			       st.result == RESULT_DRAW ? game_reason_text(st.reason) : "");
			fflush(stdout);
		}
	}
}

/* The options into *o (its defaults first); false with the exit status. */
static bool parse_options(int argc, char **argv, Options *o, int *status)
{
	*o = (Options){.variant = VARIANT_POOL,
	               .pieces = 5,
	               .positions = 50,
	               .draws = 50,
	               .min_distance = 20,
	               .nodes = 100000,
	               .seed = 1};
	const CmdlineOption options[] = {
	    cmdline_required(cmdline_text("egdb", "DIR", &o->dir, "the referee's databases (P pieces)")),
	    cmdline_variant("variant", &o->variant, "the rule set (default pool; DIR holds its databases)"),
	    cmdline_int("pieces", "P", &o->pieces, 3, EGDB_MAX_PIECES,
	                "positions of P-1 and P pieces (default 5)"),
	    cmdline_on("playable", &o->playable,
	               "only wins that the databases' own moves convert within the draw counts"),
	    cmdline_int("positions", "N", &o->positions, 0, 100000, "won positions to play (default 50)"),
	    cmdline_int("draws", "N", &o->draws, 0, 100000, "drawn positions to play (default 50)"),
	    cmdline_int("min-distance", "PLIES", &o->min_distance, 1, 200,
	                "the shortest win of a won position (default 20)"),
	    cmdline_long("nodes", "N", &o->nodes, 1, 1000000000000LL,
	                 "poolshark's nodes a move (default 100000)"),
	    cmdline_long("seed", "S", &o->seed, 0, 1LL << 62, "of the positions' choice (default 1)"),
	    cmdline_text("class", "CLASS", &o->class_name,
	                 "that material only, the side to move's first (m0k3-m0k1)"),
	    cmdline_on("list", &o->list, "print the won positions picked, one FEN a line, and play none"),
	    cmdline_long("movetime", "MS", &o->movetime_ms, 1, 3600000,
	                 "poolshark's time a move instead of nodes"),
	    cmdline_on("without", &o->without, "poolshark plays without the databases"),
	    cmdline_on("verbose", &o->verbose, "a line per game"),
	};
	const Cmdline cmdline = {
	    .program = "egdb-convert",
	    .synopsis = "usage: egdb-convert --egdb DIR [OPTIONS]\n"
	                "\n"
	                "Picks N won positions of P-1 to P pieces of rule set V (the side to move\n"
	                "wins in at least --min-distance plies) and N drawn ones (where some move\n"
	                "loses), and plays each as a game under the full rules (RULES.md 3,\n"
	                "doc/VARIANTS.md): poolshark, searching\n"
	                "--nodes per move, plays the side to move; the other side plays perfectly\n"
	                "from the databases (the longest defence when lost, the fastest win when\n"
	                "poolshark errs). Prints one line per game and a summary table.\n",
	    .options = options,
	    .count = sizeof options / sizeof options[0],
	};
	if (!cmdline_parse(&cmdline, argc, argv, status))
		return false;
	o->has_class = o->class_name != NULL;
	if (o->has_class && !egdb_class_parse(o->class_name, &o->only)) {
		*status =
		    cmdline_fail(&cmdline, "--class wants a class such as m0k3-m0k1: %s", o->class_name);
		return false;
	}
	return true;
}

static int run(int argc, char **argv)
{
	Options o;
	int status;
	if (!parse_options(argc, argv, &o, &status))
		return status;
	char err[512];
	Egdb *db = egdb_open(o.dir, o.variant, err, sizeof err);
	if (!db || egdb_max_pieces(db) < o.pieces) {
		if (db)
			snprintf(err, sizeof err, "the databases must cover %d pieces", o.pieces);
		fprintf(stderr, "egdb-convert: %s\n", err);
		egdb_close(db);
		return 1;
	}
	if (o.list) {
		uint64_t rng = o.seed;
		for (int i = 0; i < o.positions; i++) {
			Position p;
			char fen[NOTATION_FEN_MAX];
			if (!pick(db, &rng, true, &o, &p)) {
				fprintf(stderr, "egdb-convert: no position found\n");
				egdb_close(db);
				return 1;
			}
			notation_write_fen(&p, fen, sizeof fen);
			printf("%s\n", fen);
		}
		egdb_close(db);
		return 0;
	}
	EngineOptions eo;
	engine_default_options(&eo);
	eo.hash_mb = 16;
	eo.variant = o.variant;
	if (!o.without)
		snprintf(eo.egdb_path, sizeof eo.egdb_path, "%s", o.dir);
	Engine *e = engine_create(&eo);
	Game *g = malloc(sizeof *g);
	if (!e || !g) {
		fprintf(stderr, "egdb-convert: out of memory\n");
		return 1;
	}
	Tally wins = {0}, draws = {0};
	run_set(e, db, &o, true, &wins, g);
	run_set(e, db, &o, false, &draws, g);
	if (o.movetime_ms > 0)
		printf("poolshark %s databases, %lld ms a move, against perfect play:\n",
		       o.without ? "without" : "with", o.movetime_ms);
	else
		printf("poolshark %s databases, %lld nodes a move, against perfect play:\n",
		       o.without ? "without" : "with", o.nodes);
	printf("  won positions (distance >= %d): %d games, %d converted, %d drawn (%d 25-move rule, %d "
	       "thirteen-move "
	       "count, %d repetition",
	       o.min_distance, wins.games, wins.won, wins.drawn, wins.by_reason[END_25_MOVE_RULE],
	       wins.by_reason[END_THIRTEEN_MOVES], wins.by_reason[END_REPETITION]);
	if (o.variant != VARIANT_POOL)
		printf(", %d kings only, %d lone-king count, %d balance", wins.by_reason[END_KING_MOVES],
		       wins.by_reason[END_ENDGAME_COUNT], wins.by_reason[END_BALANCE]);
	printf("), %d lost; converted in %.1f plies on average (database: %.1f)\n", wins.lost,
	       wins.won ? (double)wins.plies_won / wins.won : 0.0,
	       wins.won ? (double)wins.distance / wins.won : 0.0);
	printf("  drawn positions: %d games, %d held, %d lost, %d won\n", draws.games, draws.drawn,
	       draws.lost, draws.won);
	engine_destroy(e);
	egdb_close(db);
	free(g);
	return wins.won == wins.games && draws.lost == 0 ? 0 : 1;
}

/* The results go to standard output: a write that failed fails the run. */
int main(int argc, char **argv)
{
	if (version_option(argc, argv, "egdb-convert"))
		return textfile_exit("egdb-convert", 0);
	return textfile_exit("egdb-convert", run(argc, argv));
}
