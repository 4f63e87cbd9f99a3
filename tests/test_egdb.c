/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Endgame databases: the generator's files against an independent solver, known facts, the tool, probing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/egdb.h"
#include "poolshark/kings_plan.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/search.h"
#include "poolshark/tt.h"
#include "support/support.h"

typedef struct Paths {
	char tool[1024];
	char engine[1024];
	char dir[256];      /* scratch directory */
	char db[300];       /* up to 4 pieces, built once by the suite */
	char other[300];    /* built again, differently, for comparison */
	char variants[300]; /* Russian and Brazilian up to 4 pieces, English, Italian, Spanish and
	                       Czech up to 3, each in variants/NAME */
} Paths;

static Paths paths;

/* The whole output of a shell command (at most size - 1 bytes), stderr
 * joined to it. */
static void run_output(char *out, size_t size, const char *command)
{
	static SupportRun r;
	support_run(&r, "%s", command);
	size_t n = strlen(r.text) < size - 1 ? strlen(r.text) : size - 1;
	memcpy(out, r.text, n);
	out[n] = '\0';
}

static Egdb *open_variant_db(const char *dir, Variant v)
{
	char err[512];
	Egdb *db = egdb_open(dir, v, err, sizeof err);
	if (!db)
		fail_msg("%s", err);
	return db;
}

static Egdb *open_db(const char *dir)
{
	return open_variant_db(dir, VARIANT_POOL);
}

/* support_position() of fen, played under v. */
static Position variant_position(const char *fen, Variant v)
{
	Position p = support_position(fen);
	p.variant = (uint8_t)v;
	return p;
}

static uint8_t probe(Egdb *db, const char *fen)
{
	Position p = support_position(fen);
	uint8_t v;
	assert_true(egdb_probe(db, &p, &v));
	return v;
}

/* ---- Indexing ---- */

static void test_index_round_trip(void **state)
{
	(void)state;
	EgdbClass pairs[64];
	int n = egdb_class_pairs(4, pairs, NULL, 64);
	for (int i = 0; i < n; i++) {
		EgdbClass c = pairs[i];
		uint64_t size = egdb_class_size(c), valid = 0;
		for (uint64_t index = 0; index < size; index++) {
			Position p;
			if (!egdb_position(VARIANT_POOL, c, index, &p))
				continue;
			valid++;
			EgdbClass back;
			egdb_class_of(&p, &back);
			assert_true(egdb_class_equal(back, c));
			assert_int_equal(position_validate(&p), POSITION_OK);
			assert_int_equal(egdb_index(&p, c), index);
		}
		assert_true(valid > 0);
	}
}

static void test_pairs_in_dependency_order(void **state)
{
	(void)state;
	EgdbClass pairs[512];
	int groups[512];
	int n = egdb_class_pairs(5, pairs, groups, 512);
	assert_int_equal(n, 45); /* 85 classes: the symmetric ones pair with themselves */
	for (int i = 1; i < n; i++) {
		int pieces = egdb_class_pieces(&pairs[i]), before = egdb_class_pieces(&pairs[i - 1]);
		assert_true(pieces >= before);
		assert_true(groups[i] == groups[i - 1] || groups[i] == groups[i - 1] + 1);
	}
}

/* ---- An independent solver over the reference generator ---- */

/*
 * Positions of at most three pieces as keys of 24 bits: side to move, piece
 * count, then (square, kind) of each piece in square order. Values: 0xff
 * unknown, else distance + 1, as in the files.
 */
enum { KEY_SPACE = 1 << 24, UNKNOWN = 0xff, MAX_MEMBERS = 700000 };

static uint32_t board_key(const RefBoard *b)
{
	uint32_t key = b->side == 'W' ? 1 : 0, count = 0, pieces = 0;
	for (int s = 1; s <= 32; s++) {
		const char *kinds = "bBwW";
		const char *k = b->squares[s] != '.' ? strchr(kinds, b->squares[s]) : NULL;
		if (!k)
			continue;
		pieces |= (uint32_t)((s - 1) << 2 | (int)(k - kinds)) << (7 * count);
		count++;
	}
	return key | count << 1 | pieces << 3;
}

static bool side_has_pieces(const RefBoard *b, char side)
{
	for (int s = 1; s <= 32; s++) {
		char c = b->squares[s];
		if ((side == 'B' && (c == 'b' || c == 'B')) || (side == 'W' && (c == 'w' || c == 'W')))
			return true;
	}
	return false;
}

typedef struct Solved {
	uint8_t *value; /* by key */
	int count;
	RefBoard *boards;
	int *first;    /* successors of boards[i]: succ[first[i] .. first[i + 1]) */
	int32_t *succ; /* key, or -1: the side to move there has no piece */
	uint32_t *key; /* of boards[i] */
} Solved;

static void add_board(Solved *s, const RefBoard *b)
{
	assert_true(s->count < MAX_MEMBERS);
	s->boards[s->count++] = *b;
}

/* Every board with 2 or 3 pieces, each side at least one, men off their
 * crowning rows, either side to move, played under `rules`. */
static void enumerate(Solved *s, RefRules rules)
{
	const char kinds[4] = {'b', 'B', 'w', 'W'};
	for (int n = 2; n <= 3; n++)
		for (int a = 1; a <= 32; a++)
			for (int b = a + 1; b <= 32; b++)
				for (int c = (n == 3 ? b + 1 : 33); c <= (n == 3 ? 32 : 33); c++)
					for (int k = 0; k < (n == 3 ? 64 : 16); k++) {
						RefBoard board;
						memset(board.squares, '.', sizeof board.squares);
						board.rules = rules;
						int sq[3] = {a, b, c};
						bool ok = true;
						for (int i = 0; i < n; i++) {
							char kind = kinds[(k >> (2 * i)) & 3];
							if ((kind == 'b' && sq[i] >= 29) ||
							    (kind == 'w' && sq[i] <= 4))
								ok = false;
							board.squares[sq[i]] = kind;
						}
						if (!ok || !side_has_pieces(&board, 'B') ||
						    !side_has_pieces(&board, 'W'))
							continue;
						board.side = 'B';
						add_board(s, &board);
						board.side = 'W';
						add_board(s, &board);
					}
}

/*
 * Minimax by increasing depth with memoised results: at depth n a position
 * is won in n when a move reaches one lost in n - 1, lost in n when every
 * move reaches one already won; what no depth settles is a draw.
 */
static void solve_small(Solved *s, RefRules rules)
{
	s->value = malloc(KEY_SPACE);
	s->boards = malloc(MAX_MEMBERS * sizeof *s->boards);
	s->first = malloc((MAX_MEMBERS + 1) * sizeof *s->first);
	assert_non_null(s->value);
	assert_non_null(s->boards);
	assert_non_null(s->first);
	memset(s->value, UNKNOWN, KEY_SPACE);
	s->count = 0;
	enumerate(s, rules);
	size_t cap = 16 * (size_t)s->count, used = 0;
	s->succ = malloc(cap * sizeof *s->succ);
	RefMove *moves = malloc(REF_MAX_MOVES * sizeof *moves);
	assert_non_null(moves);
	for (int i = 0; i < s->count; i++) {
		s->first[i] = (int)used;
		int n = reference_generate(&s->boards[i], moves, REF_MAX_MOVES);
		for (int m = 0; m < n; m++) {
			RefBoard next;
			reference_make(&s->boards[i], &moves[m], &next);
			if (used == cap) {
				cap *= 2;
				s->succ = realloc(s->succ, cap * sizeof *s->succ);
				assert_non_null(s->succ);
			}
			s->succ[used++] = side_has_pieces(&next, next.side) ? (int32_t)board_key(&next) : -1;
		}
	}
	s->first[s->count] = (int)used;
	free(moves);
	s->key = malloc(sizeof *s->key * (size_t)s->count);
	assert_non_null(s->key);
	for (int i = 0; i < s->count; i++)
		s->key[i] = board_key(&s->boards[i]);

	/* Each depth looks only at the boards still open, by their keys. */
	uint32_t *open = malloc(sizeof *open * (size_t)s->count);
	uint32_t *now = malloc(sizeof *now * (size_t)s->count);
	assert_non_null(open);
	assert_non_null(now);
	int open_count = s->count;
	for (int i = 0; i < s->count; i++)
		open[i] = (uint32_t)i;
	int quiet_levels = 0;
	for (int depth = 0; quiet_levels < 2; depth++) {
		int settled = 0, kept = 0;
		for (int o = 0; o < open_count; o++) {
			int i = (int)open[o];
			bool win = false, all_won = true;
			for (int j = s->first[i]; j < s->first[i + 1]; j++) {
				uint8_t v = s->succ[j] < 0 ? 1 : s->value[s->succ[j]];
				if (v == UNKNOWN || v == 0) {
					all_won = false;
					continue;
				}
				int d = v - 1;
				if (d % 2 == 0) {
					all_won = false;
					win |= d == depth - 1;
				}
			}
			/* Odd depths settle wins, even depths losses. */
			if ((depth % 2 == 1 && win) || (depth % 2 == 0 && all_won))
				now[settled++] = s->key[i];
			else
				open[kept++] = (uint32_t)i;
		}
		for (int i = 0; i < settled; i++)
			s->value[now[i]] = (uint8_t)(depth + 1);
		open_count = kept;
		quiet_levels = settled ? 0 : quiet_levels + 1;
	}
	for (int o = 0; o < open_count; o++)
		s->value[s->key[open[o]]] = EGDB_VALUE_DRAW;
	free(open);
	free(now);
}

/* The files of rule set v in dir against the independent solver under the
 * reference's rules for it. */
static void agree_with_independent_solver(const char *dir, Variant variant, RefRules rules)
{
	Solved s;
	solve_small(&s, rules);
	Egdb *db = open_variant_db(dir, variant);
	int wins = 0, draws = 0, losses = 0, longest = 0;
	for (int i = 0; i < s.count; i++) {
		Position p;
		support_from_reference(&s.boards[i], &p);
		assert_int_equal(p.variant, variant);
		uint8_t v, want = s.value[s.key[i]];
		assert_true(egdb_probe(db, &p, &v));
		if (v != want) {
			char text[128];
			support_describe(&p, text, sizeof text);
			fail_msg("%s (%s): database %d, independent solver %d", text,
			         variant_rules(variant)->name, v, want);
		}
		EgdbResult r = egdb_value_result(v);
		wins += r == EGDB_WIN;
		draws += r == EGDB_DRAW;
		losses += r == EGDB_LOSS;
		if (egdb_value_distance(v) > longest)
			longest = egdb_value_distance(v);
	}
	print_message(
	    "%s: %d positions of 2-3 pieces agree: %d wins, %d draws, %d losses, longest %d plies\n",
	    variant_rules(variant)->name, s.count, wins, draws, losses, longest);
	egdb_close(db);
	free(s.value);
	free(s.key);
	free(s.boards);
	free(s.first);
	free(s.succ);
}

static void test_files_agree_with_independent_solver(void **state)
{
	(void)state;
	agree_with_independent_solver(paths.db, VARIANT_POOL, REF_POOL);
}

/* Russian and Brazilian files, built by the same generator from the
 * rules' fields, against the reference that plays each rule set on its
 * own (a man crowned during a capture goes on as a king; the majority). */
static void test_variant_files_agree_with_independent_solver(void **state)
{
	(void)state;
	agree_with_independent_solver(paths.variants, VARIANT_RUSSIAN, REF_RUSSIAN);
	agree_with_independent_solver(paths.variants, VARIANT_BRAZILIAN, REF_BRAZILIAN);
	/* And the rules do differ there: some value of each is not pool's. */
	Egdb *pool = open_db(paths.db);
	for (int v = VARIANT_RUSSIAN; v <= VARIANT_BRAZILIAN; v++) {
		Egdb *db = open_variant_db(paths.variants, (Variant)v);
		EgdbClass c = {{1, 3}, {0, 0}}; /* a man to move against three */
		int differ = 0;
		for (uint64_t i = 0; i < egdb_class_size(c); i++) {
			Position p, q;
			uint8_t a, b;
			if (!egdb_position(VARIANT_POOL, c, i, &p))
				continue;
			q = p;
			q.variant = (uint8_t)v;
			assert_true(egdb_probe(pool, &p, &a));
			assert_true(egdb_probe(db, &q, &b));
			assert_false(egdb_probe(db, &p, &a)); /* a pool position: not its rules */
			assert_true(egdb_probe(pool, &p, &a));
			differ += a != b;
		}
		if (differ == 0)
			fail_msg("%s: every m1k0-m3k0 value is pool's", variant_rules((Variant)v)->name);
		print_message("%s: %d values of m1k0-m3k0 differ from pool's\n",
		              variant_rules((Variant)v)->name, differ);
		egdb_close(db);
	}
	egdb_close(pool);
}

/* The rule sets whose men capture forward only, built by the same
 * generator from the rules' fields, against the reference that plays
 * each on its own (short kings in English and Italian, a man that may
 * not take a king and the FID's order of captures in Italian, the
 * majority then kings in Spanish, a king's capture first in Czech). */
static void test_family_files_agree_with_independent_solver(void **state)
{
	(void)state;
	static const struct {
		Variant variant;
		RefRules rules;
	} family[] = {{VARIANT_ENGLISH, REF_ENGLISH},
	              {VARIANT_ITALIAN, REF_ITALIAN},
	              {VARIANT_SPANISH, REF_SPANISH},
	              {VARIANT_CZECH, REF_CZECH}};
	Egdb *pool = open_db(paths.db);
	for (size_t f = 0; f < sizeof family / sizeof family[0]; f++) {
		Variant v = family[f].variant;
		agree_with_independent_solver(paths.variants, v, family[f].rules);
		/* Files of 3 pieces, and a value of each rule set that is not pool's. */
		Egdb *db = open_variant_db(paths.variants, v);
		assert_int_equal(egdb_max_pieces(db), 3);
		assert_int_equal(egdb_variant(db), v);
		EgdbClass c = {{1, 0}, {1, 1}}; /* a man and a king to move against a king */
		int differ = 0;
		for (uint64_t i = 0; i < egdb_class_size(c); i++) {
			Position p, q;
			uint8_t a, b;
			if (!egdb_position(VARIANT_POOL, c, i, &p))
				continue;
			q = p;
			q.variant = (uint8_t)v;
			assert_true(egdb_probe(pool, &p, &a));
			assert_true(egdb_probe(db, &q, &b));
			assert_false(egdb_probe(db, &p, &a)); /* a pool position: not its rules */
			differ += a != b;
		}
		if (differ == 0)
			fail_msg("%s: every m1k1-m0k1 value is pool's", variant_rules(v)->name);
		/* The engine's lookup reads the same files, in the game's own
		 * square numbers (Italian and Spanish mirrored). */
		char out[8192], command[2048], want[64];
		Position p;
		uint8_t value;
		assert_true(notation_parse_fen("W:WK1,K2:BK32", v, &p, NULL, 0));
		assert_true(egdb_probe(db, &p, &value));
		if (value == EGDB_VALUE_DRAW)
			snprintf(want, sizeof want, "position draw (White to move)");
		else
			snprintf(want, sizeof want, "position %s in %d plies (White to move)",
			         egdb_value_result(value) == EGDB_WIN ? "win" : "loss",
			         egdb_value_distance(value));
		snprintf(command, sizeof command,
		         "%s analyse --variant %s --egdb %s --fen 'W:WK1,K2:BK32' --lookup 2>&1",
		         paths.engine, variant_rules(v)->name, paths.variants);
		run_output(out, sizeof out, command);
		if (!strstr(out, want) || !strstr(out, "move "))
			fail_msg("%s: wanted \"%s\" in\n%s", variant_rules(v)->name, want, out);
		print_message("%s: %d values of m1k1-m0k1 differ from pool's\n", variant_rules(v)->name,
		              differ);
		egdb_close(db);
	}
	egdb_close(pool);
}

/* A set is of one rule set: another's files, a newer format and a
 * truncated file are refused by name, everywhere a directory is opened. */
static void test_files_of_other_rules_are_refused(void **state)
{
	(void)state;
	char err[1024], dir[400], mixed[700];
	/* Russian files asked for as pool's: the file and both rule sets named. */
	snprintf(dir, sizeof dir, "%s/russian", paths.variants);
	assert_null(egdb_open(dir, VARIANT_POOL, err, sizeof err));
	if (!strstr(err, ".egdb: a database of Russian draughts, not American pool checkers") ||
	    !strstr(err, dir))
		fail_msg("%s", err);
	/* Pool's directory has no Russian set beside or below it. */
	assert_null(egdb_open(paths.db, VARIANT_RUSSIAN, err, sizeof err));
	assert_non_null(strstr(err, "a database of American pool checkers, not Russian draughts"));
	/* The parent of russian/ and brazilian/ serves both, and not pool. */
	Egdb *db = open_variant_db(paths.variants, VARIANT_BRAZILIAN);
	assert_int_equal(egdb_max_pieces(db), 4);
	assert_int_equal(egdb_variant(db), VARIANT_BRAZILIAN);
	egdb_close(db);
	assert_null(egdb_open(paths.variants, VARIANT_POOL, err, sizeof err));
	snprintf(mixed, sizeof mixed, "no endgame database files (*.egdb) in '%s' or %s/pool", paths.variants,
	         paths.variants);
	if (!strstr(err, mixed))
		fail_msg("%s", err);
	/* A pool set with one Russian file among its own. */
	snprintf(mixed, sizeof mixed, "%s/mixed", paths.dir);
	assert_int_equal(support_shell(NULL, "mkdir -p %s && cp %s/*.egdb %s/ && cp %s/m0k2-m0k1.egdb %s/",
	                               mixed, paths.db, mixed, dir, mixed),
	                 0);
	assert_null(egdb_open(mixed, VARIANT_POOL, err, sizeof err));
	assert_non_null(strstr(err, "m0k2-m0k1.egdb: a database of Russian draughts"));
	/* A file of a newer format, and a truncated one. */
	char newer[400], cut[400];
	snprintf(newer, sizeof newer, "%s/newer", paths.dir);
	snprintf(cut, sizeof cut, "%s/cut", paths.dir);
	assert_int_equal(support_shell(NULL, "mkdir -p %s %s && cp %s/*.egdb %s/ && cp %s/*.egdb %s/", newer,
	                               cut, paths.db, newer, paths.db, cut),
	                 0);
	assert_int_equal(
	    support_shell(
	        NULL, "printf '\\002' | dd of=%s/m0k3-m0k1.egdb bs=1 seek=8 conv=notrunc 2>/dev/null", newer),
	    0);
	assert_null(egdb_open(newer, VARIANT_POOL, err, sizeof err));
	if (!strstr(err, "m0k3-m0k1.egdb: format version 2, newer than this program's 1"))
		fail_msg("%s", err);
	assert_int_equal(support_shell(NULL, "truncate -s -10 %s/m1k1-m0k2.egdb", cut), 0);
	assert_null(egdb_open(cut, VARIANT_POOL, err, sizeof err));
	if (!strstr(err, "m1k1-m0k2.egdb: file size does not match the header (truncated?)"))
		fail_msg("%s", err);
	/* The tool says the same, and names the rule sets it knows. */
	char out[4096], command[4096];
	snprintf(command, sizeof command, "%s verify --dir %s --pieces 2 2>&1; echo \"exit $?\"", paths.tool,
	         dir);
	run_output(out, sizeof out, command);
	if (!strstr(out, "a database of Russian draughts, not American pool checkers") ||
	    !strstr(out, "exit 1"))
		fail_msg("%s", out);
	snprintf(command, sizeof command, "%s build --variant xx 2>&1; echo \"exit $?\"", paths.tool);
	run_output(out, sizeof out, command);
	if (!strstr(out, "--variant: unknown variant `xx` (known: " VARIANT_NAMES ")") ||
	    !strstr(out, "exit 2"))
		fail_msg("%s", out);
	/* Italian files are no Spanish ones, though both are played on the
	 * mirrored board: the tool and the library name both. */
	snprintf(command, sizeof command,
	         "%s verify --variant spanish --dir %s/italian --pieces 3 2>&1; echo \"exit $?\"", paths.tool,
	         paths.variants);
	run_output(out, sizeof out, command);
	if (!strstr(out, ".egdb: a database of Italian draughts, not Spanish draughts") ||
	    !strstr(out, "exit 1"))
		fail_msg("%s", out);
	snprintf(mixed, sizeof mixed, "%s/english", paths.variants);
	assert_null(egdb_open(mixed, VARIANT_CZECH, err, sizeof err));
	assert_non_null(strstr(err, "a database of English checkers, not Czech draughts"));
	assert_null(egdb_open(mixed, VARIANT_POOL, err, sizeof err));
	assert_non_null(strstr(err, "a database of English checkers, not American pool checkers"));
	assert_null(egdb_open(paths.db, VARIANT_ENGLISH, err, sizeof err));
	assert_non_null(strstr(err, "a database of American pool checkers, not English checkers"));
	/* The engine refuses each and keeps what it had. */
	snprintf(command, sizeof command,
	         "printf 'set-param name=egdb-path value=%s\\nset-param name=egdb-path value=%s\\n"
	         "set-param name=egdb-path value=%s\\nset-param name=egdb-path value=%s\\n"
	         "pos fen=W:WK1,K2,K3:BK32\\nlevel depth=3\\ngo think\\n' | %s hub; sleep 1",
	         paths.db, dir, newer, cut, paths.engine);
	run_output(out, sizeof out, command);
	if (!strstr(out, "m0k1-m0k1.egdb: a database of Russian draughts") &&
	    !strstr(out, ".egdb: a database of Russian draughts"))
		fail_msg("%s", out);
	if (!strstr(out, "format version 2, newer") || !strstr(out, "(truncated?)") ||
	    !strstr(out, "egdb-hits="))
		fail_msg("%s", out);
}

/* ---- Known facts ---- */

/* The long diagonal a1-h8: squares 29, 25, 22, 18, 15, 11, 8, 4. */
static const Bitboard LONG_DIAGONAL =
    (1u << 28) | (1u << 24) | (1u << 21) | (1u << 17) | (1u << 14) | (1u << 10) | (1u << 7) | (1u << 3);

/* Every position of the class with the side to move first, values probed. */
typedef void (*Visit)(const Position *p, uint8_t v, void *user);

static void each_position(Egdb *db, EgdbClass c, Visit visit, void *user)
{
	uint64_t size = egdb_class_size(c);
	for (uint64_t i = 0; i < size; i++) {
		Position p;
		uint8_t v;
		if (!egdb_position(VARIANT_POOL, c, i, &p))
			continue;
		assert_true(egdb_probe(db, &p, &v));
		visit(&p, v, user);
	}
}

typedef struct ThreeKings {
	int longest_win;
	int held, held_draws; /* lone king on the long diagonal, no capture, strong kings off it */
	int off, off_wins;    /* lone king off the long diagonal */
} ThreeKings;

static void visit_three_kings(const Position *p, uint8_t v, void *user)
{
	ThreeKings *t = user;
	/* Normalised: Black (the side to move) has the three kings. */
	Bitboard lone = p->pieces[WHITE];
	if (egdb_value_result(v) == EGDB_WIN && egdb_value_distance(v) > t->longest_win)
		t->longest_win = egdb_value_distance(v);
	if (movegen_has_capture(p))
		return;
	if ((lone & LONG_DIAGONAL) && !(p->pieces[BLACK] & LONG_DIAGONAL)) {
		t->held++;
		t->held_draws += egdb_value_result(v) == EGDB_DRAW;
	} else if (!(lone & LONG_DIAGONAL)) {
		t->off++;
		t->off_wins += egdb_value_result(v) == EGDB_WIN;
	}
}

static void test_three_kings_against_one(void **state)
{
	(void)state;
	Egdb *db = open_db(paths.db);
	EgdbClass c = {{0, 0}, {3, 1}};
	ThreeKings t = {0};
	each_position(db, c, visit_three_kings, &t);
	print_message("3 kings v 1 (stronger side to move): longest win %d plies; lone king holding the long "
	              "diagonal: %d of %d drawn; off it: %d of %d won\n",
	              t.longest_win, t.held_draws, t.held, t.off_wins, t.off);
	/* Every win fits the thirteen-move count (13 moves: 25 plies). */
	assert_true(t.longest_win <= 25);
	/* Holding the diagonal draws but for short tactics, and off it the
	 * lone king loses but where it can win the diagonal back at once. */
	assert_true(t.held_draws * 100 >= t.held * 95);
	assert_true(t.off_wins * 100 >= t.off * 98);
	/* The textbook cases. */
	assert_int_equal(egdb_value_result(probe(db, "W:WK1,K2,K3:BK29")), EGDB_DRAW);
	assert_int_equal(egdb_value_result(probe(db, "W:WK1,K2,K3:BK32")), EGDB_WIN);
	egdb_close(db);
}

typedef struct TwoKings {
	int positions, draws, longest_win;
} TwoKings;

static void visit_two_kings(const Position *p, uint8_t v, void *user)
{
	(void)p;
	TwoKings *t = user;
	t->positions++;
	t->draws += egdb_value_result(v) == EGDB_DRAW;
	if (egdb_value_result(v) == EGDB_WIN && egdb_value_distance(v) > t->longest_win)
		t->longest_win = egdb_value_distance(v);
}

static void test_two_kings_against_one(void **state)
{
	(void)state;
	Egdb *db = open_db(paths.db);
	EgdbClass c = {{0, 0}, {2, 1}};
	TwoKings t = {0};
	each_position(db, c, visit_two_kings, &t);
	print_message("2 kings v 1 (stronger side to move): %d of %d drawn, longest win %d plies\n", t.draws,
	              t.positions, t.longest_win);
	/* A draw but for short tactics: most positions, and no long win. */
	assert_true(t.draws * 2 > t.positions);
	assert_true(t.longest_win <= 7);
	egdb_close(db);
}

static void test_longest_wins(void **state)
{
	(void)state;
	SupportRun r;
	support_run(&r, "%s info --dir %s --pieces 4", paths.tool, paths.db);
	/* Regression figures of the first build, cross-checked by verify. */
	assert_non_null(strstr(r.text, "41 files, 0 missing, 6408836 positions"));
	assert_non_null(strstr(r.text, "longest win 85 plies"));
}

/* ---- The tool ---- */

static void test_verify_passes(void **state)
{
	(void)state;
	SupportRun r;
	support_run(&r, "%s verify --dir %s --pieces 4 --threads 2", paths.tool, paths.db);
	assert_non_null(strstr(r.text, "verified 6408836 positions in 23 pairs: 0 mismatches"));
	/* Russian's and Brazilian's, each against its own rules. */
	for (int v = VARIANT_RUSSIAN; v <= VARIANT_BRAZILIAN; v++) {
		const char *name = variant_rules((Variant)v)->name;
		support_run(&r, "%s verify --variant %s --dir %s/%s --pieces 4 --threads 2", paths.tool, name,
		            paths.variants, name);
		if (!strstr(r.text, "verified 6408836 positions in 23 pairs: 0 mismatches"))
			fail_msg("%s: %s", name, r.text);
	}
}

static bool same_files(const char *a, const char *b)
{
	return support_shell(NULL, "diff -r %s %s >/dev/null", a, b) == 0;
}

static void test_builds_are_deterministic_and_resume(void **state)
{
	(void)state;
	/* One thread against the suite's two, in both steps of every pair of up
	 * to three pieces: the same files. */
	assert_int_equal(
	    support_shell(NULL, "%s build --dir %s --pieces 3 --threads 1 --quiet", paths.tool, paths.other),
	    0);
	assert_int_equal(
	    support_shell(NULL,
	                  "n=0; for f in %s/*.egdb; do cmp -s $f %s/${f##*/} || exit 1; n=$((n + 1)); "
	                  "done; test $n -eq 16",
	                  paths.other, paths.db),
	    0);
	/* A four-piece build interrupted (three files gone, one left
	 * half-written as a temporary) and resumed by one thread: the files of
	 * the uninterrupted two-thread build. */
	assert_int_equal(support_shell(NULL, "cp %s/*.egdb %s/", paths.db, paths.other), 0);
	assert_int_equal(support_shell(NULL, "rm %s/m0k2-m0k1.egdb %s/m1k1-m1k0.egdb %s/m0k3-m0k1.egdb",
	                               paths.other, paths.other, paths.other),
	                 0);
	assert_int_equal(support_shell(NULL, "head -c 100 %s/m0k1-m0k2.egdb > %s/m0k2-m0k1.egdb.tmp.1",
	                               paths.db, paths.other),
	                 0);
	assert_int_equal(
	    support_shell(NULL, "%s build --dir %s --pieces 4 --threads 1 --quiet", paths.tool, paths.other),
	    0);
	assert_int_equal(support_shell(NULL, "rm %s/*.tmp.*", paths.other), 0);
	assert_true(same_files(paths.db, paths.other));
}

static void test_corrupt_file_is_refused(void **state)
{
	(void)state;
	char copy[400];
	snprintf(copy, sizeof copy, "%s/corrupt", paths.dir);
	assert_int_equal(support_shell(NULL, "mkdir -p %s && cp %s/*.egdb %s/", copy, paths.db, copy), 0);
	/* One byte of the payload changed: the checksum catches it. */
	assert_int_equal(
	    support_shell(NULL, "printf 'Z' | dd of=%s/m0k3-m0k1.egdb bs=1 seek=600 conv=notrunc 2>/dev/null",
	                  copy),
	    0);
	assert_int_not_equal(
	    support_shell(NULL, "%s verify --dir %s --pieces 4 --only m0k3-m0k1 2>/dev/null >/dev/null",
	                  paths.tool, copy),
	    0);
	char err[256];
	Egdb *db = egdb_open(copy, VARIANT_POOL, err, sizeof err);
	assert_non_null(db);
	uint8_t v;
	Position p = support_position("B:WK1:BK5,K6,K7");
	assert_false(egdb_probe(db, &p, &v)); /* its class is treated as absent */
	egdb_close(db);

	assert_int_equal(support_shell(NULL, "%s build --dir %s --pieces 9 2>/dev/null", paths.tool, copy),
	                 2);
	assert_int_equal(
	    support_shell(NULL, "%s verify --dir %s/none 2>/dev/null >/dev/null", paths.tool, paths.dir), 1);
}

/* ---- Probing from the engine ---- */

static void test_engine_plays_database_win(void **state)
{
	(void)state;
	SupportRun r;
	support_run(&r, "%s analyse --egdb %s --fen 'W:WK1,K2,K3:BK32' --depth 4", paths.engine, paths.db);
	assert_non_null(strstr(r.text, "(database win in 19 plies)"));
	assert_non_null(strstr(r.text, "egdb-hits"));
	/* Without the databases the same search shows none of it. */
	support_run(&r, "%s analyse --egdb none --fen 'W:WK1,K2,K3:BK32' --depth 4", paths.engine);
	assert_null(strstr(r.text, "database"));
	assert_null(strstr(r.text, "egdb-hits"));
	/* The terminal game says so too. */
	support_run(&r, "printf 'quit\\n' | %s play --egdb %s --fen 'W:WK1,K2,K3:BK32' --level 0.1",
	            paths.engine, paths.db);
	assert_non_null(strstr(r.text, "database win in 19 plies"));
	/* The Hub option, and a refused directory. */
	support_run(
	    &r,
	    "printf 'set egdb-path %s\\nset egdb-path %s/none\\npos fen=W:WK1,K2,K3:BK29\\nlevel depth=3\\n"
	    "go think\\n' | %s hub; sleep 1",
	    paths.db, paths.dir, paths.engine);
	assert_non_null(strstr(r.text, "set name=egdb-path value="));
	assert_non_null(strstr(r.text, "cannot read database directory"));
	assert_non_null(strstr(r.text, "egdb-hits="));
	assert_non_null(strstr(r.text, "score=0.00"));
}

/* A directory without databases is an error naming it, everywhere: exit 2
 * from analyse, play and hub (it used to run on without databases), and a
 * refusal that keeps the old directory in the terminal game, as the Hub
 * option refuses it. */
static void test_missing_directory_is_an_error(void **state)
{
	(void)state;
	SupportRun r;
	const char *runs[] = {"%s analyse --egdb %s/none --depth 2",
	                      "printf 'quit\\n' | %s play --egdb %s/none",
	                      "printf 'quit\\n' | %s hub --egdb %s/none"};
	for (int i = 0; i < 3; i++) {
		char line[512];
		snprintf(line, sizeof line, runs[i], paths.engine, paths.dir);
		support_run(&r, "%s >/dev/null 2>%s/err.txt; echo \"exit $?\"; cat %s/err.txt", line,
		            paths.dir, paths.dir);
		char expected[600];
		snprintf(expected, sizeof expected,
		         "exit 2\npoolshark %s: --egdb %s/none: cannot read database directory",
		         i == 0   ? "analyse"
		         : i == 1 ? "play"
		                  : "hub",
		         paths.dir);
		if (!strstr(r.text, expected))
			fail_msg("%s:\n%s", line, r.text);
	}
	/* An empty directory: no files there. */
	assert_int_equal(support_shell(NULL, "mkdir -p %s/empty", paths.dir), 0);
	support_run(&r, "%s analyse --egdb %s/empty --depth 2 2>&1; echo \"exit $?\"", paths.engine,
	            paths.dir);
	assert_non_null(strstr(r.text, "no endgame database files (*.egdb) in"));
	assert_non_null(strstr(r.text, "exit 2"));
	/* The terminal game's command refuses it and keeps what it had. */
	support_run(&r, "printf 'egdb-path %s/none\\nquit\\n' | %s play --egdb %s --level 0.02", paths.dir,
	            paths.engine, paths.db);
	assert_non_null(strstr(r.text, "cannot read database directory"));
	char now[600];
	snprintf(now, sizeof now, "now %s.", paths.db);
	assert_non_null(strstr(r.text, now));
}

/* info counts the set it finds: the 4-piece set is complete (it used to be
 * measured against 5 pieces: "41 files, 44 missing", exit 1). */
static void test_info_reads_the_piece_count_from_the_files(void **state)
{
	(void)state;
	SupportRun r;
	support_run(&r, "%s info --dir %s | tail -n 1; echo \"exit $?\"", paths.tool, paths.db);
	if (!strstr(r.text, "41 files, 0 missing") || !strstr(r.text, "exit 0"))
		fail_msg("%s", r.text);
	assert_int_equal(support_shell(NULL, "%s info --dir %s >/dev/null", paths.tool, paths.db), 0);
	/* Asked for 5 pieces, the same set is 44 files short. */
	support_run(&r, "%s info --dir %s --pieces 5 | tail -n 1", paths.tool, paths.db);
	assert_non_null(strstr(r.text, "41 files, 44 missing"));
	assert_int_equal(
	    support_shell(NULL, "%s info --dir %s/none 2>/dev/null >/dev/null", paths.tool, paths.dir), 1);
}

/* ---- The search with the databases ---- */

/* Searches fen to depth with the databases in db and the given counters. */
static void search_with(Egdb *db, const char *fen, int reversible, int thirteen, int depth, SearchResult *r)
{
	Search *s = search_create();
	TT tt;
	assert_non_null(s);
	assert_true(tt_init(&tt, 4));
	search_set_egdb(s, db);
	SearchRoot root;
	search_root_from_position(&(Position){0}, &root);
	root.position = support_position(fen);
	game_counters_start(&root.position, &root.counters);
	root.counters.reversible_plies = reversible;
	if (thirteen >= 0)
		root.counters.thirteen = thirteen;
	SearchLimits limits = {0};
	limits.depth = depth;
	search_run(s, &tt, &root, &limits, NULL, r);
	tt_free(&tt);
	search_destroy(s);
}

static void test_search_plays_by_distance_within_the_rules(void **state)
{
	(void)state;
	Egdb *db = open_db(paths.db);
	SearchResult r;
	/* A fresh 3 v 1 count: the fastest win (19 plies) is sure. */
	search_with(db, "W:WK1,K2,K3:BK32", 0, -1, 6, &r);
	assert_true(r.egdb_root);
	assert_int_equal(r.score, SCORE_WIN - 19);
	Position p = support_position("W:WK1,K2,K3:BK32"), next;
	uint8_t v;
	position_make(&p, r.best, &next);
	assert_true(egdb_probe(db, &next, &v));
	assert_int_equal(v, 18 + 1); /* the reply loses in 18 */
	/* Ten moves of the count gone: 10 more would pass 13, so the same move
	 * is only a likely win; so with 40 plies of the 25-move count gone. */
	search_with(db, "W:WK1,K2,K3:BK32", 0, 10, 6, &r);
	assert_true(r.egdb_root);
	assert_false(score_is_decisive(r.score));
	assert_int_equal(r.score, SCORE_EGDB_LIKELY_WIN - 19);
	search_with(db, "W:WK1,K2,K3:BK32", 40, -1, 6, &r);
	assert_false(score_is_decisive(r.score));
	/* The lone king to move plays the longest defence. */
	search_with(db, "B:WK1,K2,K3:BK12", 0, -1, 6, &r);
	assert_true(r.egdb_root);
	assert_true(r.score < 0 && score_is_decisive(r.score));
	p = support_position("B:WK1,K2,K3:BK12");
	uint8_t root_value;
	assert_true(egdb_probe(db, &p, &root_value));
	assert_int_equal(-r.score - SCORE_WIN, -(egdb_value_distance(root_value)));
	egdb_close(db);
}

/* The databases are pool's: a Russian or Brazilian search never probes
 * them (a position of other rules than the databases' is not in them). */
static void test_other_variants_do_not_probe(void **state)
{
	(void)state;
	Egdb *db = open_db(paths.db);
	for (int v = VARIANT_RUSSIAN; v <= VARIANT_BRAZILIAN; v++) {
		Search *s = search_create();
		TT tt;
		assert_non_null(s);
		assert_true(tt_init(&tt, 4));
		search_set_egdb(s, db);
		SearchRoot root;
		Position p = support_position("W:WK1,K2,K3:BK32");
		p.variant = (uint8_t)v;
		search_root_from_position(&p, &root);
		SearchLimits limits = {0};
		limits.depth = 4;
		SearchResult r;
		search_run(s, &tt, &root, &limits, NULL, &r);
		assert_false(r.egdb_root);
		assert_int_equal(r.egdb_hits, 0);
		tt_free(&tt);
		search_destroy(s);
	}
	egdb_close(db);
}

/* Searches *root_position to depth with the databases in db and counters *c. */
static void search_counters(Egdb *db, const Position *root_position, const DrawCounters *c, int depth,
                            SearchResult *r)
{
	Search *s = search_create();
	TT tt;
	assert_non_null(s);
	assert_true(tt_init(&tt, 4));
	search_set_egdb(s, db);
	SearchRoot root;
	search_root_from_position(root_position, &root);
	root.counters = *c;
	SearchLimits limits = {0};
	limits.depth = depth;
	search_run(s, &tt, &root, &limits, NULL, r);
	tt_free(&tt);
	search_destroy(s);
}

/* Russian databases in a Russian search: a win is sure only when the
 * counts of Russian rules leave room for it (7.2.4: the stronger side's
 * 15th move against a lone king; 7.2.5: 30 plies of kings only), and the
 * engine says "database win in N plies" only then. */
static void test_russian_search_plays_by_distance_within_its_counts(void **state)
{
	(void)state;
	Egdb *db = open_variant_db(paths.variants, VARIANT_RUSSIAN);
	Position p = variant_position("W:WK1,K2,K3:BK32", VARIANT_RUSSIAN);
	uint8_t v;
	assert_true(egdb_probe(db, &p, &v));
	assert_int_equal(v, 19 + 1);
	DrawCounters fresh, c;
	game_counters_start(&p, &fresh);
	assert_int_equal(fresh.endgame, 0);
	SearchResult r;
	search_counters(db, &p, &fresh, 6, &r);
	assert_true(r.egdb_root);
	assert_int_equal(r.score, SCORE_WIN - 19);
	/* 19 plies are 10 moves of the kings: after 5 moves of the count the
	 * 15th is the winning one; after 6 the count ends the game first. */
	c = fresh;
	c.endgame = 5;
	search_counters(db, &p, &c, 6, &r);
	assert_int_equal(r.score, SCORE_WIN - 19);
	c.endgame = 6;
	search_counters(db, &p, &c, 6, &r);
	assert_true(r.egdb_root);
	assert_int_equal(r.score, SCORE_EGDB_LIKELY_WIN - 19);
	/* Kings only: 30 plies; the 19th ply from 11 played wins, from 12 not. */
	c = fresh;
	c.reversible_plies = 11;
	search_counters(db, &p, &c, 6, &r);
	assert_int_equal(r.score, SCORE_WIN - 19);
	c.reversible_plies = 12;
	search_counters(db, &p, &c, 6, &r);
	assert_int_equal(r.score, SCORE_EGDB_LIKELY_WIN - 19);
	egdb_close(db);

	char out[8192], command[2048];
	snprintf(command, sizeof command,
	         "%s analyse --variant russian --egdb %s --fen 'W:WK1,K2,K3:BK32' --depth 4", paths.engine,
	         paths.variants);
	run_output(out, sizeof out, command);
	if (!strstr(out, "(database win in 19 plies)") || !strstr(out, "egdb-hits"))
		fail_msg("%s", out);
	/* Pool's databases are no Russian ones: refused by name. */
	snprintf(command, sizeof command,
	         "%s analyse --variant russian --egdb %s --fen 'W:WK1,K2,K3:BK32' --depth 4 2>&1; echo "
	         "\"exit $?\"",
	         paths.engine, paths.db);
	run_output(out, sizeof out, command);
	if (!strstr(out, "a database of American pool checkers, not Russian draughts") ||
	    !strstr(out, "exit 2"))
		fail_msg("%s", out);
}

/* English databases in an English search: the win is sure only while
 * the 40-move rule (80 plies with no man moved and nothing taken) leaves
 * room for it, and the programs find the set under DIR/english. */
static void test_english_search_plays_by_distance_within_the_40_move_rule(void **state)
{
	(void)state;
	Egdb *db = open_variant_db(paths.variants, VARIANT_ENGLISH);
	Position p = variant_position("W:WK1,K2:BK32", VARIANT_ENGLISH);
	uint8_t v;
	assert_true(egdb_probe(db, &p, &v));
	assert_int_equal(v, 33 + 1); /* two short kings against one: a win */
	DrawCounters fresh, c;
	game_counters_start(&p, &fresh);
	SearchResult r;
	search_counters(db, &p, &fresh, 6, &r);
	assert_true(r.egdb_root);
	assert_int_equal(r.score, SCORE_WIN - 33);
	/* The winning 33rd ply comes 32 plies on: after 47 plies of the count
	 * the game ends before the 80th, after 48 the count ends it first. */
	c = fresh;
	c.reversible_plies = 47;
	search_counters(db, &p, &c, 6, &r);
	assert_int_equal(r.score, SCORE_WIN - 33);
	c.reversible_plies = 48;
	search_counters(db, &p, &c, 6, &r);
	assert_true(r.egdb_root);
	assert_int_equal(r.score, SCORE_EGDB_LIKELY_WIN - 33);
	egdb_close(db);

	char out[8192], command[2048];
	snprintf(command, sizeof command,
	         "%s analyse --variant english --egdb %s --fen 'W:WK1,K2:BK32' --depth 4", paths.engine,
	         paths.variants);
	run_output(out, sizeof out, command);
	if (!strstr(out, "(database win in 33 plies)") || !strstr(out, "egdb-hits"))
		fail_msg("%s", out);
}

/* At the root a win the counts leave room for comes before a faster one
 * they may stop: in Russian two kings and a man against a king, with the
 * balance count (7.2.6: 30 moves since a capture or a crowning) nearly
 * run out, a winning crowning (which starts the counts afresh) is played
 * rather than a faster win that keeps the man. The position is found in
 * the databases: the first whose fastest win is not a crowning while a
 * crowning wins too. */
static void test_root_prefers_a_win_within_the_counts(void **state)
{
	(void)state;
	Egdb *db = open_variant_db(paths.variants, VARIANT_RUSSIAN);
	EgdbClass c = {{1, 0}, {2, 1}}; /* Black to move: a man and two kings against a king */
	bool found = false;
	for (uint64_t i = 0; i < egdb_class_size(c) && !found; i++) {
		Position p;
		uint8_t v;
		if (!egdb_position(VARIANT_RUSSIAN, c, i, &p) || movegen_has_capture(&p) ||
		    !egdb_probe(db, &p, &v) || egdb_value_result(v) != EGDB_WIN)
			continue;
		MoveList list;
		int n = movegen_generate(&p, &list), fastest = 0, crowning = 0;
		Move crown = move_none();
		for (int k = 0; k < n; k++) {
			Position next;
			uint8_t nv;
			position_make(&p, list.moves[k], &next);
			assert_true(egdb_probe(db, &next, &nv));
			if (egdb_value_result(nv) != EGDB_LOSS)
				continue;
			int plies = egdb_value_distance(nv) + 1;
			bool crowns = !(p.kings & bb_square(list.moves[k].from)) &&
			              (next.kings & bb_square(list.moves[k].to));
			if (crowns && (crowning == 0 || plies < crowning)) {
				crowning = plies;
				crown = list.moves[k];
			} else if (!crowns && (fastest == 0 || plies < fastest))
				fastest = plies;
		}
		/* The crowning must be slower, and its win after it short
		 * enough for the fresh count of three kings against one. */
		if (!crowning || !fastest || fastest >= crowning || crowning - 1 > 25)
			continue;
		found = true;
		DrawCounters counters;
		game_counters_start(&p, &counters);
		assert_int_equal(counters.endgame, -1); /* no count against the lone king */
		counters.balance_plies = 61 - fastest;  /* the fastest win would end on the count */
		assert_false(game_win_fits(&p, &counters, fastest));
		SearchResult r;
		search_counters(db, &p, &counters, 4, &r);
		assert_true(r.egdb_root);
		if (!move_equal(r.best, crown)) {
			char text[128];
			support_describe(&p, text, sizeof text);
			fail_msg("%s: the crowning (a win in %d) was not played before the win in %d", text,
			         crowning, fastest);
		}
		/* With the count fresh the fastest win is played, as before. */
		game_counters_start(&p, &counters);
		search_counters(db, &p, &counters, 4, &r);
		assert_false(move_equal(r.best, crown));
	}
	assert_true(found);
	egdb_close(db);
}

/* Every move of fen that keeps the database's draw; the search must pick one. */
static void test_search_keeps_a_drawn_position_drawn(void **state)
{
	(void)state;
	Egdb *db = open_db(paths.db);
	/* Drawn, but two of the moves lose (found with pool-egdb probe). */
	const char *fen = "W:W21,K1:BK27,K28";
	Position p = support_position(fen);
	uint8_t v;
	assert_true(egdb_probe(db, &p, &v));
	assert_int_equal(egdb_value_result(v), EGDB_DRAW);
	MoveList list;
	int n = movegen_generate(&p, &list), losing = 0;
	for (int i = 0; i < n; i++) {
		Position next;
		position_make(&p, list.moves[i], &next);
		assert_true(egdb_probe(db, &next, &v));
		losing += egdb_value_result(v) == EGDB_WIN;
	}
	assert_true(losing > 0);
	for (int depth = 1; depth <= 8; depth++) {
		SearchResult r;
		search_with(db, fen, 0, -1, depth, &r);
		Position next;
		position_make(&p, r.best, &next);
		assert_true(egdb_probe(db, &next, &v));
		assert_int_equal(egdb_value_result(v), EGDB_DRAW);
		assert_int_equal(r.score, SCORE_DRAW);
	}
	egdb_close(db);
}

/* ---- Looking positions up ---- */

/* `analyse --lookup` and the Hub's `lookup` give the databases' verdict on
 * the position and on each move, best first: each move's verdict is its
 * resulting position's value seen from the mover, one ply further. */
static void test_lookup_names_every_move(void **state)
{
	(void)state;
	const char *fen = "W:WK18,K22,K26:BK1";
	SupportRun r;
	support_run(&r, "%s analyse --egdb %s --fen '%s' --lookup", paths.engine, paths.db, fen);
	const char *out = r.text;
	Egdb *db = open_db(paths.db);
	Position p = support_position(fen);
	uint8_t v = probe(db, fen);
	assert_int_equal(egdb_value_result(v), EGDB_WIN);
	char expected[128];
	snprintf(expected, sizeof expected, "position win in %d plies (White to move)\n",
	         egdb_value_distance(v));
	if (strncmp(out, expected, strlen(expected)))
		fail_msg("analyse --lookup printed:\n%s", out);
	MoveList list;
	int n = movegen_generate(&p, &list), lines = 0, last_rank = 1000;
	for (const char *line = strstr(out, "\nmove "); line; line = strstr(line + 1, "\nmove ")) {
		char move[32], result[16];
		int plies = 0;
		assert_true(sscanf(line, "\nmove %31s %15s in %d", move, result, &plies) >= 2);
		Move m;
		char why[128];
		assert_int_equal(notation_parse_move(&p, move, &m, why, sizeof why), MOVE_PARSE_OK);
		Position next;
		position_make(&p, m, &next);
		uint8_t nv;
		assert_true(egdb_probe(db, &next, &nv));
		const char *theirs = egdb_value_result(nv) == EGDB_WIN    ? "loss"
		                     : egdb_value_result(nv) == EGDB_LOSS ? "win"
		                                                          : "draw";
		if (strcmp(result, theirs) ||
		    (strcmp(result, "draw") && plies != egdb_value_distance(nv) + 1))
			fail_msg("%s: %s in %d, the databases say %s after it", move, result, plies, theirs);
		int rank = !strcmp(result, "win")    ? 1000 - plies
		           : !strcmp(result, "loss") ? -1000 + plies
		                                     : 0;
		assert_true(rank <= last_rank);
		last_rank = rank;
		lines++;
	}
	assert_int_equal(lines, n);
	egdb_close(db);

	/* The Hub says the same; a position outside the databases is named. */
	support_run(
	    &r,
	    "printf 'set-param name=egdb-path value=%s\\npos fen=%s\\nlookup\\npos start\\nlookup\\n' | %s",
	    paths.db, fen, paths.engine);
	snprintf(expected, sizeof expected, "lookup result=win plies=%d count=%d", egdb_value_distance(v), n);
	if (!strstr(out, expected))
		fail_msg("no '%s' in:\n%s", expected, out);
	assert_non_null(strstr(out, "error message=\"lookup: the position is not in the endgame databases"));
}

/* ---- The plan of three kings against one, fitted to the distances ---- */

/* `pool-egdb fit-plan` on the four-piece databases writes exactly the
 * committed src/eval/kings_plan_weights.c: the compiled-in weights are the
 * documented command's output (make test runs in the source tree). */
static void test_kings_plan_weights_are_the_fit(void **state)
{
	(void)state;
	char out[512];
	snprintf(out, sizeof out, "%s/plan.c", paths.dir);
	assert_int_equal(
	    support_shell(NULL, "%s fit-plan --dir %s > %s 2>/dev/null", paths.tool, paths.db, out), 0);
	if (support_shell(NULL, "cmp -s %s src/eval/kings_plan_weights.c", out) != 0)
		fail_msg("pool-egdb fit-plan --dir %s differs from src/eval/kings_plan_weights.c", paths.db);
	/* Russian's and Brazilian's databases give the same fit: the weights
	 * serve all three rule sets (only the first comment, the command,
	 * differs). */
	for (int v = VARIANT_RUSSIAN; v <= VARIANT_BRAZILIAN; v++) {
		const char *name = variant_rules((Variant)v)->name;
		assert_int_equal(support_shell(NULL, "%s fit-plan --variant %s --dir %s/%s > %s 2>/dev/null",
		                               paths.tool, name, paths.variants, name, out),
		                 0);
		if (support_shell(NULL, "grep -q 'fit-plan --variant %s`' %s", name, out) != 0 ||
		    support_shell(
		        NULL,
		        "tail -n +3 %s > %s.body && tail -n +3 src/eval/kings_plan_weights.c | cmp -s - "
		        "%s.body",
		        out, out, out) != 0)
			fail_msg(
			    "pool-egdb fit-plan --variant %s: not src/eval/kings_plan_weights.c's weights",
			    name);
	}
	assert_int_not_equal(
	    support_shell(NULL, "%s fit-plan --dir %s/missing > /dev/null 2>&1", paths.tool, paths.dir), 0);
	assert_int_equal(support_shell(NULL, "%s fit-plan W:WK1,K2,K3:BK32 > /dev/null 2>&1", paths.tool), 2);
}

/* The plan predicts the databases' distances: over random won positions of
 * three kings against one (the lone king off the long diagonal, nothing
 * to capture, the stronger side to move), the bonus falls as the distance
 * to the win grows, a correlation of -0.75 or stronger (-0.83 as written;
 * the hand-made plan it replaced scored -0.25 with the rest of the
 * kings-ending value over all such positions). */
static void test_kings_plan_follows_the_distance(void **state)
{
	(void)state;
	Egdb *db = open_db(paths.db);
	Rng r = {96};
	double n = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
	while (n < 3000) {
		Bitboard strong, lone;
		support_random_three_kings_against_one(&r, &strong, &lone);
		Position p, them;
		position_set(&p, lone, strong, strong | lone, WHITE);
		them = p;
		them.side = BLACK;
		KingsPlanFeatures f;
		uint8_t v;
		if (!kings_plan_features(&p, WHITE, &f) || movegen_has_capture(&p) ||
		    movegen_has_capture(&them))
			continue;
		assert_true(egdb_probe(db, &p, &v));
		if (egdb_value_result(v) != EGDB_WIN)
			continue;
		double x = kings_plan_bonus(&p, WHITE, &kings_plan_weights), y = egdb_value_distance(v);
		n++;
		sx += x;
		sy += y;
		sxx += x * x;
		syy += y * y;
		sxy += x * y;
	}
	egdb_close(db);
	double correlation = (n * sxy - sx * sy) / sqrt((n * sxx - sx * sx) * (n * syy - sy * sy));
	if (correlation > -0.75)
		fail_msg("the plan's correlation with the distance to the win is %.3f", correlation);
}

/* The plan of two kings and a man against one: the committed weights are
 * the fit of the Russian databases, the Brazilian ones give the same; and
 * over random won positions (White the stronger side, to move, the lone
 * king off the long diagonal, nothing to capture) the bonus falls as the
 * distance grows. */
static void test_kings_man_plan_is_the_fit_and_follows_the_distance(void **state)
{
	(void)state;
	char out[512];
	snprintf(out, sizeof out, "%s/man-plan.c", paths.dir);
	assert_int_equal(
	    support_shell(
	        NULL, "%s fit-plan --variant russian --material m1k2-m0k1 --dir %s/russian > %s 2>/dev/null",
	        paths.tool, paths.variants, out),
	    0);
	if (support_shell(NULL, "cmp -s %s src/eval/kings_man_plan_weights.c", out) != 0)
		fail_msg("pool-egdb fit-plan --variant russian --material m1k2-m0k1 differs from "
		         "src/eval/kings_man_plan_weights.c");
	assert_int_equal(
	    support_shell(NULL,
	                  "%s fit-plan --variant brazilian --material m1k2-m0k1 --dir %s/brazilian "
	                  "2>/dev/null | tail -n +3 > "
	                  "%s.b && tail -n +3 %s | cmp -s - %s.b",
	                  paths.tool, paths.variants, out, out, out),
	    0);
	assert_int_equal(support_shell(NULL, "%s fit-plan --material m2k2-m0k1 > /dev/null 2>&1", paths.tool),
	                 2);

	Egdb *db = open_variant_db(paths.variants, VARIANT_RUSSIAN);
	Rng r = {54};
	double n = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
	while (n < 3000) {
		Bitboard kings = 0, man = 0, lone = 0;
		while (bb_count(kings) < 2)
			kings |= bb_square(rng_below(&r, 32));
		while (!man) {
			Bitboard sq = bb_square(rng_below(&r, 32));
			man = (sq & (kings | BB_TOP_ROW)) ? 0 : sq; /* White's men crown on the top row */
		}
		while (!lone) {
			Bitboard sq = bb_square(rng_below(&r, 32));
			lone = (sq & (kings | man)) ? 0 : sq;
		}
		Position p, them;
		position_set(&p, lone, kings | man, kings | lone, WHITE);
		p.variant = VARIANT_RUSSIAN;
		them = p;
		them.side = BLACK;
		KingsManPlanFeatures f;
		uint8_t v;
		if (!kings_man_plan_features(&p, WHITE, &f) || movegen_has_capture(&p) ||
		    movegen_has_capture(&them))
			continue;
		assert_true(egdb_probe(db, &p, &v));
		if (egdb_value_result(v) != EGDB_WIN)
			continue;
		double x = kings_man_plan_bonus(&p, WHITE, &kings_man_plan_weights),
		       y = egdb_value_distance(v);
		n++;
		sx += x;
		sy += y;
		sxx += x * x;
		syy += y * y;
		sxy += x * y;
	}
	egdb_close(db);
	double correlation = (n * sxy - sx * sy) / sqrt((n * sxx - sx * sx) * (n * syy - sy * sy));
	print_message("two kings and a man against one: the plan's correlation with the distance %.3f\n",
	              correlation);
	if (correlation > -0.7)
		fail_msg("the plan's correlation with the distance to the win is %.3f", correlation);
}

/* ---- pool-egdb review: the won endings reached in a PDN file ---- */

/* Three kings against one is won (White to move) and against the king on
 * the long diagonal drawn: a won ending drawn and one won are tallied for
 * the player with White, the drawn position for nobody; a Russian game, a
 * missing file and an illegal move are named and skipped, and they make
 * the exit status 1. */
static void test_review_tallies_the_won_endings(void **state)
{
	(void)state;
	static const char games[] =
	    "[White \"alpha\"]\n[Black \"beta\"]\n[Result \"1/2-1/2\"]\n[FEN "
	    "\"W:WK1,K2,K3:BK32\"]\n\n1/2-1/2\n\n"
	    "[White \"alpha\"]\n[Black \"beta\"]\n[Result \"1-0\"]\n[FEN \"W:WK1,K2,K3:BK29\"]\n\n1-0\n\n"
	    "[White \"alpha\"]\n[Black \"beta\"]\n[Result \"1-0\"]\n[FEN \"W:WK1,K2,K3:BK32\"]\n\n1. 1-5 "
	    "1-0\n\n";
	static const char russian[] = "[GameType \"25\"]\n[Result \"1-0\"]\n\n1-0\n";
	support_write_text(paths.dir, "review.pdn", games);
	support_write_text(paths.dir, "russian.pdn", russian);
	support_write_text(paths.dir, "bad.pdn", "[Result \"1-0\"]\n\n1. 99-98 1-0\n");
	SupportRun r;
	support_run(&r, "%s review --dir %s %s/review.pdn", paths.tool, paths.db, paths.dir);
	assert_int_equal(r.status, 0);
	if (!strstr(r.text, "alpha: 2 won endings reached, 1 won, 1 drawn, 0 lost") ||
	    !strstr(r.text, "3 games reviewed") || strstr(r.text, "beta:") ||
	    !strstr(r.text, "game 1: alpha (White) won by the databases from ply 0 (4 pieces, win in "))
		fail_msg("pool-egdb review:\n%s", r.text);
	support_run(&r, "%s review --dir %s %s/review.pdn %s/russian.pdn %s/missing.pdn %s/bad.pdn",
	            paths.tool, paths.db, paths.dir, paths.dir, paths.dir, paths.dir);
	assert_int_equal(r.status, 1);
	if (!strstr(r.text, "russian.pdn game 1 is played under russian's rules, the databases are pool's") ||
	    !strstr(r.text, "cannot open") ||
	    !strstr(r.text, "bad.pdn game 1 (line 3): move 1: not a move") || !strstr(r.text, "3 skipped") ||
	    !strstr(r.text, "alpha: 2 won endings reached"))
		fail_msg("pool-egdb review with a Russian game and a missing file:\n%s", r.text);
	support_run(&r, "%s review --dir %s", paths.tool, paths.db);
	assert_int_equal(r.status, 2);
}

static int setup(void **state)
{
	*state = paths.dir;
	if (!support_tool_path("test_egdb", "pool-egdb", paths.tool, sizeof paths.tool) ||
	    !support_scratch_dir("test_egdb", paths.dir, sizeof paths.dir))
		return -1;
	snprintf(paths.engine, sizeof paths.engine, "%s", support_engine());
	snprintf(paths.db, sizeof paths.db, "%s/db", paths.dir);
	snprintf(paths.other, sizeof paths.other, "%s/other", paths.dir);
	snprintf(paths.variants, sizeof paths.variants, "%s/variants", paths.dir);
	return support_shell(NULL, "%s build --dir %s --pieces 4 --threads 2 --quiet", paths.tool,
	                     paths.db) ||
	               support_shell(
	                   NULL, "%s build --variant russian --dir %s/russian --pieces 4 --threads 2 --quiet",
	                   paths.tool, paths.variants) ||
	               support_shell(
	                   NULL,
	                   "%s build --variant brazilian --dir %s/brazilian --pieces 4 --threads 2 --quiet",
	                   paths.tool, paths.variants) ||
	               support_shell(NULL,
	                             "for v in english italian spanish czech; do %s build --variant $v "
	                             "--dir %s/$v --pieces 3 --threads 2 --quiet || exit 1; done",
	                             paths.tool, paths.variants)
	           ? -1
	           : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_index_round_trip),
	    cmocka_unit_test(test_pairs_in_dependency_order),
	    cmocka_unit_test(test_files_agree_with_independent_solver),
	    cmocka_unit_test(test_variant_files_agree_with_independent_solver),
	    cmocka_unit_test(test_family_files_agree_with_independent_solver),
	    cmocka_unit_test(test_files_of_other_rules_are_refused),
	    cmocka_unit_test(test_three_kings_against_one),
	    cmocka_unit_test(test_two_kings_against_one),
	    cmocka_unit_test(test_longest_wins),
	    cmocka_unit_test(test_verify_passes),
	    cmocka_unit_test(test_builds_are_deterministic_and_resume),
	    cmocka_unit_test(test_corrupt_file_is_refused),
	    cmocka_unit_test(test_engine_plays_database_win),
	    cmocka_unit_test(test_missing_directory_is_an_error),
	    cmocka_unit_test(test_info_reads_the_piece_count_from_the_files),
	    cmocka_unit_test(test_search_plays_by_distance_within_the_rules),
	    cmocka_unit_test(test_search_keeps_a_drawn_position_drawn),
	    cmocka_unit_test(test_lookup_names_every_move),
	    cmocka_unit_test(test_other_variants_do_not_probe),
	    cmocka_unit_test(test_russian_search_plays_by_distance_within_its_counts),
	    cmocka_unit_test(test_english_search_plays_by_distance_within_the_40_move_rule),
	    cmocka_unit_test(test_root_prefers_a_win_within_the_counts),
	    cmocka_unit_test(test_kings_plan_weights_are_the_fit),
	    cmocka_unit_test(test_kings_plan_follows_the_distance),
	    cmocka_unit_test(test_kings_man_plan_is_the_fit_and_follows_the_distance),
	    cmocka_unit_test(test_review_tallies_the_won_endings),
	};
	return cmocka_run_group_tests(tests, setup, support_teardown_dir);
}
