/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pool-egdb review: the won endings the players of a PDN file reached, and what became of them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "egdbtool.h"
#include "poolshark/bitboard.h"
#include "poolshark/egdb_class.h"
#include "poolshark/game.h"
#include "poolshark/pdn.h"

enum { REVIEW_MAX_PLAYERS = 64, REVIEW_NAME_MAX = 64 };

/* One player's won endings: reached, then won, drawn or lost. */
typedef struct PlayerTally {
	char name[REVIEW_NAME_MAX];
	int reached, won, drawn, lost;
} PlayerTally;

typedef struct Review {
	Egdb *db;
	FILE *out;
	PlayerTally players[REVIEW_MAX_PLAYERS];
	int player_count;
	int games, errors;
	int untallied; /* won endings of players past the first REVIEW_MAX_PLAYERS */
} Review;

static PlayerTally *player_named(Review *r, const char *name)
{
	for (int i = 0; i < r->player_count; i++)
		if (!strcmp(r->players[i].name, name))
			return &r->players[i];
	if (r->player_count == REVIEW_MAX_PLAYERS)
		return NULL; /* more players than a match has: the rest go untallied */
	PlayerTally *t = &r->players[r->player_count++];
	snprintf(t->name, sizeof t->name, "%s", name);
	return t;
}

/* The first ply of g at which `side` stands won by the databases with the
 * win inside the draw counts, or -1; its distance into *plies. */
static int first_won_ply(Review *r, const Game *g, Color side, int *plies)
{
	int most = egdb_max_pieces(r->db);
	for (int i = 0; i <= g->ply_count; i++) {
		const Position *p = &g->positions[i];
		uint8_t v;
		if (bb_count(position_occupied(p)) > most || !egdb_probe(r->db, p, &v))
			continue;
		EgdbResult result = egdb_value_result(v);
		if (result == EGDB_DRAW)
			continue;
		Color winner = result == EGDB_WIN ? p->side : color_other(p->side);
		if (winner == side && game_win_fits(p, &g->counters[i], egdb_value_distance(v))) {
			*plies = egdb_value_distance(v);
			return i;
		}
	}
	return -1;
}

/* The won endings of one game, a line each, added to the tallies. */
static void review_game(Review *r, const char *path, int number, const PdnGame *pg)
{
	static const char *const colour_names[2] = {"Black", "White"};
	const Game *g = pg->game;
	const char *term = pdn_game_tag(pg, "Termination");
	for (int c = BLACK; c <= WHITE; c++) {
		int plies, ply = first_won_ply(r, g, (Color)c, &plies);
		if (ply < 0)
			continue;
		const char *name = pdn_game_tag(pg, colour_names[c]);
		if (!name || !*name)
			name = colour_names[c];
		GameResult win = c == BLACK ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
		const char *fate = pg->result == win           ? "won"
		                   : pg->result == RESULT_DRAW ? "drawn"
		                   : pg->result == RESULT_NONE ? "unfinished"
		                                               : "lost";
		fprintf(r->out,
		        "%s game %d: %s (%s) won by the databases from ply %d (%d pieces, win in %d plies): "
		        "%s%s%s%s\n",
		        path, number, name, colour_names[c], ply,
		        bb_count(position_occupied(&g->positions[ply])), plies, fate, term ? " (" : "",
		        term ? term : "", term ? ")" : "");
		PlayerTally *t = player_named(r, name);
		if (!t) {
			r->untallied++;
			continue;
		}
		t->reached++;
		t->won += pg->result == win;
		t->drawn += pg->result == RESULT_DRAW;
		t->lost += pg->result != win && pg->result != RESULT_DRAW && pg->result != RESULT_NONE;
	}
}

/* Every game of one file; a file that cannot be opened or read to its end
 * counts as an error. */
static void review_file(Review *r, const char *path, Variant v)
{
	FILE *in = fopen(path, "r");
	if (!in) {
		fprintf(stderr, "pool-egdb: cannot open %s: %s\n", path, strerror(errno));
		r->errors++;
		return;
	}
	char error[256];
	PdnErrorPlace where;
	PdnGame pg;
	for (int number = 1;; number++) {
		PdnReadStatus status = pdn_read_game_located(in, &pg, error, sizeof error, &where);
		if (status == PDN_READ_END)
			break;
		if (status != PDN_READ_OK) {
			char line[32] = "";
			if (where.line > 0)
				snprintf(line, sizeof line, " (line %ld)", where.line);
			fprintf(stderr, "pool-egdb: %s game %d%s: %s\n", path, number, line, error);
			r->errors++;
			if (status == PDN_READ_FAILED) {
				fclose(in);
				return; /* named above */
			}
			continue;
		}
		Variant game_variant = position_variant(&pg.game->positions[0]);
		if (game_variant != v) {
			fprintf(stderr,
			        "pool-egdb: %s game %d is played under %s's rules, the databases are %s's\n",
			        path, number, variant_rules(game_variant)->name, variant_rules(v)->name);
			r->errors++;
		} else {
			review_game(r, path, number, &pg);
			r->games++;
		}
		pdn_game_free(&pg);
	}
	if (ferror(in)) {
		fprintf(stderr, "pool-egdb: cannot read %s to its end\n", path);
		r->errors++;
	}
	fclose(in);
}

int egdb_review(const char *dir, Variant v, const char *const *paths, int count, FILE *out)
{
	char why[512];
	Egdb *db = egdb_open(dir, v, why, sizeof why);
	if (!db) {
		fprintf(stderr, "pool-egdb: %s\n", why);
		return 1;
	}
	Review r = {.db = db, .out = out};
	for (int i = 0; i < count; i++)
		review_file(&r, paths[i], v);
	fprintf(out, "%d games reviewed with the databases of up to %d pieces\n", r.games,
	        egdb_max_pieces(db));
	egdb_close(db);
	for (int i = 0; i < r.player_count; i++) {
		const PlayerTally *t = &r.players[i];
		fprintf(out, "%s: %d won endings reached, %d won, %d drawn, %d lost\n", t->name, t->reached,
		        t->won, t->drawn, t->lost);
	}
	if (r.untallied)
		fprintf(out, "%d won endings of players past the first %d are listed above but not tallied\n",
		        r.untallied, REVIEW_MAX_PLAYERS);
	if (r.errors)
		fprintf(stderr, "pool-egdb: %d skipped (games of other rules, bad games, unreadable files)\n",
		        r.errors);
	return r.errors ? 1 : 0;
}
