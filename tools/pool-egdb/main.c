/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pool-egdb: builds, verifies and inspects the endgame databases (doc/EGDB.md). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "egdbtool.h"
#include "poolshark/notation.h"
#include "poolshark/number.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"

static const char usage_text[] =
    "usage: pool-egdb build  [--dir DIR] [--pieces N] [--threads T] [--only CLASS] [--quiet]\n"
    "                        [--step1 K/M | --from-step1 M]\n"
    "       pool-egdb verify [--dir DIR] [--pieces N] [--threads T] [--only CLASS] [--slice K/M]\n"
    "       pool-egdb plan   [--pieces N]      the pairs to solve: group, index in group, class\n"
    "       pool-egdb info   [--dir DIR] [--pieces N]\n"
    "       pool-egdb probe  [--dir DIR] FEN\n"
    "       pool-egdb fit-plan [--dir DIR] > src/eval/kings_plan_weights.c\n"
    "                        the plan of three kings against one, fitted to DIR's distances\n"
    "\n"
    "DIR defaults to databases, N to 5 (2..8), T to 1. build keeps finished classes\n"
    "(a rerun resumes); --only builds or verifies one pair (X v Y and Y v X)\n"
    "whose dependencies exist, as a batch job does; --slice K/M verifies the\n"
    "K-th of M equal index ranges of every class (a job of an array). With --only,\n"
    "--step1 K/M runs only the forward step on the K-th of M index ranges and\n"
    "leaves its summary in DIR; --from-step1 M finishes the pair from the M\n"
    "summaries (doc/EGDB.md, scripts/egdb-slurm --slices).\n";

enum { MAX_PAIRS = 2048 };

typedef struct Args {
	const char *dir;
	int pieces;
	bool pieces_given; /* --pieces was on the command line */
	int threads;
	bool quiet;
	const char *only;
	const char *fen;
	int slice, slices;       /* verify: slice (0-based) of slices */
	int step1, step1_slices; /* build: -1 or the forward slice (0-based); 0 or M */
} Args;

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "pool-egdb: %s%s%s\n%s", what, arg ? ": " : "", arg ? arg : "", usage_text);
	return 2;
}

static bool parse_number(const char *text, long long low, long long high, int *out)
{
	long long v;
	if (number_parse(text, low, high, &v))
		return false;
	*out = (int)v;
	return true;
}

/* "K/M" with 1 <= K <= M: *slice = K - 1, *slices = M. */
static bool parse_slice(const char *text, int *slice, int *slices)
{
	char k[16], m[16];
	const char *slash = strchr(text, '/');
	int kn = 0, mn = 0;
	if (!slash || (size_t)(slash - text) >= sizeof k || strlen(slash + 1) >= sizeof m)
		return false;
	memcpy(k, text, (size_t)(slash - text));
	k[slash - text] = '\0';
	snprintf(m, sizeof m, "%s", slash + 1);
	if (!parse_number(m, 1, 1000000, &mn) || !parse_number(k, 1, mn, &kn))
		return false;
	*slice = kn - 1;
	*slices = mn;
	return true;
}

static int parse_args(int argc, char **argv, Args *a)
{
	a->dir = "databases";
	a->pieces = 5;
	a->pieces_given = false;
	a->threads = 1;
	a->quiet = false;
	a->only = NULL;
	a->fen = NULL;
	a->slice = 0;
	a->slices = 1;
	a->step1 = -1;
	a->step1_slices = 0;
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		bool has_value = i + 1 < argc;
		if (!strcmp(o, "--dir") && has_value)
			a->dir = argv[++i];
		else if (!strcmp(o, "--pieces") && has_value) {
			if (!parse_number(argv[++i], 2, EGDB_MAX_PIECES, &a->pieces))
				return usage_error("--pieces wants 2..8", argv[i]);
			a->pieces_given = true;
		} else if (!strcmp(o, "--threads") && has_value) {
			if (!parse_number(argv[++i], 1, 64, &a->threads))
				return usage_error("--threads wants 1..64", argv[i]);
		} else if (!strcmp(o, "--slice") && has_value) {
			if (!parse_slice(argv[++i], &a->slice, &a->slices))
				return usage_error("--slice wants K/M with 1 <= K <= M", argv[i]);
		} else if (!strcmp(o, "--step1") && has_value) {
			if (!parse_slice(argv[++i], &a->step1, &a->step1_slices))
				return usage_error("--step1 wants K/M with 1 <= K <= M", argv[i]);
		} else if (!strcmp(o, "--from-step1") && has_value) {
			if (!parse_number(argv[++i], 1, 1000000, &a->step1_slices))
				return usage_error("--from-step1 wants a slice count", argv[i]);
		} else if (!strcmp(o, "--only") && has_value)
			a->only = argv[++i];
		else if (!strcmp(o, "--quiet"))
			a->quiet = true;
		else if (o[0] != '-' && !a->fen)
			a->fen = o;
		else
			return usage_error("unknown or incomplete option", o);
	}
	return 0;
}

static bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static double now_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The pairs to work on: all up to --pieces, or the one --only names. */
static int select_pairs(const Args *a, EgdbClass *pairs, int *groups)
{
	int n = egdb_class_pairs(a->pieces, pairs, groups, MAX_PAIRS);
	if (!a->only)
		return n;
	EgdbClass c;
	if (!egdb_class_parse(a->only, &c)) {
		fprintf(stderr, "pool-egdb: --only wants a class such as m0k2-m0k1: %s\n", a->only);
		return -1;
	}
	EgdbClass all[MAX_PAIRS];
	int total = egdb_class_pairs(EGDB_MAX_PIECES, all, NULL, MAX_PAIRS);
	for (int i = 0; i < total; i++)
		if (egdb_class_equal(all[i], c) || egdb_class_equal(egdb_class_swap(all[i]), c)) {
			pairs[0] = all[i];
			groups[0] = 0;
			return 1;
		}
	fprintf(stderr, "pool-egdb: no such class: %s\n", a->only);
	return -1;
}

static int cmd_build(const Args *a)
{
	if (mkdir(a->dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "pool-egdb: cannot create %s: %s\n", a->dir, strerror(errno));
		return 1;
	}
	static EgdbClass pairs[MAX_PAIRS];
	static int groups[MAX_PAIRS];
	int n = select_pairs(a, pairs, groups);
	if (n < 0)
		return 2;
	Store st;
	memset(&st, 0, sizeof st);
	st.dir = a->dir;
	if (a->step1_slices && !a->only) {
		fprintf(stderr, "pool-egdb: --step1 and --from-step1 work on one pair (--only)\n");
		return 2;
	}
	BuildOptions o = {a->threads, a->quiet, a->step1_slices, a->step1};
	double t0 = now_seconds();
	int built = 0, kept = 0;
	for (int i = 0; i < n; i++) {
		char p0[4096], p1[4096];
		store_path(&st, pairs[i], p0, sizeof p0);
		store_path(&st, egdb_class_swap(pairs[i]), p1, sizeof p1);
		if (file_exists(p0) && file_exists(p1) && a->step1 < 0) {
			kept++;
			continue; /* finished before: the build resumes after it */
		}
		if (!solve_pair(&st, pairs[i], &o)) {
			store_free(&st);
			return 1;
		}
		built++;
	}
	store_free(&st);
	if (!a->quiet)
		printf("built %d pairs, kept %d, in %.1f s\n", built, kept, now_seconds() - t0);
	return 0;
}

static int cmd_verify(const Args *a)
{
	static EgdbClass pairs[MAX_PAIRS];
	static int groups[MAX_PAIRS];
	int n = select_pairs(a, pairs, groups);
	if (n < 0)
		return 2;
	Store st;
	memset(&st, 0, sizeof st);
	st.dir = a->dir;
	uint64_t checked = 0, bad = 0;
	double t0 = now_seconds();
	bool ok = true;
	for (int i = 0; i < n && ok; i++) {
		EgdbClass both[2] = {pairs[i], egdb_class_swap(pairs[i])};
		for (int t = 0; t < (egdb_class_equal(both[0], both[1]) ? 1 : 2) && ok; t++)
			ok = verify_class(&st, both[t], a->threads, a->slice, a->slices, &checked, &bad);
	}
	store_free(&st);
	printf("verified %llu positions in %d pairs: %llu mismatches, %.1f s\n", (unsigned long long)checked,
	       n, (unsigned long long)bad, now_seconds() - t0);
	if (!ok)
		printf("verify failed: a file is missing or corrupt\n");
	return ok && bad == 0 ? 0 : 1;
}

static int cmd_plan(const Args *a)
{
	static EgdbClass pairs[MAX_PAIRS];
	static int groups[MAX_PAIRS];
	int n = egdb_class_pairs(a->pieces, pairs, groups, MAX_PAIRS);
	for (int i = 0, k = 0; i < n; i++) {
		k = i > 0 && groups[i] == groups[i - 1] ? k + 1 : 0;
		char name[32];
		egdb_class_name(pairs[i], name, sizeof name);
		printf("%d %d %s %llu\n", groups[i], k, name,
		       (unsigned long long)(egdb_class_size(pairs[i]) +
		                            (egdb_class_equal(pairs[i], egdb_class_swap(pairs[i]))
		                                 ? 0
		                                 : egdb_class_size(egdb_class_swap(pairs[i])))));
	}
	return 0;
}

/* The most pieces of a database file in dir (0 when it holds none), or -1
 * with a message when dir cannot be read. */
static int largest_class_in(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "pool-egdb: cannot read database directory '%s': %s\n", dir, strerror(errno));
		return -1;
	}
	int largest = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char stem[32];
		size_t n = strlen(e->d_name);
		EgdbClass c;
		if (n <= 5 || n - 5 >= sizeof stem || strcmp(e->d_name + n - 5, ".egdb"))
			continue;
		memcpy(stem, e->d_name, n - 5);
		stem[n - 5] = '\0';
		if (egdb_class_parse(stem, &c) && egdb_class_pieces(&c) > largest)
			largest = egdb_class_pieces(&c);
	}
	closedir(d);
	return largest;
}

static int cmd_info(const Args *a)
{
	static EgdbClass pairs[MAX_PAIRS];
	/* Without --pieces, the set is as large as its largest file: a
	 * 4-piece set is complete, not 44 files short of 5 pieces. */
	int pieces = a->pieces;
	if (!a->pieces_given) {
		pieces = largest_class_in(a->dir);
		if (pieces < 0)
			return 1;
		if (pieces == 0) {
			fprintf(stderr, "pool-egdb: no endgame database files (*.egdb) in '%s'\n", a->dir);
			return 1;
		}
	}
	int n = egdb_class_pairs(pieces, pairs, NULL, MAX_PAIRS);
	Store st;
	memset(&st, 0, sizeof st);
	st.dir = a->dir;
	uint64_t positions = 0, bytes = 0, longest = 0;
	int files = 0, missing = 0;
	printf("%-10s %12s %12s %12s %12s %6s %6s %10s\n", "class", "positions", "wins", "draws", "losses",
	       "win", "loss", "bytes");
	for (int i = 0; i < n; i++) {
		EgdbClass both[2] = {pairs[i], egdb_class_swap(pairs[i])};
		for (int t = 0; t < (egdb_class_equal(both[0], both[1]) ? 1 : 2); t++) {
			size_t size;
			EgdbHeader h;
			char path[4096];
			store_path(&st, both[t], path, sizeof path);
			if (!file_exists(path)) {
				missing++;
				continue;
			}
			uint8_t *img = store_read_file(&st, both[t], &size, &h);
			if (!img)
				return 1;
			free(img);
			char name[32];
			egdb_class_name(both[t], name, sizeof name);
			printf("%-10s %12llu %12llu %12llu %12llu %6u %6u %10zu\n", name,
			       (unsigned long long)(h.positions - h.invalid), (unsigned long long)h.wins,
			       (unsigned long long)h.draws, (unsigned long long)h.losses, h.longest_win,
			       h.longest_loss, size);
			positions += h.positions - h.invalid;
			bytes += size;
			longest = h.longest_win > longest ? h.longest_win : longest;
			files++;
		}
	}
	printf("%d files, %d missing, %llu positions, %llu bytes, longest win %llu plies\n", files, missing,
	       (unsigned long long)positions, (unsigned long long)bytes, (unsigned long long)longest);
	return missing ? 1 : 0;
}

static int cmd_probe(const Args *a)
{
	if (!a->fen)
		return usage_error("probe wants a FEN", NULL);
	Position p;
	char err[128];
	if (!notation_parse_fen(a->fen, VARIANT_POOL, &p, err, sizeof err))
		return usage_error(err, a->fen);
	Egdb *db = egdb_open(a->dir, err, sizeof err);
	if (!db) {
		fprintf(stderr, "pool-egdb: %s\n", err);
		return 1;
	}
	uint8_t v;
	bool found = egdb_probe(db, &p, &v);
	egdb_close(db);
	if (!found) {
		printf("not in the database\n");
		return 1;
	}
	EgdbResult r = egdb_value_result(v);
	if (r == EGDB_DRAW)
		printf("draw\n");
	else
		printf("%s in %d plies\n", r == EGDB_WIN ? "win" : "loss", egdb_value_distance(v));
	return 0;
}

static int run(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		fputs(usage_text, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	Args a;
	int status = parse_args(argc, argv, &a);
	if (status)
		return status;
	if (!strcmp(argv[1], "build"))
		return cmd_build(&a);
	if (!strcmp(argv[1], "verify"))
		return cmd_verify(&a);
	if (!strcmp(argv[1], "plan"))
		return cmd_plan(&a);
	if (!strcmp(argv[1], "info"))
		return cmd_info(&a);
	if (!strcmp(argv[1], "probe"))
		return cmd_probe(&a);
	if (!strcmp(argv[1], "fit-plan"))
		return a.fen ? usage_error("fit-plan takes no position", a.fen)
		             : egdb_fit_plan(a.dir, stdout);
	return usage_error("unknown command", argv[1]);
}

/* The results go to standard output: a write that failed fails the run. */
int main(int argc, char **argv)
{
	if (version_option(argc, argv, "pool-egdb"))
		return textfile_exit("pool-egdb", 0);
	return textfile_exit("pool-egdb", run(argc, argv));
}
