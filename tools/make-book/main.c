/* SPDX-License-Identifier: GPL-3.0-or-later */
/* make-book: an opening book from deep searches of the early tree (doc/BOOK.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/book.h"
#include "poolshark/clock.h"
#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/search.h"
#include "poolshark/tt.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"
#include "cmdline.h"

enum { SEEN_BITS = 18, MAX_QUEUE = 1 << 17, WEIGHT_SCALE = 1000 };

typedef struct Settings {
	const char *out;
	long long depth, plies, full_plies, margin, max_moves, positions, hash_mb;
} Settings;

typedef struct Node {
	Position position;
	int ply;
} Node;

/* Keys already queued: open addressing, the key itself (never 0 in
 * practice; a 0 key would only be searched twice). */
typedef struct Seen {
	uint64_t slots[1 << SEEN_BITS];
} Seen;

static bool seen_add(Seen *s, uint64_t key)
{
	size_t mask = ((size_t)1 << SEEN_BITS) - 1, at = (size_t)key & mask;
	while (s->slots[at]) {
		if (s->slots[at] == key)
			return false;
		at = (at + 1) & mask;
	}
	s->slots[at] = key;
	return true;
}

/* The options into *s (its defaults first); false with the exit status. */
static bool parse_args(int argc, char **argv, Settings *s, int *status)
{
	*s = (Settings){NULL, 14, 8, 3, 10, 3, 1500, 64};
	const CmdlineOption options[] = {
	    cmdline_required(cmdline_text("out", "FILE", &s->out, "the book to write")),
	    cmdline_long("depth", "D", &s->depth, 1, 40, "the depth of every search (default 14)"),
	    cmdline_long("plies", "P", &s->plies, 1, 40, "the deepest ply (default 8)"),
	    cmdline_long("full-plies", "F", &s->full_plies, 0, 6,
	                 "the plies that follow every legal move (default 3)"),
	    cmdline_long("margin", "M", &s->margin, 0, 500,
	                 "hundredths of a man from the best a move may be (default 10)"),
	    cmdline_long("max-moves", "K", &s->max_moves, 1, 20, "moves a position at most (default 3)"),
	    cmdline_long("positions", "N", &s->positions, 1, 100000, "positions to search (default 1500)"),
	    cmdline_long("hash", "MB", &s->hash_mb, 1, 16384, "the table's size (default 64)"),
	};
	const Cmdline cmdline = {
	    .program = "make-book",
	    .synopsis = "usage: make-book --out FILE [OPTIONS]\n"
	                "\n"
	                "Searches positions breadth-first from the start, every root move scored to\n"
	                "depth D, and writes a book (doc/BOOK.md) of the moves within M hundredths\n"
	                "of a man of the best, at most K a position, weighted by how close they are.\n"
	                "The first F plies follow every legal move, later ones only the book moves,\n"
	                "up to P plies or N searched positions. A position with one legal move is\n"
	                "passed through, not stored.\n",
	    .options = options,
	    .count = sizeof options / sizeof options[0],
	};
	return cmdline_parse(&cmdline, argc, argv, status);
}

/* The scored root moves of one search, best first. */
typedef struct Scored {
	Move move;
	int score;
} Scored;

static int compare_scored(const void *a, const void *b)
{
	const Scored *x = a, *y = b;
	return y->score - x->score;
}

/* Scores every move of *p at s->depth; returns how many, best first. */
static int score_moves(Search *search, TT *tt, const Position *p, const Settings *s, Scored *out)
{
	SearchRoot root;
	search_root_from_position(p, &root);
	SearchLimits limits = {.depth = (int)s->depth, .score_all_moves = true};
	SearchResult result;
	search_run(search, tt, &root, &limits, NULL, &result);
	Move moves[MOVELIST_CAPACITY];
	int scores[MOVELIST_CAPACITY];
	int n = search_root_scores(search, moves, scores, MOVELIST_CAPACITY);
	for (int i = 0; i < n; i++)
		out[i] = (Scored){moves[i], scores[i]};
	qsort(out, (size_t)n, sizeof *out, compare_scored);
	return n;
}

static int run(int argc, char **argv)
{
	Settings s;
	int status;
	if (!parse_args(argc, argv, &s, &status))
		return status;
	Node *queue = malloc(MAX_QUEUE * sizeof *queue);
	Seen *seen = calloc(1, sizeof *seen);
	BookEntry *entries = malloc((size_t)s.positions * (size_t)s.max_moves * sizeof *entries);
	Search *search = search_create();
	TT tt = {0};
	status = 1;
	if (!queue || !seen || !entries || !search || !tt_init(&tt, (size_t)s.hash_mb)) {
		fprintf(stderr, "make-book: out of memory\n");
		goto done;
	}
	int head = 0, tail = 0, count = 0, searched = 0;
	position_start(&queue[tail].position);
	queue[tail++].ply = 0;
	seen_add(seen, queue[0].position.key);
	int64_t started = clock_now_ms();

	while (head < tail && searched < s.positions) {
		Node node = queue[head++];
		MoveList legal;
		movegen_generate(&node.position, &legal);
		Scored scored[MOVELIST_CAPACITY];
		int kept = 0;
		if (legal.count > 1) {
			int n = score_moves(search, &tt, &node.position, &s, scored);
			searched++;
			for (int i = 0;
			     i < n && kept < s.max_moves && scored[0].score - scored[i].score <= s.margin;
			     i++)
				kept++;
			for (int i = 0; i < kept; i++) {
				long long left = s.margin + 1 - (scored[0].score - scored[i].score);
				long long weight =
				    WEIGHT_SCALE * left * left / ((s.margin + 1) * (s.margin + 1));
				entries[count++] = (BookEntry){node.position.key, scored[i].move,
				                               (uint16_t)(weight < 1 ? 1 : weight)};
			}
		} else {
			scored[0].move = legal.moves[0];
			kept = legal.count;
		}
		/* The children to visit: every move early on, then the book's. */
		bool every = node.ply < s.full_plies || legal.count == 1;
		int children = every ? legal.count : kept;
		for (int i = 0; i < children && node.ply + 1 < s.plies; i++) {
			Move m = every ? legal.moves[i] : scored[i].move;
			Node child = {.ply = node.ply + 1};
			position_make(&node.position, m, &child.position);
			if (tail < MAX_QUEUE && movegen_has_moves(&child.position) &&
			    seen_add(seen, child.position.key))
				queue[tail++] = child;
		}
		if (legal.count > 1 && (searched % 50 == 0 || searched == s.positions))
			fprintf(stderr, "%d positions searched (ply %d), %d moves, %d queued, %.0f s\n",
			        searched, node.ply, count, tail - head,
			        (double)(clock_now_ms() - started) / 1000.0);
	}
	char error[BOOK_ERROR_MAX];
	if (!book_write(s.out, entries, count, error, sizeof error)) {
		fprintf(stderr, "make-book: %s\n", error);
		goto done;
	}
	fprintf(stderr, "wrote %s: %d moves from %d positions searched at depth %lld, %.0f s\n", s.out, count,
	        searched, s.depth, (double)(clock_now_ms() - started) / 1000.0);
	status = 0;
done: /* the one way out after the allocations, failed or not */
	tt_free(&tt);
	search_destroy(search);
	free(entries);
	free(seen);
	free(queue);
	return status;
}

/* The results go to standard output: a write that failed fails the run. */
int main(int argc, char **argv)
{
	if (version_option(argc, argv, "make-book"))
		return textfile_exit("make-book", 0);
	return textfile_exit("make-book", run(argc, argv));
}
