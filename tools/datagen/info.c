/* SPDX-License-Identifier: GPL-3.0-or-later */
/* datagen info and merge: a file's header and label statistics; the shards of one run joined. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/score.h"
#include "poolshark/variant.h"
#include "cmdline.h"
#include "datagen.h"
#include "posdata.h"

static double percent(long long part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Score buckets of the histogram, in hundredths of a man; decisive scores apart. */
static const int bucket_edges[] = {-400, -100, -25, 25, 100, 400};
enum { BUCKETS = sizeof bucket_edges / sizeof bucket_edges[0] + 1 };

static int bucket_of(int score)
{
	int b = 0;
	while (b < BUCKETS - 1 && score >= bucket_edges[b])
		b++;
	return b;
}

/* The statistics of one file on standard output; the exit status. */
static int print_info(const char *path)
{
	PosdataFile f;
	char err[POSDATA_ERROR_MAX + 1100];
	if (!posdata_load(path, &f, err, sizeof err)) {
		fprintf(stderr, "datagen info: %s\n", err);
		return 1;
	}
	const PosdataHeader *h = &f.header;
	long long results[3] = {0}, egdb[3] = {0}, egdb_agree = 0, adjudicated = 0, capped = 0,
	          decisive[2] = {0};
	long long buckets[BUCKETS] = {0};
	long long games = 0;
	int ply_max = 0, pieces_min = 24;
	double score_sum = 0;
	uint32_t last_game = UINT32_MAX;
	for (uint64_t i = 0; i < h->count; i++) {
		const PosdataRecord *r = &f.records[i];
		results[r->result]++;
		if (r->has_egdb) {
			egdb[r->egdb]++;
			egdb_agree += r->egdb == r->result;
		}
		adjudicated += (r->flags & POSDATA_FLAG_ADJUDICATED) != 0;
		capped += (r->flags & POSDATA_FLAG_PLY_CAP) != 0;
		if (score_is_decisive(r->score))
			decisive[r->score < 0]++;
		else {
			buckets[bucket_of(r->score)]++;
			score_sum += r->score;
		}
		if (r->game != last_game)
			games++;
		last_game = r->game;
		ply_max = r->ply > ply_max ? r->ply : ply_max;
		int pieces = bb_count(position_occupied(&r->pos));
		pieces_min = pieces < pieces_min ? pieces : pieces_min;
	}
	long long evaluated = (long long)h->count - decisive[0] - decisive[1];
	printf("file:      %s\n", path);
	printf("format:    version %d, %s, %" PRIu64 " records of %d bytes, checksum %016" PRIx64 " (good)\n",
	       POSDATA_VERSION, variant_rules(h->variant)->name, h->count, POSDATA_RECORD_SIZE, h->checksum);
	printf("generated: %" PRIu64 " nodes a move, seed %" PRIu64 ", ", h->nodes, h->seed);
	if (h->egdb_pieces)
		printf("database labels up to %d pieces\n", h->egdb_pieces);
	else
		printf("no database labels\n");
	printf("games:     %lld with positions; plies up to %d; fewest pieces %d\n", games, ply_max,
	       h->count ? pieces_min : 0);
	printf("results:   win %lld (%.1f%%), draw %lld (%.1f%%), loss %lld (%.1f%%) for the side to move;"
	       " %lld adjudicated by the databases, %lld at the ply cap\n",
	       results[POSDATA_WIN], percent(results[POSDATA_WIN], h->count), results[POSDATA_DRAW],
	       percent(results[POSDATA_DRAW], h->count), results[POSDATA_LOSS],
	       percent(results[POSDATA_LOSS], h->count), adjudicated, capped);
	printf(
	    "databases: %lld labelled (win %lld, draw %lld, loss %lld), %lld agree with the game's result\n",
	    egdb[0] + egdb[1] + egdb[2], egdb[POSDATA_WIN], egdb[POSDATA_DRAW], egdb[POSDATA_LOSS],
	    egdb_agree);
	printf("scores:    mean %+.1f over %lld evaluated; %lld won and %lld lost (forced ends)\n",
	       evaluated ? score_sum / (double)evaluated : 0.0, evaluated, decisive[0], decisive[1]);
	printf("histogram:");
	for (int b = 0; b < BUCKETS; b++) {
		if (b == 0)
			printf(" <%d: %lld", bucket_edges[0], buckets[b]);
		else if (b == BUCKETS - 1)
			printf(", >=%d: %lld", bucket_edges[b - 1], buckets[b]);
		else
			printf(", %d..%d: %lld", bucket_edges[b - 1], bucket_edges[b] - 1, buckets[b]);
	}
	printf(" (hundredths of a man)\n");
	posdata_free(&f);
	return ferror(stdout) ? 1 : 0;
}

int datagen_info(int argc, char **argv)
{
	CmdlineOperands files = {NULL, 0};
	const Cmdline cmdline = {
	    .program = "datagen info",
	    .synopsis = "usage: datagen info FILE\n"
	                "The header and the label statistics of a training data file (doc/EVAL.md).\n",
	    .operands = &files,
	};
	int status;
	if (!cmdline_parse(&cmdline, argc, argv, &status))
		return status;
	status = files.count == 1 ? print_info(files.words[0])
	                          : cmdline_fail(&cmdline, "one FILE, not %d", files.count);
	cmdline_operands_free(&files);
	return status;
}

static int by_game_and_ply(const void *a, const void *b)
{
	const PosdataRecord *x = a, *y = b;
	if (x->game != y->game)
		return x->game < y->game ? -1 : 1;
	return (x->ply > y->ply) - (x->ply < y->ply);
}

/* The records of the files in[0..files) into one file at `out`, in game order; the exit status. */
static int merge(const char *out, const char *const *in, int files)
{
	char err[POSDATA_ERROR_MAX + 1100];
	PosdataHeader header = {.count = 0};
	PosdataRecord *all = NULL;
	size_t count = 0;
	int status = 1;
	for (int i = 0; i < files; i++) {
		PosdataFile f;
		if (!posdata_load(in[i], &f, err, sizeof err)) {
			fprintf(stderr, "datagen merge: %s\n", err);
			goto done;
		}
		const PosdataHeader *h = &f.header;
		if (i == 0)
			header = *h;
		else if (h->variant != header.variant || h->egdb_pieces != header.egdb_pieces ||
		         h->nodes != header.nodes || h->seed != header.seed) {
			fprintf(stderr,
			        "datagen merge: %s: another run (rule set, databases, nodes or seed differ "
			        "from %s)\n",
			        in[i], in[0]);
			posdata_free(&f);
			goto done;
		}
		PosdataRecord *grown = realloc(all, (count + h->count + 1) * sizeof *grown);
		if (!grown) {
			fprintf(stderr, "datagen merge: out of memory\n");
			posdata_free(&f);
			goto done;
		}
		all = grown;
		memcpy(all + count, f.records, h->count * sizeof *all);
		count += h->count;
		posdata_free(&f);
	}
	qsort(all, count, sizeof *all, by_game_and_ply);
	for (size_t i = 1; i < count; i++)
		if (all[i].game == all[i - 1].game && all[i].ply == all[i - 1].ply) {
			fprintf(stderr,
			        "datagen merge: game %" PRIu32 " is in two inputs (a shard given twice?)\n",
			        all[i].game);
			goto done;
		}
	/* The generator keeps a position's first occurrence in game order; so does this. */
	KeySet seen;
	PosdataWriter writer;
	if (!keyset_init(&seen)) {
		fprintf(stderr, "datagen merge: out of memory\n");
		goto done;
	}
	if (!posdata_writer_open(&writer, out, &header, err, sizeof err)) {
		fprintf(stderr, "datagen merge: %s\n", err);
		keyset_free(&seen);
		goto done;
	}
	bool ok = true;
	long long dropped = 0;
	for (size_t i = 0; i < count && ok; i++) {
		bool added;
		ok = keyset_add(&seen, all[i].pos.key, &added) &&
		     (!added || posdata_writer_add(&writer, &all[i]));
		dropped += !added;
	}
	keyset_free(&seen);
	if (!ok) {
		fprintf(stderr, "datagen merge: %s: write error or out of memory\n", out);
		posdata_writer_abandon(&writer);
		goto done;
	}
	if (!posdata_writer_close(&writer, err, sizeof err)) {
		fprintf(stderr, "datagen merge: %s\n", err);
		goto done;
	}
	fprintf(stderr, "datagen merge: %s: %" PRIu64 " positions from %d files, %lld duplicates dropped\n",
	        out, writer.header.count, files, dropped);
	status = 0;
done:
	free(all);
	return status;
}

int datagen_merge(int argc, char **argv)
{
	const char *out = NULL;
	CmdlineOperands in = {NULL, 0};
	const CmdlineOption options[] = {
	    cmdline_required(cmdline_text("out", "FILE", &out, "the file to write")),
	};
	const Cmdline cmdline = {
	    .program = "datagen merge",
	    .synopsis = "usage: datagen merge --out FILE IN...\n"
	                "Joins the shards of one run (datagen gen --shard K/N) into one file.\n",
	    .options = options,
	    .count = sizeof options / sizeof options[0],
	    .operands = &in,
	};
	int status;
	if (!cmdline_parse(&cmdline, argc, argv, &status))
		return status;
	status = in.count ? merge(out, in.words, in.count) : cmdline_fail(&cmdline, "no IN file to join");
	cmdline_operands_free(&in);
	return status;
}
