/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tune gen: quiet positions labelled with the result of a fixed-depth self-play game. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "poolshark/game.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/search.h"
#include "poolshark/variant.h"
#include "poolshark/random.h"
#include "cmdline.h"
#include "openings.h"
#include "tune.h"

typedef struct GenOptions {
	const char *openings;
	char openings_default[OPENINGS_PATH_MAX]; /* the path when --openings is not given */
	Variant variant;
	int games, depth, random_plies, per_game, max_plies, hash_mb;
	long long nodes, seed;
} GenOptions;

/* --depth and --nodes: the last limit given wins. */
static bool set_depth(void *context, const char *value, char *problem, size_t size)
{
	GenOptions *o = context;
	long long depth;
	if (!cmdline_read_number(value, 1, 60, &depth, problem, size))
		return false;
	o->depth = (int)depth;
	o->nodes = 0;
	return true;
}

static bool set_nodes(void *context, const char *value, char *problem, size_t size)
{
	GenOptions *o = context;
	if (!cmdline_read_number(value, 1, 1LL << 40, &o->nodes, problem, size))
		return false;
	o->depth = 0;
	return true;
}

/* The options into *o (its defaults first); false with the exit status. */
static bool parse_gen_options(int argc, char **argv, GenOptions *o, int *status)
{
	*o = (GenOptions){.openings = NULL,
	                  .games = 1000,
	                  .depth = 6,
	                  .random_plies = 4,
	                  .max_plies = 300,
	                  .hash_mb = 8,
	                  .seed = 1};
	const CmdlineOption options[] = {
	    cmdline_variant("variant", &o->variant, "the rules of the games (default pool)"),
	    cmdline_text("openings", "FILE", &o->openings,
	                 "tools/data/openings.fen for pool, openings-V.fen otherwise"),
	    cmdline_int("games", "N", &o->games, 1, 10000000, "games to play (default 1000)"),
	    cmdline_call("depth", "D", set_depth, "the depth of every search (default 6)"),
	    cmdline_call("nodes", "N", set_nodes, "nodes a search instead of a depth"),
	    cmdline_int("random-plies", "R", &o->random_plies, 0, 40,
	                "random moves after the opening, 0..R (default 4)"),
	    cmdline_int("per-game", "P", &o->per_game, 0, 10000, "positions a game at most (0: all)"),
	    cmdline_int("max-plies", "M", &o->max_plies, 10, GAME_MAX_PLIES,
	                "a game still running after M plies is a draw (default 300)"),
	    cmdline_int("hash", "MB", &o->hash_mb, 1, 4096, "the table's size (default 8)"),
	    cmdline_long("seed", "S", &o->seed, 0, 1LL << 62, "of the random moves (default 1)"),
	};
	const Cmdline cmdline = {
	    .program = "tune gen",
	    .synopsis = "usage: tune gen [OPTIONS] > positions.txt\n"
	                "Plays N self-play games, each from an opening of FILE (in turn) followed by\n"
	                "0..R random moves that keep material level, searching every move to depth D\n"
	                "or N nodes (the last one given). Writes up to P positions per game where the\n"
	                "side to move has no capture, one per line: `FEN result game`, the result\n"
	                "from Black's view (1, 0.5, 0).\n",
	    .options = options,
	    .count = sizeof options / sizeof options[0],
	    .context = o,
	};
	if (!cmdline_parse(&cmdline, argc, argv, status))
		return false;
	if (!o->openings)
		o->openings =
		    openings_find_default(o->variant, o->openings_default, sizeof o->openings_default);
	return true;
}

/* Plays the game on from *g; returns the result (a draw at the ply cap). */
static GameResult play_out(Search *s, TT *tt, const GenOptions *o, Game *g)
{
	tt_clear(tt);
	search_clear(s);
	SearchLimits limits = {.depth = o->depth, .nodes = (uint64_t)o->nodes};
	GameStatus status;
	while ((status = game_status(g)).result == RESULT_NONE && g->ply_count < o->max_plies) {
		SearchRoot root;
		SearchResult r;
		search_root_from_game(g, &root);
		search_run(s, tt, &root, &limits, NULL, &r);
		if (!game_play(g, r.best))
			return RESULT_DRAW; /* cannot happen: the search only returns legal moves */
	}
	return status.result == RESULT_NONE ? RESULT_DRAW : status.result;
}

/* Writes the quiet positions of g from ply `first` on, at most per_game of
 * them (a random choice when there are more). Returns how many. */
static int write_positions(uint64_t *rng, const Game *g, int first, int per_game, const char *label, int game,
                           int *picked)
{
	int n = 0;
	for (int ply = first; ply < g->ply_count; ply++)
		if (!movegen_has_capture(&g->positions[ply]))
			picked[n++] = ply;
	if (per_game > 0 && n > per_game) {
		for (int i = 0; i < per_game; i++) {
			int j = i + (int)(random_next(rng) % (uint64_t)(n - i));
			int t = picked[i];
			picked[i] = picked[j];
			picked[j] = t;
		}
		n = per_game;
	}
	for (int i = 0; i < n; i++) {
		char fen[NOTATION_FEN_MAX];
		notation_write_fen(&g->positions[picked[i]], fen, sizeof fen);
		printf("%s %s %d\n", fen, label, game);
	}
	return n;
}

int tune_gen(int argc, char **argv)
{
	GenOptions o;
	int status;
	if (!parse_gen_options(argc, argv, &o, &status))
		return status;
	Openings openings = {0, NULL};
	Game *g = malloc(sizeof *g);
	int *picked = malloc((GAME_MAX_PLIES + 1) * sizeof *picked);
	Search *s = search_create();
	TT tt;
	bool tt_ok = tt_init(&tt, (size_t)o.hash_mb);
	status = 1;
	if (!g || !picked || !s || !tt_ok) {
		fprintf(stderr, "tune gen: out of memory\n");
		goto done;
	}
	char err[600];
	if (!openings_read(o.openings, o.variant, NULL, &openings, err, sizeof err)) {
		fprintf(stderr, "tune gen: %s\n", err);
		goto done;
	}

	printf("# tune gen --variant %s --openings %s --games %d --%s %lld --random-plies %d --per-game %d "
	       "--max-plies %d --hash %d --seed %lld\n",
	       variant_rules(o.variant)->name, o.openings, o.games, o.nodes ? "nodes" : "depth",
	       o.nodes ? o.nodes : o.depth, o.random_plies, o.per_game, o.max_plies, o.hash_mb, o.seed);
	printf("# FEN, result for Black (1 win, 0.5 draw, 0 loss), game number\n");
	uint64_t rng = (uint64_t)o.seed;
	long positions = 0;
	int tally[4] = {0};
	time_t started = time(NULL);
	for (int game = 0; game < o.games; game++) {
		openings_random_start(&rng, &openings.positions[game % openings.count], 0, o.random_plies, g);
		int first = g->ply_count;
		GameResult result = play_out(s, &tt, &o, g);
		tally[result]++;
		const char *label = result == RESULT_BLACK_WINS   ? "1"
		                    : result == RESULT_WHITE_WINS ? "0"
		                                                  : "0.5";
		positions += write_positions(&rng, g, first, o.per_game, label, game, picked);
		if ((game + 1) % 100 == 0 || game + 1 == o.games) {
			fflush(stdout);
			fprintf(stderr, "tune gen: %d games (Black +%d =%d -%d), %ld positions, %lld s\n",
			        game + 1, tally[RESULT_BLACK_WINS], tally[RESULT_DRAW],
			        tally[RESULT_WHITE_WINS], positions, (long long)(time(NULL) - started));
		}
	}
	status = ferror(stdout) ? 1 : 0;
done:
	if (tt_ok)
		tt_free(&tt);
	if (s)
		search_destroy(s);
	free(picked);
	free(g);
	openings_free(&openings);
	return status;
}
