/* SPDX-License-Identifier: GPL-3.0-or-later */
/* selfplay: two fixed-depth searches play each other from random openings, colours swapped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/game.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/search.h"
#include "poolshark/random.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"
#include "cmdline.h"

enum { HASH_MB = 16, PLY_CAP = 400 };

typedef struct Player {
	int depth;
	Search *search;
	TT tt;
} Player;

typedef struct Options {
	int games, depth_a, depth_b, random_plies;
	long long seed;
	bool verbose;
} Options;

/* A start for one pair of games: `plies` random legal moves from the start
 * position, with material still level and no capture pending (a random
 * move that drops a man would decide the pair before it starts). */
static void random_opening(uint64_t *rng, int plies, Game *g)
{
	Position start;
	position_start(&start);
	while (!game_random_level_start(g, &start, plies, rng))
		;
}

/* Plays one game from *opening; black is players[0]. Returns the result. */
static GameResult play_game(const Game *opening, Player *black, Player *white, Game *g, int *plies)
{
	*g = *opening;
	Player *side[2] = {black, white};
	for (int i = 0; i < 2; i++) {
		tt_clear(&side[i]->tt);
		search_clear(side[i]->search);
	}
	GameStatus status;
	while ((status = game_status(g)).result == RESULT_NONE && g->ply_count < PLY_CAP) {
		Player *p = side[game_position(g)->side];
		SearchRoot root;
		search_root_from_game(g, &root);
		SearchLimits limits = {.depth = p->depth};
		SearchResult r;
		search_run(p->search, &p->tt, &root, &limits, NULL, &r);
		if (!game_play(g, r.best))
			break;
	}
	*plies = g->ply_count - opening->ply_count;
	return status.result == RESULT_NONE ? RESULT_DRAW : status.result;
}

/* The options into *o (its defaults first); false with the exit status. */
static bool parse_options(int argc, char **argv, Options *o, int *status)
{
	*o = (Options){.games = 100, .depth_a = 10, .depth_b = 6, .random_plies = 6, .seed = 1};
	const CmdlineOption options[] = {
	    cmdline_int("games", "N", &o->games, 2, 100000,
	                "games, an even number: both colours of each opening (default 100)"),
	    cmdline_int("depth-a", "A", &o->depth_a, 1, 60, "the depth of the first search (default 10)"),
	    cmdline_int("depth-b", "B", &o->depth_b, 1, 60, "the depth of the second search (default 6)"),
	    cmdline_int("random-plies", "K", &o->random_plies, 0, 40,
	                "random moves from the start to each opening (default 6)"),
	    cmdline_long("seed", "S", &o->seed, 0, 1LL << 62, "of the random openings (default 1)"),
	    cmdline_on("verbose", &o->verbose, "a line per game"),
	};
	const Cmdline cmdline = {
	    .program = "selfplay",
	    .synopsis = "usage: selfplay [OPTIONS]\n"
	                "Plays N games (N/2 openings, each with both colours) between a search\n"
	                "to depth A and one to depth B; prints A's wins, draws and losses.\n",
	    .options = options,
	    .count = sizeof options / sizeof options[0],
	};
	if (!cmdline_parse(&cmdline, argc, argv, status))
		return false;
	if (o->games % 2) {
		*status = cmdline_fail(&cmdline,
		                       "--games: %d is odd (each opening is played twice, colours reversed)",
		                       o->games);
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
	Player a = {.depth = o.depth_a, .search = search_create()};
	Player b = {.depth = o.depth_b, .search = search_create()};
	Game *opening = malloc(sizeof *opening), *g = malloc(sizeof *g);
	if (!a.search || !b.search || !opening || !g || !tt_init(&a.tt, HASH_MB) ||
	    !tt_init(&b.tt, HASH_MB)) {
		fprintf(stderr, "selfplay: out of memory\n");
		return 1;
	}
	uint64_t rng = (uint64_t)o.seed;
	int wins = 0, draws = 0, losses = 0;
	for (int pair = 0; pair < o.games / 2; pair++) {
		random_opening(&rng, o.random_plies, opening);
		char fen[NOTATION_FEN_MAX];
		notation_write_fen(game_position(opening), fen, sizeof fen);
		for (int swap = 0; swap < 2; swap++) {
			Player *black = swap ? &b : &a, *white = swap ? &a : &b;
			int plies;
			GameResult res = play_game(opening, black, white, g, &plies);
			Color a_colour = swap ? WHITE : BLACK;
			const char *outcome;
			if (res == RESULT_DRAW) {
				draws++;
				outcome = "draw";
			} else if ((res == RESULT_BLACK_WINS) == (a_colour == BLACK)) {
				wins++;
				outcome = "A wins";
			} else {
				losses++;
				outcome = "B wins";
			}
			if (o.verbose)
				printf("game %3d  A plays %s  %-6s in %3d plies  %s  from %s\n",
				       2 * pair + swap + 1, a_colour == BLACK ? "Black" : "White", outcome,
				       plies, game_reason_text(game_status(g).reason), fen);
		}
		fflush(stdout);
	}
	int n = wins + draws + losses;
	double score = n ? (wins + 0.5 * draws) / n : 0.5;
	printf("depth %d (A) vs depth %d (B), %d games: A +%d =%d -%d, score %.1f%%", o.depth_a, o.depth_b, n,
	       wins, draws, losses, 100.0 * score);
	if (score > 0 && score < 1)
		printf(", Elo difference %+.0f", -400.0 * log10(1.0 / score - 1.0));
	printf("\n");
	search_destroy(a.search);
	search_destroy(b.search);
	tt_free(&a.tt);
	tt_free(&b.tt);
	free(opening);
	free(g);
	return 0;
}

/* The results go to standard output: a write that failed fails the run. */
int main(int argc, char **argv)
{
	if (version_option(argc, argv, "selfplay"))
		return textfile_exit("selfplay", 0);
	return textfile_exit("selfplay", run(argc, argv));
}
