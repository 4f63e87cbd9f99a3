/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pool-egdb: builds, verifies and inspects the endgame databases (doc/EGDB.md). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cmdline.h"
#include "egdbtool.h"
#include "poolshark/notation.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"

static const char synopsis[] =
    "usage: pool-egdb build  [--variant V] [--dir DIR] [--pieces N] [--threads T] [--only CLASS]\n"
    "                        [--quiet] [--step1 K/M | --from-step1 M]\n"
    "       pool-egdb verify [--variant V] [--dir DIR] [--pieces N] [--threads T] [--only CLASS]\n"
    "                        [--slice K/M]\n"
    "       pool-egdb plan   [--pieces N]      the pairs to solve: group, index in group, class\n"
    "       pool-egdb info   [--variant V] [--dir DIR] [--pieces N]\n"
    "       pool-egdb probe  [--variant V] [--dir DIR] FEN\n"
    "       pool-egdb review [--variant V] [--dir DIR] PDN...\n"
    "                        the won endings each player reached in the games, and their results\n"
    "       pool-egdb fit-plan [--variant V] [--dir DIR] > src/eval/kings_plan_weights.c\n"
    "                        the plan of three kings against one, fitted to DIR's distances\n"
    "       pool-egdb fit-plan --variant russian --material m1k2-m0k1\n"
    "                        > src/eval/kings_man_plan_weights.c: two kings and a man against one\n"
    "`pool-egdb COMMAND --help` lists the options.\n"
    "\n"
    "V is the rule set: " VARIANT_NAMES " (default pool); its files name it and\n"
    "another's are refused. DIR defaults to databases for pool and to\n"
    "databases/V for the others (the engine finds them there from egdb-path\n"
    "databases).\n"
    "build keeps finished classes (a rerun resumes); --only builds or verifies one\n"
    "pair (X v Y and Y v X) whose dependencies exist, as a batch job does; --slice\n"
    "K/M verifies the K-th of M equal index ranges of every class (a job of an\n"
    "array). With --only, --step1 K/M runs only the forward step on the K-th of M\n"
    "index ranges and leaves its summary in DIR; --from-step1 M finishes the pair\n"
    "from the M summaries (doc/EGDB.md, scripts/egdb-slurm --slices).\n";

enum { MAX_PAIRS = 2048 };

typedef struct Args {
	const char *dir;
	char dir_default[64]; /* databases, or databases/NAME for another rule set */
	Variant variant;
	int material; /* fit-plan: 0 three kings against one, 1 two kings and a man against one */
	int pieces;
	bool pieces_given; /* --pieces was on the command line */
	int threads;
	bool quiet;
	const char *only;
	const char *fen;
	CmdlineOperands files;   /* review: the PDN files; run_command() frees them */
	int slice, slices;       /* verify: slice (0-based) of slices */
	int step1, step1_slices; /* build: -1 or the forward slice (0-based); 0 or M */
} Args;

/* The options of every command into *a (its defaults first); false with the exit status. */
static bool parse_args(int argc, char **argv, Args *a, int *status)
{
	*a = (Args){.dir = NULL, .variant = VARIANT_POOL, .threads = 1, .slices = 1, .step1 = -1};
	CmdlineOperands words = {NULL, 0};
	const CmdlineOption options[] = {
	    cmdline_variant("variant", &a->variant, "the rule set (default pool)"),
	    cmdline_choice("material", "m0k3-m0k1 m1k2-m0k1", &a->material,
	                   "fit-plan: the ending whose plan is fitted (default m0k3-m0k1)"),
	    cmdline_text("dir", "DIR", &a->dir, "the databases' directory (default databases, databases/V)"),
	    cmdline_int("pieces", "N", &a->pieces, 2, EGDB_MAX_PIECES,
	                "the most pieces of a class (default 5; info: DIR's largest)"),
	    cmdline_int("threads", "T", &a->threads, 1, 64, "worker threads (default 1)"),
	    cmdline_text("only", "CLASS", &a->only, "one pair, such as m0k2-m0k1"),
	    cmdline_on("quiet", &a->quiet, "no line per pair"),
	    cmdline_shard("slice", "K/M", &a->slice, &a->slices, "verify the K-th of M index ranges"),
	    cmdline_shard("step1", "K/M", &a->step1, &a->step1_slices,
	                  "the forward step of the K-th of M ranges"),
	    cmdline_int("from-step1", "M", &a->step1_slices, 1, 1000000, "finish a pair from M summaries"),
	};
	const Cmdline cmdline = {
	    .program = "pool-egdb",
	    .synopsis = synopsis,
	    .options = options,
	    .count = sizeof options / sizeof options[0],
	    .operands = !strcmp(argv[0], "probe") || !strcmp(argv[0], "review") ? &words : NULL,
	};
	if (!cmdline_parse(&cmdline, argc, argv, status))
		return false;
	if (!a->dir) {
		if (a->variant == VARIANT_POOL)
			snprintf(a->dir_default, sizeof a->dir_default, "databases");
		else
			snprintf(a->dir_default, sizeof a->dir_default, "databases/%s",
			         variant_rules(a->variant)->name);
		a->dir = a->dir_default;
	}
	a->pieces_given = a->pieces != 0;
	if (!a->pieces_given)
		a->pieces = 5;
	if (!strcmp(argv[0], "review")) {
		if (!words.count)
			*status = cmdline_fail(&cmdline, "review wants one or more PDN files");
		a->files = words;
		return words.count > 0;
	}
	bool one = words.count <= 1;
	a->fen = words.count ? words.words[0] : NULL;
	cmdline_operands_free(&words);
	if (!one)
		*status = cmdline_fail(&cmdline, "probe takes one FEN");
	return one;
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

/* The pairs a command works on, and the store of their tables. */
typedef struct Work {
	EgdbClass pairs[MAX_PAIRS];
	int groups[MAX_PAIRS];
	int count;
	Store st;
} Work;

/* select_pairs() into *w, and an empty store on a->dir; false with a message. */
static bool work_begin(const Args *a, Work *w)
{
	w->count = select_pairs(a, w->pairs, w->groups);
	memset(&w->st, 0, sizeof w->st);
	w->st.dir = a->dir;
	w->st.variant = a->variant;
	return w->count >= 0;
}

/* mkdir -p: dir and the directories above it. */
static bool make_dirs(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof path, "%s", dir);
	for (char *slash = path + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			return false;
		*slash = '/';
	}
	return mkdir(path, 0777) == 0 || errno == EEXIST;
}

static int cmd_build(const Args *a)
{
	if (!make_dirs(a->dir)) {
		fprintf(stderr, "pool-egdb: cannot create %s: %s\n", a->dir, strerror(errno));
		return 1;
	}
	Work w;
	if (!work_begin(a, &w))
		return 2;
	if (a->step1_slices && !a->only) {
		fprintf(stderr, "pool-egdb: --step1 and --from-step1 work on one pair (--only)\n");
		return 2;
	}
	BuildOptions o = {a->threads, a->quiet, a->step1_slices, a->step1};
	double t0 = now_seconds();
	int built = 0, kept = 0;
	for (int i = 0; i < w.count; i++) {
		char p0[4096], p1[4096];
		store_path(&w.st, w.pairs[i], p0, sizeof p0);
		store_path(&w.st, egdb_class_swap(w.pairs[i]), p1, sizeof p1);
		if (file_exists(p0) && file_exists(p1) && a->step1 < 0) {
			kept++;
			continue; /* finished before: the build resumes after it */
		}
		if (!solve_pair(&w.st, w.pairs[i], &o)) {
			store_free(&w.st);
			return 1;
		}
		built++;
	}
	store_free(&w.st);
	if (!a->quiet)
		printf("built %d pairs, kept %d, in %.1f s\n", built, kept, now_seconds() - t0);
	return 0;
}

static int cmd_verify(const Args *a)
{
	Work w;
	if (!work_begin(a, &w))
		return 2;
	uint64_t checked = 0, bad = 0;
	double t0 = now_seconds();
	bool ok = true;
	for (int i = 0; i < w.count && ok; i++) {
		EgdbClass both[2] = {w.pairs[i], egdb_class_swap(w.pairs[i])};
		for (int t = 0; t < (egdb_class_equal(both[0], both[1]) ? 1 : 2) && ok; t++)
			ok = verify_class(&w.st, both[t], a->threads, a->slice, a->slices, &checked, &bad);
	}
	store_free(&w.st);
	printf("verified %llu positions in %d pairs: %llu mismatches, %.1f s\n", (unsigned long long)checked,
	       w.count, (unsigned long long)bad, now_seconds() - t0);
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
	st.variant = a->variant;
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

static int cmd_fit_plan(const Args *a)
{
	return egdb_fit_plan(a->dir, a->variant, a->material == 1, stdout);
}

static int cmd_probe(const Args *a)
{
	if (!a->fen) {
		fprintf(stderr, "pool-egdb: probe wants a FEN\n");
		return 2;
	}
	Position p;
	char err[128];
	if (!notation_parse_fen(a->fen, a->variant, &p, err, sizeof err)) {
		fprintf(stderr, "pool-egdb: %s: %s\n", a->fen, err);
		return 2;
	}
	char why[512];
	Egdb *db = egdb_open(a->dir, a->variant, why, sizeof why);
	if (!db) {
		fprintf(stderr, "pool-egdb: %s\n", why);
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

static int cmd_review(const Args *a)
{
	return egdb_review(a->dir, a->variant, a->files.words, a->files.count, stdout);
}

static const struct {
	const char *name;
	int (*run)(const Args *a);
} commands[] = {{"build", cmd_build}, {"verify", cmd_verify},     {"plan", cmd_plan},    {"info", cmd_info},
                {"probe", cmd_probe}, {"fit-plan", cmd_fit_plan}, {"review", cmd_review}};

enum { COMMANDS = sizeof commands / sizeof commands[0] };

/* The command argv[0] names, with the options read into Args. */
static int run_command(int argc, char **argv)
{
	Args a;
	int status;
	if (!parse_args(argc, argv, &a, &status)) {
		cmdline_operands_free(&a.files);
		return status;
	}
	for (int i = 0; i < COMMANDS; i++)
		if (!strcmp(argv[0], commands[i].name))
			status = commands[i].run(&a);
	cmdline_operands_free(&a.files);
	return status;
}

/* The results go to standard output: a write that failed fails the run. */
int main(int argc, char **argv)
{
	CmdlineCommand each[COMMANDS];
	for (int i = 0; i < COMMANDS; i++)
		each[i] = (CmdlineCommand){commands[i].name, run_command};
	if (version_option(argc, argv, "pool-egdb"))
		return textfile_exit("pool-egdb", 0);
	return textfile_exit("pool-egdb",
	                     cmdline_dispatch("pool-egdb", synopsis, each, COMMANDS, argc, argv));
}
