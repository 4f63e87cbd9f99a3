/* SPDX-License-Identifier: GPL-3.0-or-later */
/* datagen walk: endgame positions reached by random moves, labelled by the databases. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/clock.h"
#include "poolshark/egdb.h"
#include "poolshark/movegen.h"
#include "poolshark/random.h"
#include "poolshark/score.h"
#include "cmdline.h"
#include "datagen.h"
#include "posdata.h"

typedef struct WalkOptions {
	const char *out, *egdb_dir;
	CmdlineOperands inputs; /* DATA */
	int walks, plies, source_pieces;
	int max_difference; /* of the sides' piece counts in a written position */
	long long seed;
	bool quiet;
} WalkOptions;

/* The options into *o (its defaults first); false with the exit status. */
static bool parse_walk_options(int argc, char **argv, WalkOptions *o, int *status)
{
	*o =
	    (WalkOptions){.walks = 100000, .plies = 12, .source_pieces = 10, .max_difference = 24, .seed = 1};
	const CmdlineOption options[] = {
	    cmdline_required(cmdline_text("out", "FILE", &o->out, "the training data file to write")),
	    cmdline_int("walks", "N", &o->walks, 1, 1000000000, "walks (default 100000)"),
	    cmdline_int("plies", "P", &o->plies, 1, 200, "random moves a walk at most (default 12)"),
	    cmdline_int("source-pieces", "S", &o->source_pieces, 2, 24,
	                "the most pieces of a starting position (default 10)"),
	    cmdline_long("seed", "X", &o->seed, 0, 1LL << 62, "of every walk (default 1)"),
	    cmdline_int("max-difference", "D", &o->max_difference, 0, 24,
	                "the sides' piece counts differ by at most D (default 24: any)"),
	    cmdline_text("egdb", "DIR", &o->egdb_dir, "the endgame databases (default: beside the program)"),
	    cmdline_on("quiet", &o->quiet, "no progress on stderr"),
	};
	const Cmdline cmdline = {
	    .program = "datagen walk",
	    .synopsis = "usage: datagen walk --out FILE [OPTIONS] DATA...\n"
	                "Pool only. Walk i picks a position of at most S pieces from the DATA files at\n"
	                "random and plays 1..P random legal moves from it; every position on the way\n"
	                "that the endgame databases of DIR hold, whose side to move has a move and no\n"
	                "capture, is written, labelled with the databases' value (as result and score;\n"
	                "doc/EVAL.md), when its sides' piece counts differ by at most D. N walks from\n"
	                "the seed alone give the same file; a position already written is dropped.\n",
	    .options = options,
	    .count = sizeof options / sizeof options[0],
	    .operands = &o->inputs,
	};
	if (!cmdline_parse(&cmdline, argc, argv, status))
		return false;
	const char *wrong = o->inputs.count == 0 ? "no DATA file to start from"
	                    : o->egdb_dir && !strcmp(o->egdb_dir, "none")
	                        ? "the labels come from the databases; --egdb none leaves none"
	                        : NULL;
	if (!wrong)
		return true;
	cmdline_operands_free(&o->inputs);
	*status = cmdline_fail(&cmdline, "%s", wrong);
	return false;
}

/* The starting positions: the positions of at most --source-pieces pieces
 * of every input file (pool files only). False with a message when a file
 * cannot be used. */
static bool read_sources(const WalkOptions *o, Position **out, size_t *count)
{
	size_t capacity = 0;
	*out = NULL;
	*count = 0;
	for (int f = 0; f < o->inputs.count; f++) {
		PosdataFile file;
		char err[POSDATA_ERROR_MAX + 1100];
		if (!posdata_load(o->inputs.words[f], &file, err, sizeof err)) {
			fprintf(stderr, "datagen walk: %s\n", err);
			return false;
		}
		if (file.header.variant != VARIANT_POOL) {
			fprintf(stderr, "datagen walk: %s: a %s file; the databases are pool's\n",
			        o->inputs.words[f], variant_rules(file.header.variant)->name);
			posdata_free(&file);
			return false;
		}
		for (uint64_t i = 0; i < file.header.count; i++) {
			const Position *p = &file.records[i].pos;
			if (bb_count(position_occupied(p)) > o->source_pieces)
				continue;
			if (*count == capacity) {
				capacity = capacity ? 2 * capacity : 4096;
				Position *grown = realloc(*out, capacity * sizeof *grown);
				if (!grown) {
					fprintf(stderr, "datagen walk: out of memory\n");
					posdata_free(&file);
					return false;
				}
				*out = grown;
			}
			(*out)[(*count)++] = *p;
		}
		posdata_free(&file);
	}
	if (*count == 0) {
		fprintf(stderr, "datagen walk: no position of at most %d pieces in the DATA files\n",
		        o->source_pieces);
		return false;
	}
	return true;
}

/* A database value as a record's labels: result, database label and
 * score (a draw, or a forced end at the databases' distance). */
static void label_from_egdb(uint8_t value, PosdataRecord *r)
{
	int distance = egdb_value_distance(value);
	r->result = datagen_egdb_label(value);
	r->score = r->result == POSDATA_DRAW  ? SCORE_DRAW
	           : r->result == POSDATA_WIN ? SCORE_WIN - distance
	                                      : -SCORE_WIN + distance;
	r->has_egdb = true;
	r->egdb = r->result;
}

typedef struct WalkTotals {
	long long written, duplicates, results[3];
} WalkTotals;

/* Walk `number` from a source position; writes its new positions. -1 on a
 * database class that cannot be read, -2 on a write error, else 0. */
static int walk_one(const WalkOptions *o, Egdb *db, int egdb_pieces, const Position *sources,
                    size_t source_count, int number, KeySet *seen, PosdataWriter *writer, WalkTotals *t)
{
	uint64_t rng = datagen_rng(o->seed, number);
	Position p = sources[random_below(&rng, (uint64_t)source_count)];
	int length = 1 + (int)random_below(&rng, (uint64_t)o->plies);
	for (int ply = 1; ply <= length; ply++) {
		MoveList list;
		if (movegen_generate(&p, &list) == 0)
			break;
		Position next;
		position_make(&p, list.moves[random_below(&rng, (uint64_t)list.count)], &next);
		p = next;
		int difference = bb_count(p.pieces[BLACK]) - bb_count(p.pieces[WHITE]);
		if (bb_count(position_occupied(&p)) > egdb_pieces || movegen_has_capture(&p) ||
		    !movegen_has_moves(&p) || abs(difference) > o->max_difference)
			continue;
		uint8_t value;
		if (!egdb_probe(db, &p, &value))
			return -1;
		bool added;
		if (!keyset_add(seen, p.key, &added))
			return -2;
		if (!added) {
			t->duplicates++;
			continue;
		}
		PosdataRecord r = {.pos = p, .ply = ply, .game = (uint32_t)number};
		label_from_egdb(value, &r);
		if (!posdata_writer_add(writer, &r))
			return -2;
		t->written++;
		t->results[r.result]++;
	}
	return 0;
}

/* The walks of *o into its file; the exit status. */
static int walk_all(const WalkOptions *o)
{
	char err[1200], default_dir[1024];
	const char *dir = o->egdb_dir;
	if (!dir) {
		egdb_default_dir(default_dir, sizeof default_dir);
		dir = default_dir;
	}
	if (!dir[0]) {
		fprintf(stderr, "datagen walk: no databases beside the program; name them with --egdb DIR\n");
		return 1;
	}
	Egdb *db = egdb_open(dir, VARIANT_POOL, err, sizeof err);
	if (!db) {
		fprintf(stderr, "datagen walk: --egdb %s: %s\n", dir, err);
		return 1;
	}
	int egdb_pieces = egdb_max_pieces(db);
	Position *sources = NULL;
	size_t source_count = 0;
	KeySet seen = {.slots = NULL};
	PosdataWriter writer = {.file = NULL};
	PosdataHeader header = {
	    .variant = VARIANT_POOL, .egdb_pieces = egdb_pieces, .seed = (uint64_t)o->seed};
	int status = 1;
	if (egdb_pieces < 2) {
		fprintf(stderr, "datagen walk: --egdb %s: no complete set of databases\n", dir);
		goto done;
	}
	if (!read_sources(o, &sources, &source_count))
		goto done;
	if (!keyset_init(&seen)) {
		fprintf(stderr, "datagen walk: out of memory\n");
		goto done;
	}
	if (!posdata_writer_open(&writer, o->out, &header, err, sizeof err)) {
		fprintf(stderr, "datagen walk: %s\n", err);
		goto done;
	}
	int64_t start_ms = clock_now_ms();
	WalkTotals t = {0};
	for (int i = 0; i < o->walks; i++) {
		int failure = walk_one(o, db, egdb_pieces, sources, source_count, i, &seen, &writer, &t);
		if (failure) {
			fprintf(stderr, "datagen walk: walk %d: %s\n", i,
			        failure == -1 ? "an endgame database class is unreadable"
			                      : "out of memory or a write error");
			posdata_writer_abandon(&writer);
			goto done;
		}
		if (!o->quiet && (i + 1) % 100000 == 0)
			fprintf(stderr,
			        "datagen walk: %d/%d walks, %lld positions (%lld duplicates dropped)\n",
			        i + 1, o->walks, t.written, t.duplicates);
	}
	if (!posdata_writer_close(&writer, err, sizeof err)) {
		fprintf(stderr, "datagen walk: %s\n", err);
		goto done;
	}
	if (!o->quiet)
		fprintf(stderr,
		        "datagen walk: %s: %lld positions of %d walks from %zu sources (win %lld, draw %lld, "
		        "loss %lld for the side to move), %lld duplicates dropped, %.1f s\n",
		        o->out, t.written, o->walks, source_count, t.results[POSDATA_WIN],
		        t.results[POSDATA_DRAW], t.results[POSDATA_LOSS], t.duplicates,
		        (double)(clock_now_ms() - start_ms) / 1000.0);
	status = 0;
done:
	keyset_free(&seen);
	free(sources);
	egdb_close(db);
	return status;
}

int datagen_walk(int argc, char **argv)
{
	WalkOptions o;
	int status;
	if (!parse_walk_options(argc, argv, &o, &status))
		return status;
	status = walk_all(&o);
	cmdline_operands_free(&o.inputs);
	return status;
}
