/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CheckerBoard's calls to an engine library, every reply checked against the rules library. */
#include "scenario.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "poolshark/game.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/clock.h"

static bool fail(char *why, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));

static bool fail(char *why, size_t size, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	vsnprintf(why, size, format, args);
	va_end(args);
	return false;
}

/* Where CheckerBoard's numbertocoors() puts square n (1-32) of a game's
 * numbering on its board[x][y], restated here from cb_interface.h so that
 * the test does not take the adapter's word for it: Italian (22) counts
 * each row from x = 0, Spanish (24) counts rows from y = 7 and each row
 * from x = 7, every other gametype (English, pool) as its coorstonumber()
 * reads back, n = 4 * (y + 1) - x / 2. */
static void game_coor(int n, Variant v, int *x, int *y)
{
	int row = (n - 1) / 4, k = (n - 1) % 4;
	switch (v) {
	case VARIANT_ITALIAN:
		*y = row;
		*x = 2 * k + row % 2;
		break;
	case VARIANT_SPANISH:
		*y = 7 - row;
		*x = 2 * (3 - k) + *y % 2;
		break;
	default:
		*y = row;
		*x = 2 * (3 - k) + row % 2;
		break;
	}
}

/* The pool number (bit + 1) of the piece of rule set v at board[x][y]:
 * the game's number of that square, as the rules library reads it. */
static int square_in(int x, int y, Variant v)
{
	for (int n = 1; n <= 32; n++) {
		int nx, ny;
		game_coor(n, v, &nx, &ny);
		if (nx == x && ny == y)
			return variant_square_of_number(variant_rules(v)->numbering, n) + 1;
	}
	return 0;
}

/* The pool number of square n of rule set v's numbering. */
static int pool_number(int n, Variant v)
{
	return n >= 1 && n <= 32 ? variant_square_of_number(variant_rules(v)->numbering, n) + 1 : n;
}

/* The board of *p in CheckerBoard's codes, each piece where CheckerBoard
 * puts its square's number in *p's game. */
static void board_of(const Position *p, int board[8][8])
{
	Variant v = position_variant(p);
	for (int x = 0; x < 8; x++)
		for (int y = 0; y < 8; y++)
			board[x][y] = CB_FREE;
	for (int n = 1; n <= 32; n++) {
		int x, y;
		game_coor(n, v, &x, &y);
		Bitboard b = bb_square(variant_square_of_number(variant_rules(v)->numbering, n));
		int colour = (p->pieces[BLACK] & b) ? CB_BLACK : (p->pieces[WHITE] & b) ? CB_WHITE : 0;
		if (colour)
			board[x][y] = colour | ((p->kings & b) ? CB_KING : CB_MAN);
	}
}

static Position position_in(const char *fen, Variant v)
{
	Position p;
	if (!notation_parse_fen(fen, v, &p, NULL, 0))
		abort();
	return p;
}

static Position position_of(const char *fen)
{
	return position_in(fen, VARIANT_POOL);
}

static bool command(const CbApi *api, const char *text, int expect_result, const char *expect_reply,
                    char *reply, char *why, size_t size)
{
	memset(reply, 0x55, CB_REPLY_SIZE);
	int r = api->enginecommand(text, reply);
	if (!memchr(reply, '\0', CB_REPLY_SIZE))
		return fail(why, size, "'%s': reply not terminated", text);
	if (r != expect_result)
		return fail(why, size, "'%s' returned %d, expected %d (reply '%s')", text, r, expect_result,
		            reply);
	if (expect_reply && strcmp(reply, expect_reply) != 0)
		return fail(why, size, "'%s' replied '%s', expected '%s'", text, reply, expect_reply);
	if (strncmp(text, "get movelist", 12) != 0 && strlen(reply) >= CB_SHORT_REPLY)
		return fail(why, size, "'%s': reply of %lu bytes; CheckerBoard passes 256", text,
		            (unsigned long)strlen(reply));
	return true;
}

/* Czech (29) refused however it is asked for, with CheckerBoard's reason,
 * and the gametype kept: CheckerBoard 1.77a reads gametype 29's square
 * numbers two squares off (doc/CHECKERBOARD.md). */
static bool czech_refused(const CbApi *api, const char *text, char *reply, char *why, size_t size)
{
	char before[CB_REPLY_SIZE];
	if (!command(api, "get gametype", 1, NULL, reply, why, size))
		return false;
	snprintf(before, sizeof before, "%s", reply);
	if (!command(api, text, 0, NULL, reply, why, size))
		return false;
	if (!strstr(reply, "gametype 29") || !strstr(reply, "numbertocoors()"))
		return fail(why, size, "'%s' refused without CheckerBoard's reason: '%s'", text, reply);
	return command(api, "get gametype", 1, before, reply, why, size);
}

static bool step_startup(const CbApi *api, char *why, size_t size)
{
	char reply[CB_REPLY_SIZE];
	/* What CheckerBoard 1.77a sends when it loads an engine (setcurrentengine, gametype()). */
	if (!command(api, "name", 1, NULL, reply, why, size))
		return false;
	if (strncmp(reply, "poolshark", 9) != 0)
		return fail(why, size, "name replied '%s'", reply);
	if (!command(api, "get book", 0, "?", reply, why, size) ||
	    !command(api, "get movelist B:W1:B", 1, "movelist 0", reply, why, size) ||
	    !command(api, "get gametype", 1, "23", reply, why, size) ||
	    !command(api, "get protocolversion", 1, "2", reply, why, size) ||
	    !command(api, "about", 1, NULL, reply, why, size) ||
	    !command(api, "help", 1, "", reply, why, size))
		return false;
	/* The engine options dialog. */
	if (!command(api, "get hashsize", 1, "64", reply, why, size) ||
	    !command(api, "set hashsize 16", 1, NULL, reply, why, size) ||
	    !command(api, "get hashsize", 1, "16", reply, why, size) ||
	    !command(api, "get dbmbytes", 0, "?", reply, why, size) ||
	    !command(api, "get allscores", 0, "?", reply, why, size) ||
	    !command(api, "set book 2", 0, NULL, reply, why, size) ||
	    !command(api, "get strength", 1, "100", reply, why, size) ||
	    !command(api, "set strength 50", 1, NULL, reply, why, size) ||
	    !command(api, "get strength", 1, "50", reply, why, size) ||
	    !command(api, "set strength 100", 1, NULL, reply, why, size) ||
	    !command(api, "get move-overhead", 1, "50", reply, why, size) ||
	    !command(api, "set gametype 23", 1, NULL, reply, why, size) ||
	    !czech_refused(api, "set gametype 29", reply, why, size) ||
	    !czech_refused(api, "set variant czech", reply, why, size) ||
	    !command(api, "set gametype 21", 1, "21", reply, why, size) ||
	    !command(api, "get gametype", 1, "21", reply, why, size) ||
	    !command(api, "get variant", 1, "english", reply, why, size) ||
	    !command(api, "set gametype 25", 1, "25", reply, why, size) ||
	    !command(api, "get gametype", 1, "25", reply, why, size) ||
	    !command(api, "get variant", 1, "russian", reply, why, size) ||
	    !command(api, "set gametype 26", 1, "26", reply, why, size) ||
	    !command(api, "get gametype", 1, "26", reply, why, size) ||
	    !command(api, "set gametype 23", 1, "23", reply, why, size) ||
	    !command(api, "get gametype", 1, "23", reply, why, size) ||
	    !command(api, "frobnicate", 0, "?", reply, why, size) ||
	    !command(api, "", 0, "?", reply, why, size))
		return false;
	return true;
}

/* One entry of a "get movelist" reply, read strictly. */
typedef struct ListedMove {
	int jumps, oldpiece, newpiece, from, to;
	int landed[CB_PATH_MAX], captured[CB_PATH_MAX], cappiece[CB_PATH_MAX];
} ListedMove;

static bool read_number(const char **s, int *out)
{
	char *end;
	if (**s < '0' || **s > '9')
		return false;
	long v = strtol(*s, &end, 10);
	if (v > 1000)
		return false;
	*out = (int)v;
	*s = end;
	return true;
}

static bool read_field(const char **s, int *out)
{
	if (**s != ',')
		return false;
	(*s)++;
	return read_number(s, out);
}

static int parse_movelist(const char *reply, ListedMove *out, int capacity)
{
	const char *s = reply;
	int n;
	if (strncmp(s, "movelist ", 9) != 0)
		return -1;
	s += 9;
	if (!read_number(&s, &n) || n > capacity)
		return -1;
	if (n == 0)
		return *s == '\0' ? 0 : -1;
	/* "movelist N," then entries "jumps,old,new,from,to[,landed,captured,piece]...;" back to back. */
	if (*s++ != ',')
		return -1;
	for (int i = 0; i < n; i++) {
		ListedMove *m = &out[i];
		if (!read_number(&s, &m->jumps) || m->jumps >= CB_PATH_MAX || !read_field(&s, &m->oldpiece) ||
		    !read_field(&s, &m->newpiece) || !read_field(&s, &m->from) || !read_field(&s, &m->to))
			return -1;
		for (int j = 0; j < m->jumps; j++)
			if (!read_field(&s, &m->landed[j]) || !read_field(&s, &m->captured[j]) ||
			    !read_field(&s, &m->cappiece[j]))
				return -1;
		if (*s++ != ';')
			return -1;
	}
	return *s == '\0' ? n : -1;
}

static int piece_at(const Position *p, int square)
{
	Bitboard b = bb_square(square - 1);
	int colour = (p->pieces[BLACK] & b) ? CB_BLACK : (p->pieces[WHITE] & b) ? CB_WHITE : 0;
	return colour ? colour | ((p->kings & b) ? CB_KING : CB_MAN) : 0;
}

/* Whether the listed landing squares are one of the rules' routes for m. */
static bool route_matches(const Position *p, Move m, const ListedMove *l)
{
	MovePath paths[64];
	int n = movegen_paths(p, m, paths, 64);
	if (n > 64)
		n = 64;
	for (int i = 0; i < n; i++) {
		if (paths[i].length != l->jumps + 1)
			continue;
		bool same = true;
		for (int j = 0; j < l->jumps; j++)
			same = same && paths[i].squares[j + 1] + 1 == l->landed[j];
		if (same)
			return true;
	}
	return false;
}

/* Checks a described move against legal move m of *p: pieces, squares, captures, route. */
static bool check_described(const Position *p, Move m, const ListedMove *l, char *why, size_t size)
{
	int colour = p->side == BLACK ? CB_BLACK : CB_WHITE;
	bool king = (p->kings & bb_square(m.from)) != 0;
	bool crowned = !king && (bb_square(m.to) & position_crown_row(p->side));
	if (l->oldpiece != (colour | (king ? CB_KING : CB_MAN)) ||
	    l->newpiece != (colour | (king || crowned ? CB_KING : CB_MAN)))
		return fail(why, size, "%d-%d: pieces %d -> %d", l->from, l->to, l->oldpiece, l->newpiece);
	if (l->jumps != bb_count(m.captured))
		return fail(why, size, "%d-%d: %d jumps", l->from, l->to, l->jumps);
	Bitboard taken = 0;
	for (int j = 0; j < l->jumps; j++) {
		if (l->captured[j] < 1 || l->captured[j] > 32 ||
		    l->cappiece[j] != piece_at(p, l->captured[j]))
			return fail(why, size, "%d-%d: captured %d (%d)", l->from, l->to, l->captured[j],
			            l->cappiece[j]);
		taken |= bb_square(l->captured[j] - 1);
	}
	if (taken != m.captured)
		return fail(why, size, "%d-%d: captured set differs", l->from, l->to);
	if (l->jumps > 0 && (l->landed[l->jumps - 1] != l->to || !route_matches(p, m, l)))
		return fail(why, size, "%d-%d: not a route of the rules", l->from, l->to);
	return true;
}

/* The legal move of *p with these ends and captured squares, or move_none(). */
static Move legal_move(const Position *p, const ListedMove *l)
{
	MoveList list;
	movegen_generate(p, &list);
	for (int i = 0; i < list.count; i++) {
		Move m = list.moves[i];
		if (m.from + 1 != l->from || m.to + 1 != l->to || bb_count(m.captured) != l->jumps)
			continue;
		Bitboard taken = 0;
		for (int j = 0; j < l->jumps; j++)
			if (l->captured[j] >= 1 && l->captured[j] <= 32)
				taken |= bb_square(l->captured[j] - 1);
		if (taken == m.captured)
			return m;
	}
	return move_none();
}

/* The engine's `get movelist` of fen against movegen under rule set v (the
 * engine's). */
static bool check_movelist_in(const CbApi *api, const char *fen, Variant v, char *why, size_t size)
{
	char text[256], reply[CB_REPLY_SIZE];
	Position p = position_in(fen, v);
	MoveList list;
	int n = movegen_generate(&p, &list);
	snprintf(text, sizeof text, "get movelist %s", fen);
	if (n > CB_MOVELIST_MAX) {
		/* More than CheckerBoard's arrays hold: a refusal, never a longer list. */
		if (!command(api, text, 0, NULL, reply, why, size))
			return false;
		return strncmp(reply, "movelist", 8) == 0 ? fail(why, size, "%s: a list of %d moves", fen, n)
		                                          : true;
	}
	if (!command(api, text, 1, NULL, reply, why, size))
		return false;
	ListedMove listed[CB_MOVELIST_MAX];
	int count = parse_movelist(reply, listed, CB_MOVELIST_MAX);
	if (count != n)
		return fail(why, size, "%s: %d legal moves, reply '%s'", fen, n, reply);
	/* The game's numbers, as CheckerBoard reads them, to pool's. */
	for (int i = 0; i < count; i++) {
		ListedMove *l = &listed[i];
		l->from = pool_number(l->from, v);
		l->to = pool_number(l->to, v);
		for (int j = 0; j < l->jumps; j++) {
			l->landed[j] = pool_number(l->landed[j], v);
			l->captured[j] = pool_number(l->captured[j], v);
		}
	}
	Bitboard seen[CB_MOVELIST_MAX];
	for (int i = 0; i < count; i++) {
		Move m = legal_move(&p, &listed[i]);
		if (move_is_none(m))
			return fail(why, size, "%s: entry %d (%d-%d) is not a legal move", fen, i + 1,
			            listed[i].from, listed[i].to);
		for (int k = 0; k < i; k++) /* each legal move once */
			if (seen[k] == m.captured && listed[k].from == listed[i].from &&
			    listed[k].to == listed[i].to)
				return fail(why, size, "%s: %d-%d listed twice", fen, listed[i].from,
				            listed[i].to);
		seen[i] = m.captured;
		if (!check_described(&p, m, &listed[i], why, size))
			return false;
	}
	return true;
}

static bool check_movelist(const CbApi *api, const char *fen, char *why, size_t size)
{
	return check_movelist_in(api, fen, VARIANT_POOL, why, size);
}

static bool step_movelists(const CbApi *api, char *why, size_t size)
{
	static const char *const fens[] = {
	    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
	    "W:W9:B6,7",                   /* through the crowning row mid-capture, stays a man */
	    "W:WK29:B25,19",               /* king landing priority */
	    "W:W22:B17,18,11",             /* free choice: one or two pieces */
	    "W:WK8:B15,25",                /* one move by two routes */
	    "W:WK3,K10:BK6,24",            /* a dead piece blocks */
	    "W:W7,9,K22,23:B16,K18,24,26", /* a king ends on its own square */
	    "B:W6,25,26,K4:B1,23",         /* men capture backward */
	    "W:W27:B23,15,14,6,7",         /* crowns at the end of a capture */
	    "B:WK1,K3:BK17,K18,K19,K20",   /* flying kings: more than 28 moves */
	    "W:W32:B",                     /* nothing to capture, one man */
	};
	for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++)
		if (!check_movelist(api, fens[i], why, size))
			return false;
	return true;
}

static bool getmove_rejects(const CbApi *api, int board[8][8], int color, int expect, const char *what,
                            char *why, size_t size)
{
	int before[8][8], playnow = 0;
	char status[CB_STATUS_SIZE];
	CbMove move;
	memcpy(before, board, sizeof before);
	int r = api->getmove(board, color, 0.05, status, &playnow, 0, 0, &move);
	if (r != expect)
		return fail(why, size, "%s: getmove returned %d, expected %d (%s)", what, r, expect, status);
	if (memcmp(before, board, sizeof before) != 0)
		return fail(why, size, "%s: the board was changed", what);
	if (!memchr(status, '\0', CB_STATUS_SIZE) || status[0] == '\0')
		return fail(why, size, "%s: no status text", what);
	return true;
}

static bool step_bad_input(const CbApi *api, char *why, size_t size)
{
	int board[8][8];
	char reply[CB_REPLY_SIZE];
	Position start = position_of("B:W21-32:B1-12");

	board_of(&start, board);
	board[0][7] = CB_BLACK | CB_MAN; /* square 32: Black's crowning row */
	if (!getmove_rejects(api, board, CB_BLACK, CB_UNKNOWN, "man on its crowning row", why, size))
		return false;
	board_of(&start, board);
	board[1][3] = CB_BLACK | CB_MAN; /* a 13th black piece */
	if (!getmove_rejects(api, board, CB_BLACK, CB_UNKNOWN, "13 black pieces", why, size))
		return false;
	board_of(&start, board);
	board[1][0] = CB_WHITE | CB_KING; /* a light square */
	if (!getmove_rejects(api, board, CB_BLACK, CB_UNKNOWN, "piece on a light square", why, size))
		return false;
	board_of(&start, board);
	board[3][3] = 7;
	if (!getmove_rejects(api, board, CB_BLACK, CB_UNKNOWN, "piece code 7", why, size))
		return false;
	board_of(&start, board);
	if (!getmove_rejects(api, board, 0, CB_UNKNOWN, "colour 0", why, size) ||
	    !getmove_rejects(api, board, CB_BLACK | CB_WHITE, CB_UNKNOWN, "colour 3", why, size))
		return false;
	Position lone = position_of("B:W21,22:B");
	board_of(&lone, board);
	if (!getmove_rejects(api, board, CB_BLACK, CB_LOSS, "side to move has no pieces", why, size) ||
	    !getmove_rejects(api, board, CB_WHITE, CB_WIN, "opponent has no pieces", why, size))
		return false;

	static const char *const bad[] = {
	    "get movelist",
	    "get movelist X:W21:B1",
	    "get movelist B:W21,21:B1",
	    "get movelist B:W33:B1",
	    "get movelist B:W21:B1 junk",
	    "get movelist B:W2:B1", /* white man on its crowning row, black to move */
	    "get movelist B:W21,22,23,24,25,26,27,28,29,30,31,32,17:B1",
	    "set gamehist",
	    "set gamehist B:W21:B1 1-10",
	    "set hashsize 0",
	    "set hashsize -5",
	    "set hashsize 99999999999999999999",
	    "set hashsize 12x",
	    "set strength 101",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (!command(api, bad[i], 0, NULL, reply, why, size))
			return false;
		if (strncmp(reply, "error", 5) != 0)
			return fail(why, size, "'%s' replied '%s', expected an error", bad[i], reply);
	}
	return true;
}

/* Checks a getmove answer: the new board is the position after one legal move, which *move describes. */
static bool check_answer(const Position *before, int board[8][8], const CbMove *move, Move *played, char *why,
                         size_t size)
{
	MoveList list;
	movegen_generate(before, &list);
	for (int i = 0; i < list.count; i++) {
		Position after;
		int expect[8][8];
		position_make(before, list.moves[i], &after);
		board_of(&after, expect);
		if (memcmp(expect, board, sizeof expect) != 0)
			continue;
		Variant v = position_variant(before);
		ListedMove l = {.jumps = move->jumps, .oldpiece = move->oldpiece, .newpiece = move->newpiece};
		l.from = square_in(move->from.x, move->from.y, v);
		l.to = square_in(move->to.x, move->to.y, v);
		if (move->jumps < 0 || move->jumps >= CB_PATH_MAX)
			return fail(why, size, "CBmove with %d jumps", move->jumps);
		for (int j = 0; j < move->jumps; j++) {
			l.landed[j] = square_in(move->path[j + 1].x, move->path[j + 1].y, v);
			l.captured[j] = square_in(move->del[j].x, move->del[j].y, v);
			l.cappiece[j] = move->delpiece[j];
		}
		if (square_in(move->path[0].x, move->path[0].y, v) != l.from)
			return fail(why, size, "CBmove path[0] is not the origin");
		Move m = legal_move(before, &l);
		if (!move_equal(m, list.moves[i]))
			return fail(why, size, "the CBmove (%d-%d) is not the move played on the board",
			            l.from, l.to);
		*played = m;
		return check_described(before, m, &l, why, size);
	}
	return fail(why, size, "the board after getmove is not reached by any legal move");
}

/* Sends "set gamehist" as CheckerBoard does: the position after the last irreversible move, then the
 * reversible moves since. */
static bool send_history(const CbApi *api, const Game *g, char *why, size_t size)
{
	char text[1024], reply[CB_REPLY_SIZE], fen[NOTATION_FEN_MAX];
	int back = game_counters(g)->reversible_plies;
	int first = g->ply_count - back;
	size_t used = 0;
	notation_write_fen(&g->positions[first], fen, sizeof fen);
	used += (size_t)snprintf(text, sizeof text, "set gamehist %s", fen);
	for (int i = first; i < g->ply_count && used < sizeof text; i++)
		used += (size_t)snprintf(text + used, sizeof text - used, " %d-%d", g->moves[i].from + 1,
		                         g->moves[i].to + 1);
	return command(api, text, 1, NULL, reply, why, size);
}

static int expected_result(GameResult result, Color mover)
{
	if (result == RESULT_DRAW)
		return CB_DRAW;
	if (result == RESULT_NONE)
		return CB_UNKNOWN;
	return (result == RESULT_BLACK_WINS) == (mover == BLACK) ? CB_WIN : CB_LOSS;
}

/* Plays a whole game, the library on both sides, as CheckerBoard's engine-engine mode calls it. */
static bool play_game(const CbApi *api, double maxtime, int max_plies, char *why, size_t size)
{
	Game *g = malloc(sizeof *g);
	if (!g)
		return fail(why, size, "out of memory");
	Position start = position_of("B:W21-32:B1-12");
	game_init(g, &start);
	bool ok = true;
	if (api->log)
		fprintf(api->log, "game at %.2f s a move:", maxtime);
	while (ok && g->ply_count < max_plies) {
		const Position *p = game_position(g);
		int board[8][8], playnow = 0;
		char status[CB_STATUS_SIZE];
		CbMove move;
		board_of(p, board);
		if (!send_history(api, g, why, size)) {
			ok = false;
			break;
		}
		int info = g->ply_count == 0 ? CB_RESET_MOVES : 0;
		int r = api->getmove(board, p->side == BLACK ? CB_BLACK : CB_WHITE, maxtime, status, &playnow,
		                     info, 0, &move);
		Move m;
		if (!check_answer(p, board, &move, &m, why, size)) {
			ok = false;
			break;
		}
		if (api->log && g->ply_count % 2 == 0)
			fprintf(api->log, "%s%d.", g->ply_count % 20 == 0 ? "\n  " : " ",
			        g->ply_count / 2 + 1);
		char text[NOTATION_MOVE_MAX];
		notation_write_move(p, m, text, sizeof text);
		if (api->log)
			fprintf(api->log, " %s", text);
		Color mover = p->side;
		game_play(g, m);
		GameStatus st = game_status(g);
		if (r != expected_result(st.result, mover)) {
			ok = fail(why, size, "ply %d: getmove returned %d, the rules say %s", g->ply_count, r,
			          game_result_text(st.result));
			break;
		}
		if (st.result != RESULT_NONE) {
			if (api->log)
				fprintf(api->log, "\n  result %s (%s), %d plies\n",
				        game_result_text(st.result), game_reason_text(st.reason),
				        g->ply_count);
			break;
		}
	}
	if (ok && api->log && game_status(g).result == RESULT_NONE)
		fprintf(api->log, "\n  stopped after %d plies\n", g->ply_count);
	free(g);
	return ok;
}

static bool step_game(const CbApi *api, char *why, size_t size)
{
	return play_game(api, 0.08, 400, why, size);
}

static bool step_reset_and_history(const CbApi *api, char *why, size_t size)
{
	/* A second game after a reset. */
	if (!play_game(api, 0.06, 12, why, size))
		return false;
	/* The history says the position occurs for the third time: drawn, no move. */
	char reply[CB_REPLY_SIZE];
	if (!command(api, "set gamehist B:WK32:BK1 1-6 32-27 6-1 27-32 1-6 32-27 6-1 27-32", 1, NULL, reply,
	             why, size))
		return false;
	int board[8][8], playnow = 0;
	char status[CB_STATUS_SIZE];
	CbMove move;
	Move m;
	Position p = position_of("B:WK32:BK1");
	board_of(&p, board);
	/* Drawn: CB_DRAW, and a move all the same (CheckerBoard ends a match on it after the move). */
	int r = api->getmove(board, CB_BLACK, 0.05, status, &playnow, 0, 0, &move);
	if (r != CB_DRAW)
		return fail(why, size, "threefold repetition: getmove returned %d (%s)", r, status);
	if (!check_answer(&p, board, &move, &m, why, size))
		return false;
	/* A history that goes on after the repetition is taken whole, as the Hub
	 * protocol's pos takes it (doc/PROTOCOL.md): still drawn, and a move. */
	if (!command(api, "set gamehist B:WK32:BK1 1-6 32-27 6-1 27-32 1-6 32-27 6-1 27-32 1-6", 1, NULL,
	             reply, why, size))
		return false;
	Position on = position_of("W:WK32:BK6");
	board_of(&on, board);
	r = api->getmove(board, CB_WHITE, 0.05, status, &playnow, 0, 0, &move);
	if (r != CB_DRAW)
		return fail(why, size, "repetition on the way: getmove returned %d (%s)", r, status);
	if (!check_answer(&on, board, &move, &m, why, size))
		return false;
	/* A history that does not end in the board is ignored: the same position now just plays. */
	if (!command(api, "set gamehist B:WK32:BK5", 1, NULL, reply, why, size))
		return false;
	board_of(&p, board);
	r = api->getmove(board, CB_BLACK, 0.05, status, &playnow, 0, 0, &move);
	if (r != CB_UNKNOWN)
		return fail(why, size, "after an unrelated history getmove returned %d (%s)", r, status);
	return check_answer(&p, board, &move, &m, why, size);
}

typedef struct Stopper {
	int *playnow;
	int delay_ms;
	int64_t stopped_at;
} Stopper;

static void *press_play(void *arg)
{
	Stopper *s = arg;
	struct timespec t = {s->delay_ms / 1000, (long)(s->delay_ms % 1000) * 1000000L};
	nanosleep(&t, NULL);
	s->stopped_at = clock_now_ms();
	*(volatile int *)s->playnow = 1;
	return NULL;
}

/* One search of 60 s stopped by playnow 300 ms in: how long getmove took to
 * return after the press, and how late the pressing thread woke (the
 * machine's scheduling delay at that moment). */
static bool stop_once(const CbApi *api, int64_t *stop_ms, int64_t *late_ms, char *why, size_t size)
{
	int board[8][8], playnow = 0;
	char status[CB_STATUS_SIZE];
	CbMove move;
	Move m;
	Position p = position_of("B:W21-32:B1-12");
	board_of(&p, board);
	Stopper s = {&playnow, 300, 0};
	pthread_t thread;
	if (pthread_create(&thread, NULL, press_play, &s) != 0)
		return fail(why, size, "no thread");
	int64_t started = clock_now_ms();
	int r = api->getmove(board, CB_BLACK, 60.0, status, &playnow, CB_RESET_MOVES, 0, &move);
	int64_t returned = clock_now_ms();
	pthread_join(thread, NULL);
	*stop_ms = returned - s.stopped_at;
	*late_ms = s.stopped_at - started - s.delay_ms;
	if (api->log)
		fprintf(api->log, "playnow: pressed after %lld ms, getmove returned %lld ms later: %s\n",
		        (long long)(s.stopped_at - started), (long long)*stop_ms, status);
	if (r != CB_UNKNOWN)
		return fail(why, size, "getmove returned %d", r);
	return check_answer(&p, board, &move, &m, why, size);
}

/* playnow stops the search within 50 ms of the press. That bound can only be
 * measured when the machine schedules the threads on time: an attempt whose
 * pressing thread woke more than 20 ms late (a machine busy with other work,
 * as CI's background phases make it) is tried again, up to three times. If
 * every attempt was late, each must still have stopped within 2 s: a search
 * that ignored playnow would run its 60 s, and one that looked only between
 * iterations would finish an iteration of depth 15 or more. */
static bool step_playnow(const CbApi *api, char *why, size_t size)
{
	enum { ATTEMPTS = 3, BOUND_MS = 50, LATE_MS = 20, BUSY_BOUND_MS = 2000 };
	int64_t worst_ms = 0, least_late_ms = INT64_MAX;
	for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
		int64_t stop_ms, late_ms;
		if (!stop_once(api, &stop_ms, &late_ms, why, size))
			return false;
		if (stop_ms <= BOUND_MS)
			return true;
		if (late_ms <= LATE_MS)
			return fail(why, size, "getmove took %lld ms to stop (the bound is %d ms)",
			            (long long)stop_ms, BOUND_MS);
		worst_ms = stop_ms > worst_ms ? stop_ms : worst_ms;
		least_late_ms = late_ms < least_late_ms ? late_ms : least_late_ms;
	}
	if (worst_ms > BUSY_BOUND_MS)
		return fail(why, size, "getmove took %lld ms to stop", (long long)worst_ms);
	if (api->log)
		fprintf(
		    api->log,
		    "playnow: the machine was too busy to measure the %d ms bound (the pressing thread woke "
		    "%lld ms late or more); each stop came within %d ms\n",
		    BOUND_MS, (long long)least_late_ms, BUSY_BOUND_MS);
	return true;
}

/* With an incremental clock the clock counts, not maxtime (100 s here, the value for older engines). */
static bool step_clock(const CbApi *api, char *why, size_t size)
{
	static const struct {
		int unit;            /* bits 2-3 of info: 1 = 0.001 s, 2 = 0.01 s, 3 = 0.1 s */
		unsigned left, step; /* in that unit */
	} clocks[] = {{1, 300, 0}, {2, 30, 1}, {3, 3, 1}};
	for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++) {
		int board[8][8], playnow = 0;
		char status[CB_STATUS_SIZE];
		CbMove move;
		Move m;
		Position p = position_of("B:W21-32:B1-12");
		board_of(&p, board);
		int64_t started = clock_now_ms();
		int r = api->getmove(board, CB_BLACK, 100.0, status, &playnow,
		                     clocks[i].unit << CB_INCR_TIME_SHIFT,
		                     (int)(clocks[i].left << 16 | clocks[i].step), &move);
		int64_t took = clock_now_ms() - started;
		if (api->log)
			fprintf(api->log, "clock of 0.3 s (unit %d): getmove took %lld ms\n", clocks[i].unit,
			        (long long)took);
		if (r != CB_UNKNOWN || took >= 1000)
			return fail(why, size, "0.3 s on the clock: getmove returned %d after %lld ms", r,
			            (long long)took);
		if (!check_answer(&p, board, &move, &m, why, size))
			return false;
	}
	return true;
}

/* Whether `reply` holds `text`, else why not. */
static bool reply_holds(const char *command_text, const char *reply, const char *text, char *why, size_t size)
{
	if (strstr(reply, text))
		return true;
	return fail(why, size, "'%s' replied '%s', without '%s'", command_text, reply, text);
}

/* The evaluation options of the engine dialog (doc/CHECKERBOARD.md): eval
 * and eval-file are set and read back; a network file that cannot be used
 * is refused with its reason and the one set stays; rules that the file
 * set does not fit are refused (gametype and variant alike) until it is
 * default again; a move is searched with the network of a file. The
 * options are as they were at the end. */
static bool step_eval(const CbApi *api, char *why, size_t size)
{
	char reply[CB_REPLY_SIZE], eval[CB_REPLY_SIZE], restore[CB_REPLY_SIZE + 16];
	static const char pool[] = "tools/data/nnue-pool.bin", russian[] = "tools/data/nnue-russian.bin";
	if (!command(api, "get eval", 1, NULL, eval, why, size) ||
	    !command(api, "set eval net", 1, "eval net", reply, why, size) ||
	    !command(api, "get eval", 1, "net", reply, why, size) ||
	    !command(api, "set eval neural", 0, NULL, reply, why, size) ||
	    !reply_holds("set eval neural", reply, "classic net", why, size) ||
	    !command(api, "get eval", 1, "net", reply, why, size) ||
	    !command(api, "get eval-file", 1, "default", reply, why, size) ||
	    !command(api, "set eval-file tools/data/nnue-pool.bin", 1, NULL, reply, why, size) ||
	    !command(api, "get eval-file", 1, pool, reply, why, size))
		return false;
	static const struct {
		const char *command, *reason;
	} refused[] = {
	    {"set eval-file tools/data/no-such-network.bin",
	     "error: eval-file: tools/data/no-such-network.bin: "},
	    {"set eval-file tools/data/nnue-russian.bin", "a network for russian, not for pool"},
	    {"set eval-file tools/data", "error: eval-file: tools/data: "},
	    {"set gametype 25",
	     "error: gametype not set: eval-file: tools/data/nnue-pool.bin: a network for pool"},
	    {"set variant russian", "error: variant not set: eval-file: tools/data/nnue-pool.bin: "},
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
		if (!command(api, refused[i].command, 0, NULL, reply, why, size) ||
		    !reply_holds(refused[i].command, reply, refused[i].reason, why, size) ||
		    !command(api, "get eval-file", 1, pool, reply, why, size) ||
		    !command(api, "get gametype", 1, "23", reply, why, size))
			return false;
	int board[8][8], playnow = 0;
	char status[CB_STATUS_SIZE];
	CbMove move;
	Move m;
	Position p = position_of("B:W21-32:B1-12");
	board_of(&p, board);
	int result = api->getmove(board, CB_BLACK, 0.1, status, &playnow, CB_RESET_MOVES, 0, &move);
	if (result != CB_UNKNOWN)
		return fail(why, size, "getmove under eval net with %s returned %d: %s", pool, result,
		            status);
	if (!check_answer(&p, board, &move, &m, why, size))
		return false;
	if (!command(api, "set eval-file default", 1, NULL, reply, why, size) ||
	    !command(api, "set gametype 25", 1, "25", reply, why, size) ||
	    !command(api, "set eval-file tools/data/nnue-russian.bin", 1, NULL, reply, why, size) ||
	    !command(api, "get eval-file", 1, russian, reply, why, size) ||
	    !command(api, "set gametype 23", 0, NULL, reply, why, size) ||
	    !command(api, "get gametype", 1, "25", reply, why, size) ||
	    !command(api, "set eval-file default", 1, NULL, reply, why, size) ||
	    !command(api, "set gametype 23", 1, "23", reply, why, size))
		return false;
	snprintf(restore, sizeof restore, "set eval %s", eval);
	return command(api, restore, 1, NULL, reply, why, size);
}

/* English checkers (gametype 21, numbered and placed as pool): the move
 * lists of its rules (men capture forward only, kings step one square,
 * crowning ends a capture) and one move from the start, Black first. */
static bool step_english(const CbApi *api, char *why, size_t size)
{
	static const char *const fens[] = {
	    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
	    "W:W18:B22",           /* no capture backward: two steps */
	    "W:WK22:B1",           /* a king steps one square: four moves */
	    "W:WK29:B18",          /* a king captures only next to it */
	    "B:W26,27:B22",        /* crowned on 31, the capture ends */
	    "W:WK22:BK17,9,18,K11" /* free choice between two captures */
	};
	char reply[CB_REPLY_SIZE];
	if (!command(api, "set gametype 21", 1, "21", reply, why, size))
		return false;
	for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++)
		if (!check_movelist_in(api, fens[i], VARIANT_ENGLISH, why, size))
			return false;
	int board[8][8], playnow = 0;
	char status[CB_STATUS_SIZE];
	CbMove move;
	Move m;
	Position p = position_in(fens[0], VARIANT_ENGLISH);
	board_of(&p, board);
	int result = api->getmove(board, CB_BLACK, 0.1, status, &playnow, CB_RESET_MOVES, 0, &move);
	if (result != CB_UNKNOWN)
		return fail(why, size, "getmove under English rules returned %d: %s", result, status);
	if (!check_answer(&p, board, &move, &m, why, size))
		return false;
	return command(api, "set gametype 23", 1, "23", reply, why, size);
}

/* Italian (22) and Spanish (24): CheckerBoard numbers each its own way
 * and White moves first. The move lists of random positions of each game,
 * sent and read in its numbers, and one move from the start. */
static bool step_mirrored(const CbApi *api, char *why, size_t size)
{
	static const struct {
		Variant v;
		const char *set;
	} games[] = {{VARIANT_ITALIAN, "set gametype 22"}, {VARIANT_SPANISH, "set gametype 24"}};
	char reply[CB_REPLY_SIZE];
	for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
		Variant v = games[g].v;
		if (!command(api, games[g].set, 1, NULL, reply, why, size))
			return false;
		Position start, p;
		position_start_variant(&start, v);
		uint64_t seed = 2200 + g;
		for (int game = 0; game < 6; game++) {
			p = start;
			for (int ply = 0; ply < 60; ply++) {
				char fen[200];
				notation_write_fen(&p, fen, sizeof fen);
				if (!check_movelist_in(api, fen, v, why, size))
					return false;
				MoveList list;
				int n = movegen_generate(&p, &list);
				if (n == 0)
					break;
				seed = seed * 6364136223846793005u + 1442695040888963407u;
				position_make(&p, list.moves[(seed >> 33) % (uint64_t)n], &p);
			}
		}
		int board[8][8], playnow = 0;
		char status[CB_STATUS_SIZE];
		CbMove move;
		Move m;
		board_of(&start, board);
		int result = api->getmove(board, CB_WHITE, 0.1, status, &playnow, CB_RESET_MOVES, 0, &move);
		if (result != CB_UNKNOWN)
			return fail(why, size, "getmove under %s rules returned %d: %s",
			            variant_rules(v)->name, result, status);
		if (!check_answer(&start, board, &move, &m, why, size))
			return false;
	}
	return command(api, "set gametype 29", 0, NULL, reply, why, size) &&
	       command(api, "set gametype 23", 1, "23", reply, why, size);
}

const ScenarioStep scenario_steps[] = {
    {"start-up probes and options", step_startup},
    {"get movelist against the rules", step_movelists},
    {"bad input", step_bad_input},
    {"a whole game", step_game},
    {"reset, history, repetition", step_reset_and_history},
    {"playnow stops a 60 s search", step_playnow},
    {"an incremental clock, not maxtime", step_clock},
    {"eval and eval-file", step_eval},
    {"English checkers, gametype 21", step_english},
    {"Italian and Spanish draughts, gametypes 22 and 24", step_mirrored},
};
const int scenario_step_count = (int)(sizeof scenario_steps / sizeof scenario_steps[0]);
