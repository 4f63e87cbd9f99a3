/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CheckerBoard's engine interface (getmove, enginecommand) as a front-end over the Engine. */
#ifndef POOLSHARK_CBENGINE_H
#define POOLSHARK_CBENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "poolshark/move.h"
#include "poolshark/position.h"

/*
 * The values and layouts below are CheckerBoard's (version 1.77a, its
 * cb_interface.h and CheckerBoard.c); doc/CHECKERBOARD.md says where each
 * one comes from. A board is int board[8][8] indexed [x][y]: square n of the
 * English (and pool) numbering is at y = (n-1)/4, x = 2*(3 - (n-1)%4) plus
 * one on odd y, so Black's men start on y = 0..2.
 */
enum { CB_FREE = 0, CB_WHITE = 1, CB_BLACK = 2, CB_MAN = 4, CB_KING = 8 };

/* getmove() results, from the side to move's view. */
enum { CB_DRAW = 0, CB_WIN = 1, CB_LOSS = 2, CB_UNKNOWN = 3 };

/* getmove() `info` bits; bits 2-3 select the unit of the incremental clock. */
enum { CB_RESET_MOVES = 1, CB_EXACT_TIME = 2, CB_INCR_TIME_SHIFT = 2 };

enum {
	CB_GAMETYPE_POOL = 23,   /* PDN GameType of American pool checkers */
	CB_PROTOCOL_VERSION = 2, /* "get protocolversion" */
	CB_REPLY_SIZE = 1024,    /* ENGINECOMMAND_REPLY_SIZE: the movelist reply buffer */
	CB_SHORT_REPLY = 256,    /* CheckerBoard passes 256-byte buffers for most commands */
	CB_STATUS_SIZE = 1024,   /* getmove's str */
	CB_MOVELIST_MAX = 28,    /* MAXMOVES: CheckerBoard's move arrays */
	CB_PATH_MAX = 12         /* CBmove path[], del[], delpiece[] */
};

typedef struct CbCoor {
	int x;
	int y;
} CbCoor;

/*
 * CheckerBoard's struct CBmove. path[0] is the origin, path[1..jumps] the
 * landing squares of a capture (path[jumps] == to), del[0..jumps-1] the
 * captured squares and delpiece[] their pieces; a quiet move has jumps 0,
 * path[1] == to and del[0].x == -1.
 */
typedef struct CbMove {
	int jumps;
	int newpiece;
	int oldpiece;
	CbCoor from;
	CbCoor to;
	CbCoor path[CB_PATH_MAX];
	CbCoor del[CB_PATH_MAX];
	int delpiece[CB_PATH_MAX];
} CbMove;

_Static_assert(sizeof(CbMove) == 3 * sizeof(int) + 2 * sizeof(CbCoor) + 2 * CB_PATH_MAX * sizeof(CbCoor) +
                                     CB_PATH_MAX * sizeof(int),
               "CbMove has CheckerBoard's layout: ints only, no padding");

/* The CheckerBoard square (x, y) of PDN square 1..32. */
CbCoor cbengine_square_coor(int square);

/* The PDN square 1..32 at (x, y), or 0 for a light square or one off the board. */
int cbengine_coor_square(int x, int y);

/*
 * Reads a CheckerBoard board and colour (CB_BLACK or CB_WHITE) into *out.
 * False with a message in error (if not NULL) for an unknown colour or
 * piece code, a piece on a light square, a man on its crowning row, more
 * than 12 pieces a side.
 */
bool cbengine_read_board(const int board[8][8], int color, Position *out, char *error, size_t error_size);

/* Writes *p into board (every square, light ones CB_FREE). */
void cbengine_write_board(const Position *p, int board[8][8]);

/*
 * The CBmove of legal move m of *p (one of its paths for a capture). False
 * when m takes more pieces than a CBmove can describe (its path holds 11
 * landings); *out is still filled as far as it goes.
 */
bool cbengine_fill_move(const Position *p, Move m, CbMove *out);

/*
 * The reply to "get movelist <fen>": "movelist N,move;move;..." in
 * CheckerBoard's format, every legal move of the position once. True when it
 * fits in out[size] and in CheckerBoard's limits (at most CB_MOVELIST_MAX
 * moves of at most 11 jumps); otherwise false with a message starting
 * "error" in out (cut to size), never a partial list.
 */
bool cbengine_write_movelist(const Position *p, char *out, size_t size);

typedef struct CbEngine CbEngine;

/* A new adapter with its own Engine (hash 64 MiB); NULL when memory is short. */
CbEngine *cbengine_create(void);

/* Stops any search and frees everything. */
void cbengine_destroy(CbEngine *cb);

/*
 * CheckerBoard's getmove(): searches board for `color` and, when it finds a
 * move, writes the position after it into board and the move into *move.
 * maxtime is seconds a move; `info` carries CB_RESET_MOVES (a new game:
 * clear the table), CB_EXACT_TIME and the incremental-clock unit, in which
 * `moreinfo` packs the time left (high 16 bits) and the increment (low 16
 * bits). A nonzero *playnow (written by another thread) stops the search;
 * status (CB_STATUS_SIZE bytes) gets a one-line report during and after the
 * search. The history last given by "set gamehist" is used when it ends in
 * this board. Returns CB_WIN or CB_LOSS when the game is won or lost by the
 * rules after the move (or before it: board unchanged), CB_DRAW when it is
 * drawn after the move or already was (a move is played all the same),
 * CB_UNKNOWN when it goes on or the input was rejected (board unchanged,
 * the reason in status).
 */
int cbengine_getmove(CbEngine *cb, int board[8][8], int color, double maxtime, char *status,
                     volatile int *playnow, unsigned info, unsigned moreinfo, CbMove *move);

/*
 * CheckerBoard's enginecommand(): answers `command` into reply (reply_size
 * bytes, always NUL-terminated, never overrun). True when the command was
 * understood and done; false for an unknown or unsupported command (reply
 * "?") and for a rejected one (reply names the problem).
 */
bool cbengine_command(CbEngine *cb, const char *command, char *reply, size_t reply_size);

#endif
