/* SPDX-License-Identifier: GPL-3.0-or-later */
/* datagen through its binary and the training-data reader: regenerable, shardable, labelled, refusing damage.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "poolshark/egdb.h"
#include "poolshark/movegen.h"
#include "poolshark/score.h"
#include "posdata.h"
#include "support/support.h"

typedef struct Paths {
	char datagen[1024], egdb_tool[1024];
	char source[1024]; /* the repository: the openings files */
	char dir[256];
} Paths;

static Paths paths;

/* `datagen gen` of a small pool run with extra arguments, into `out`. */
static void gen(const char *out, const char *extra)
{
	assert_int_equal(
	    support_shell(paths.dir,
	                  "timeout 60 '%s' gen --out %s --openings '%s/tools/data/openings.fen' --nodes 300 "
	                  "--max-plies 120 --egdb none --quiet %s",
	                  paths.datagen, out, paths.source, extra),
	    0);
}

static uint8_t *read_bytes(const char *name, size_t *size)
{
	FILE *f = fopen(support_path(paths.dir, name), "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*size = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *bytes = malloc(*size + 64);
	assert_non_null(bytes);
	assert_int_equal(fread(bytes, 1, *size, f), *size);
	fclose(f);
	return bytes;
}

static void write_bytes(const char *name, const uint8_t *bytes, size_t size)
{
	FILE *f = fopen(support_path(paths.dir, name), "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
}

static bool same_file(const char *a, const char *b)
{
	return support_shell(paths.dir, "cmp -s %s %s", a, b) == 0;
}

static PosdataFile load(const char *name)
{
	PosdataFile f;
	char err[2048];
	if (!posdata_load(support_path(paths.dir, name), &f, err, sizeof err))
		fail_msg("%s", err);
	return f;
}

/* Every record is quiet, in (game, ply) order, of a game below `games`
 * whose records share one result (seen from each side to move), and no
 * position is written twice. */
static void check_records(const PosdataFile *f, int games)
{
	assert_true(f->header.count > 0);
	for (uint64_t i = 0; i < f->header.count; i++) {
		const PosdataRecord *r = &f->records[i];
		assert_false(movegen_has_capture(&r->pos));
		assert_true(r->game < (uint32_t)games);
		for (uint64_t j = 0; j < i; j++)
			assert_false(f->records[j].pos.key == r->pos.key);
		if (i == 0)
			continue;
		const PosdataRecord *q = &f->records[i - 1];
		assert_true(q->game < r->game || (q->game == r->game && q->ply < r->ply));
		if (q->game == r->game) {
			int black_q = q->pos.side == BLACK ? (int)q->result : 2 - (int)q->result;
			int black_r = r->pos.side == BLACK ? (int)r->result : 2 - (int)r->result;
			assert_int_equal(black_q, black_r);
		}
	}
}

static void test_same_seed_same_file_for_any_jobs(void **state)
{
	(void)state;
	gen("a1.psdata", "--games 6 --seed 11 --jobs 1");
	gen("a2.psdata", "--games 6 --seed 11 --jobs 2");
	gen("a3.psdata", "--games 6 --seed 11 --jobs 3");
	assert_true(same_file("a1.psdata", "a2.psdata"));
	assert_true(same_file("a1.psdata", "a3.psdata"));
	gen("b.psdata", "--games 6 --seed 12 --jobs 2");
	assert_false(same_file("a1.psdata", "b.psdata"));
	/* Games played with the network are other games, and as reproducible. */
	gen("n1.psdata", "--games 6 --seed 11 --jobs 1 --eval net");
	gen("n2.psdata", "--games 6 --seed 11 --jobs 2 --eval net");
	assert_true(same_file("n1.psdata", "n2.psdata"));
	assert_false(same_file("a1.psdata", "n1.psdata"));

	PosdataFile f = load("a1.psdata");
	assert_int_equal(f.header.variant, VARIANT_POOL);
	assert_int_equal(f.header.nodes, 300);
	assert_int_equal(f.header.seed, 11);
	assert_int_equal(f.header.egdb_pieces, 0);
	check_records(&f, 6);
	posdata_free(&f);
}

/* The games of `file` won by the network (Black in even games, White in
 * odd ones) of `games`; each game has positions and none is lost. */
static int network_wins(const char *file, int games)
{
	PosdataFile f = load(file);
	check_records(&f, games);
	int result_of[64], won = 0;
	assert_true(games <= 64);
	for (int g = 0; g < games; g++)
		result_of[g] = -1;
	for (uint64_t i = 0; i < f.header.count; i++) {
		const PosdataRecord *r = &f.records[i];
		Color network = r->game % 2 == 0 ? BLACK : WHITE;
		/* The game's result for the network's side. */
		result_of[r->game] = r->pos.side == network ? (int)r->result : 2 - (int)r->result;
	}
	for (int g = 0; g < games; g++) {
		assert_true(result_of[g] >= 0);
		assert_int_not_equal(result_of[g], POSDATA_LOSS);
		won += result_of[g] == POSDATA_WIN;
	}
	posdata_free(&f);
	return won;
}

/* Games of the network against `opponent` (the --opponent options): the
 * same file for 1 and 2 jobs, other games than the network's self-play,
 * and positions written with either side to move. The file is `name`. */
static void check_opponent_games(const char *name, const char *opponent)
{
	char options[256], other[64];
	snprintf(options, sizeof options, "--games 6 --seed 11 --jobs 1 --eval net %s", opponent);
	gen(name, options);
	snprintf(options, sizeof options, "--games 6 --seed 11 --jobs 2 --eval net %s", opponent);
	snprintf(other, sizeof other, "jobs2-%s", name);
	gen(other, options);
	assert_true(same_file(name, other));
	gen("self.psdata", "--games 6 --seed 11 --jobs 1 --eval net");
	assert_false(same_file(name, "self.psdata"));
	PosdataFile f = load(name);
	check_records(&f, 6);
	int to_move[2] = {0, 0};
	for (uint64_t i = 0; i < f.header.count; i++)
		to_move[f.records[i].pos.side]++;
	assert_true(to_move[BLACK] > 0 && to_move[WHITE] > 0);
	posdata_free(&f);
}

/* The network against the classic evaluation: as reproducible, other
 * games than self-play (of either evaluation); against an opponent of 20
 * nodes a move the network (Black in even games, White in odd ones) never
 * loses and wins most games. */
static void test_network_against_the_classic_evaluation(void **state)
{
	(void)state;
	check_opponent_games("c1.psdata", "--opponent classic");
	gen("k3.psdata", "--games 6 --seed 11 --jobs 1");
	assert_false(same_file("c1.psdata", "k3.psdata"));

	gen("weak.psdata", "--games 8 --seed 5 --jobs 2 --eval net --opponent classic --opponent-nodes 20");
	assert_true(network_wins("weak.psdata", 8) >= 5);
}

/* The network against a network: as reproducible, other games than
 * against the classic evaluation or than self-play; against itself at 20
 * nodes a move the network of 300 never loses and wins most games. A
 * network file of the other side is read like --eval-file's. */
static void test_network_against_a_network(void **state)
{
	(void)state;
	check_opponent_games("o1.psdata", "--opponent net");
	gen("c4.psdata", "--games 6 --seed 11 --jobs 1 --eval net --opponent classic");
	assert_false(same_file("o1.psdata", "c4.psdata"));

	gen("weaknet.psdata", "--games 8 --seed 5 --jobs 2 --eval net --opponent net --opponent-nodes 20");
	assert_true(network_wins("weaknet.psdata", 8) >= 5);
	char file_option[sizeof paths.source + 160];
	snprintf(file_option, sizeof file_option,
	         "--games 8 --seed 5 --jobs 2 --eval net --opponent net --opponent-nodes 20 "
	         "--opponent-eval-file '%s/tools/data/nnue-pool.bin'",
	         paths.source);
	gen("weakfile.psdata", file_option);
	assert_true(same_file("weaknet.psdata", "weakfile.psdata"));
}

/* True when files a and b hold the same positions of the same games with
 * the same results, in the same order; *score_changes = how many of
 * their scores differ. */
static bool same_games(const char *a, const char *b, int *score_changes)
{
	PosdataFile f = load(a), g = load(b);
	bool same = f.header.count == g.header.count;
	*score_changes = 0;
	for (uint64_t i = 0; same && i < f.header.count; i++) {
		const PosdataRecord *r = &f.records[i], *q = &g.records[i];
		same = r->pos.key == q->pos.key && r->game == q->game && r->ply == q->ply &&
		       r->result == q->result;
		*score_changes += r->score != q->score;
	}
	posdata_free(&f);
	posdata_free(&g);
	return same;
}

/* --label net: the games are those of the evaluation that plays them (the
 * same positions and results as without it), only the scores are the
 * labeller's; they change with its nodes, are as reproducible for any
 * jobs, and a network file labels as the compiled-in copy of it does. */
static void test_labels_by_a_network(void **state)
{
	(void)state;
	gen("k.psdata", "--games 6 --seed 11 --jobs 1");
	gen("l1.psdata", "--games 6 --seed 11 --jobs 1 --label net");
	gen("l2.psdata", "--games 6 --seed 11 --jobs 2 --label net");
	assert_true(same_file("l1.psdata", "l2.psdata"));
	PosdataFile f = load("l1.psdata");
	check_records(&f, 6);
	uint64_t count = f.header.count;
	posdata_free(&f);
	int changed;
	assert_true(same_games("k.psdata", "l1.psdata", &changed));
	assert_true(changed > (int)count / 4);

	gen("l3.psdata", "--games 6 --seed 11 --jobs 2 --label net --label-nodes 1000");
	assert_true(same_games("l1.psdata", "l3.psdata", &changed));
	assert_true(changed > 0);
	char file_option[sizeof paths.source + 160];
	snprintf(file_option, sizeof file_option,
	         "--games 6 --seed 11 --jobs 2 --label net --label-eval-file '%s/tools/data/nnue-pool.bin'",
	         paths.source);
	gen("l4.psdata", file_option);
	assert_true(same_file("l1.psdata", "l4.psdata"));
}

static void test_shards_cover_the_run(void **state)
{
	(void)state;
	gen("whole.psdata", "--games 7 --seed 5 --jobs 2");
	gen("s1.psdata", "--games 7 --seed 5 --shard 1/3");
	gen("s2.psdata", "--games 7 --seed 5 --shard 2/3 --jobs 2");
	gen("s3.psdata", "--games 7 --seed 5 --shard 3/3");
	PosdataFile s = load("s2.psdata");
	for (uint64_t i = 0; i < s.header.count; i++)
		assert_int_equal(s.records[i].game % 3, 1);
	posdata_free(&s);
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' merge --out joined.psdata s3.psdata s1.psdata s2.psdata 2>/dev/null",
	                  paths.datagen),
	    0);
	assert_true(same_file("whole.psdata", "joined.psdata"));
	/* A shard given twice, or another run's shard, is refused. */
	assert_int_equal(support_shell(paths.dir,
	                               "'%s' merge --out bad.psdata s1.psdata s1.psdata 2>/dev/null",
	                               paths.datagen),
	                 1);
	gen("other.psdata", "--games 7 --seed 6 --shard 2/3");
	assert_int_equal(support_shell(paths.dir,
	                               "'%s' merge --out bad.psdata s1.psdata other.psdata 2>/dev/null",
	                               paths.datagen),
	                 1);
	assert_int_equal(access(support_path(paths.dir, "bad.psdata"), F_OK), -1);
}

/* Russian games carry Russian positions, and no database labels. */
static void test_variant_in_the_header(void **state)
{
	(void)state;
	assert_int_equal(
	    support_shell(paths.dir,
	                  "timeout 60 '%s' gen --out ru.psdata --variant russian --openings "
	                  "'%s/tools/data/openings-russian.fen' --games 3 --nodes 300 --max-plies 80 --quiet",
	                  paths.datagen, paths.source),
	    0);
	PosdataFile f = load("ru.psdata");
	assert_int_equal(f.header.variant, VARIANT_RUSSIAN);
	check_records(&f, 3);
	for (uint64_t i = 0; i < f.header.count; i++) {
		assert_int_equal(f.records[i].pos.variant, VARIANT_RUSSIAN);
		assert_false(f.records[i].has_egdb);
	}
	posdata_free(&f);
}

typedef struct Damage {
	const char *what;
	size_t offset;   /* the byte changed, or the new length when truncating */
	int record;      /* -1: a header field */
	const char *say; /* in the reader's message */
} Damage;

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Applies damage number k to a copy of a good image (size may change). */
static void damage(int k, uint8_t *b, size_t *size, const char **say, long *offset)
{
	size_t r3 = POSDATA_HEADER_SIZE + 3 * POSDATA_RECORD_SIZE, last;
	last = *size - POSDATA_RECORD_SIZE;
	switch (k) {
	case 0: b[0] = 'X', *say = "bad magic", *offset = 0; break;
	case 1: put32(b + 8, 2), *say = "format version 2", *offset = 8; break;
	case 2: put32(b + 16, 32), *say = "record size 32", *offset = 16; break;
	case 3: put32(b + 20, 9), *say = "unknown rule set", *offset = 20; break;
	case 4: *size -= 10, *say = "truncated", *offset = (long)last; break;
	case 5: b[*size] = 0, *size += 1, *say = "after the last", *offset = (long)*size - 1; break;
	case 6: /* a square of both colours: White's men onto Black's */
		memcpy(b + r3 + 4, b + r3, 4), *say = "both colours", *offset = (long)r3;
		break;
	case 7: /* a Black man on square 32, its crowning row */
		b[r3 + 3] |= 0x80, b[r3 + 7] &= 0x7f, b[r3 + 11] &= 0x7f, *say = "crowning row",
		                                                          *offset = (long)r3;
		break;
	case 8: /* 13 Black pieces: fill every square but White's and the crowning row */
		put32(b + r3, 0x0fffffffu & ~(b[r3 + 4] | b[r3 + 5] << 8 | b[r3 + 6] << 16 |
		                              (uint32_t)b[r3 + 7] << 24));
		put32(b + r3 + 8, 0), *say = "more than 12", *offset = (long)r3;
		break;
	case 9: b[r3 + 12] = 2, *say = "side to move 2", *offset = (long)r3; break;
	case 10: b[r3 + 15] = 0x80, *say = "unknown flags", *offset = (long)r3; break;
	case 11:
		b[r3 + 20] ^= 1, *say = "checksum", *offset = 56;
		break; /* the game number: a valid record */
	}
}

static void test_reader_refuses_damage_naming_the_offset(void **state)
{
	(void)state;
	gen("good.psdata", "--games 2 --seed 3");
	size_t size;
	uint8_t *good = read_bytes("good.psdata", &size);
	assert_true(size > POSDATA_HEADER_SIZE + 4 * POSDATA_RECORD_SIZE);
	uint8_t *bad = malloc(size + 64);
	assert_non_null(bad);
	for (int k = 0; k < 12; k++) {
		memcpy(bad, good, size);
		size_t bad_size = size;
		const char *say = NULL;
		long offset = -1;
		damage(k, bad, &bad_size, &say, &offset);
		write_bytes("bad.psdata", bad, bad_size);
		PosdataFile f;
		char err[2048], want[64];
		assert_false(posdata_load(support_path(paths.dir, "bad.psdata"), &f, err, sizeof err));
		snprintf(want, sizeof want, "offset %ld", offset);
		if (!strstr(err, say) || !strstr(err, want))
			fail_msg("damage %d: `%s` names neither `%s` nor `%s`", k, err, say, want);
		assert_null(f.records);
	}
	/* datagen info says the same and fails; on the good file it succeeds. */
	assert_int_equal(
	    support_shell(paths.dir, "'%s' info bad.psdata 2>info.err >/dev/null", paths.datagen), 1);
	assert_int_equal(support_shell(paths.dir, "grep -q 'offset 56' info.err"), 0);
	assert_int_equal(support_shell(paths.dir, "'%s' info good.psdata > info.out", paths.datagen), 0);
	char grep[128];
	snprintf(grep, sizeof grep, "grep -q '%zu records' info.out",
	         (size - POSDATA_HEADER_SIZE) / POSDATA_RECORD_SIZE);
	assert_int_equal(support_shell(paths.dir, "%s", grep), 0);
	free(bad);
	free(good);
}

/* A missing file, and a short one, are refused too. */
static void test_reader_refuses_missing_and_short(void **state)
{
	(void)state;
	PosdataFile f;
	char err[2048];
	assert_false(posdata_load(support_path(paths.dir, "absent.psdata"), &f, err, sizeof err));
	assert_non_null(strstr(err, "absent.psdata"));
	write_bytes("short.psdata", (const uint8_t *)"PSHKDATA", 8);
	assert_false(posdata_load(support_path(paths.dir, "short.psdata"), &f, err, sizeof err));
	assert_non_null(strstr(err, "shorter than the 64-byte header"));
	/* An input without end is read no further than its header says: a
	 * device of zeros has no magic, so only its first 64 bytes are read. */
	assert_false(posdata_load("/dev/zero", &f, err, sizeof err));
	assert_non_null(strstr(err, "/dev/zero"));
	assert_int_equal(
	    support_shell(paths.dir, "timeout 10 '%s' info /dev/zero 2>/dev/null", paths.datagen), 1);
}

/* The committed sample (the fuzzer's seed, written by version 1) still
 * reads: a change of the layout must come with a new version. */
static void test_committed_sample_reads(void **state)
{
	(void)state;
	char path[1100], err[2048];
	snprintf(path, sizeof path, "%s/tests/fuzz/seeds/fuzz_posdata/sample", paths.source);
	PosdataFile f;
	if (!posdata_load(path, &f, err, sizeof err))
		fail_msg("%s", err);
	assert_int_equal(f.header.count, 13);
	assert_int_equal(f.header.nodes, 300);
	assert_int_equal(f.header.seed, 1);
	assert_int_equal(f.header.variant, VARIANT_POOL);
	check_records(&f, 1);
	posdata_free(&f);
}

/* Games from four-piece endings with a three-piece database of rule set
 * `variant` (built in `dir`): every position of at most three pieces
 * carries exactly the database's value, and an adjudicated game's result
 * is that value. */
static void check_database_labels(Variant variant, const char *dir, const char *endings)
{
	const char *name = variant_rules(variant)->name;
	assert_int_equal(support_shell(paths.dir,
	                               "'%s' build --variant %s --dir %s --pieces 3 --threads 1 --quiet",
	                               paths.egdb_tool, name, dir),
	                 0);
	FILE *o = fopen(support_path(paths.dir, "endings.fen"), "w");
	assert_non_null(o);
	fputs(endings, o);
	assert_int_equal(fclose(o), 0);
	char err[256];
	Egdb *db = egdb_open(support_path(paths.dir, dir), variant, err, sizeof err);
	if (!db)
		fail_msg("%s", err);
	const char *modes[] = {"", "--no-adjudicate"};
	for (int m = 0; m < 2; m++) {
		assert_int_equal(
		    support_shell(
		        paths.dir,
		        "timeout 60 '%s' gen --out e.psdata --variant %s --openings endings.fen --egdb %s "
		        "--games 12 --nodes 200 --random-plies 2 --max-plies 100 --seed 2 --quiet %s",
		        paths.datagen, name, dir, modes[m]),
		    0);
		PosdataFile f = load("e.psdata");
		assert_int_equal(f.header.variant, variant);
		assert_int_equal(f.header.egdb_pieces, 3);
		int labelled = 0;
		for (uint64_t i = 0; i < f.header.count; i++) {
			const PosdataRecord *r = &f.records[i];
			bool small = bb_count(position_occupied(&r->pos)) <= 3;
			assert_int_equal(r->has_egdb, small);
			if (!small)
				continue;
			labelled++;
			uint8_t v;
			assert_true(egdb_probe(db, &r->pos, &v));
			EgdbResult want = egdb_value_result(v);
			assert_int_equal((int)r->egdb - 1, (int)want);
			if (m == 0) {
				/* The game ended here, with the database's value. */
				assert_true(r->flags & POSDATA_FLAG_ADJUDICATED);
				assert_int_equal(r->result, r->egdb);
				assert_true(i + 1 == f.header.count || f.records[i + 1].game != r->game);
			}
		}
		assert_true(labelled > 0);
		posdata_free(&f);
	}
	egdb_close(db);
}

static void test_database_labels_agree(void **state)
{
	(void)state;
	check_database_labels(VARIANT_POOL, "db3",
	                      "# four pieces, level\nB:W21,K30:B5,K10\nW:W22,K31:B6,K12\nB:WK19,K27:BK6,K14\n"
	                      "W:W25,29:B7,8\nB:W18,23:B9,K3\n");
}

/* A Russian file labelled by Russian databases reads back: the labels are
 * not pool's alone. */
static void test_russian_database_labels_agree(void **state)
{
	(void)state;
	check_database_labels(
	    VARIANT_RUSSIAN, "ru3",
	    "# four pieces, level\nW:Wa1,Kc1:Bh8,Kf8\nB:Wb2,Kd2:Bg7,Kf8\nW:WKa3,Kc5:BKf6,Kh8\n"
	    "W:Wc1,e1:Bf8,h8\nB:Wa3,c3:Bd6,Kf8\n");
}

/* `datagen walk`: every position it writes is quiet, has a move, holds at
 * most the databases' pieces, is written once, and carries the databases'
 * value as its label, result and score; the seed alone fixes the file. */
static void test_walk_labels_from_the_databases(void **state)
{
	(void)state;
	if (access(support_path(paths.dir, "db3/m0k1-m0k2.egdb"), F_OK) != 0)
		assert_int_equal(support_shell(paths.dir,
		                               "'%s' build --dir db3 --pieces 3 --threads 1 --quiet",
		                               paths.egdb_tool),
		                 0);
	FILE *o = fopen(support_path(paths.dir, "walk.fen"), "w");
	assert_non_null(o);
	fputs("B:W21,K30:B5,K10\nW:W22,K31:B6,K12\nB:WK19,K27:BK6,K14\nW:W25,29:B7,8\nB:W18,23:B9,K3\n", o);
	assert_int_equal(fclose(o), 0);
	assert_int_equal(
	    support_shell(paths.dir,
	                  "timeout 60 '%s' gen --out from.psdata --openings walk.fen --egdb none --games 10 "
	                  "--nodes 200 --random-plies 2 --max-plies 60 --seed 3 --quiet",
	                  paths.datagen),
	    0);
	const char *walk =
	    "timeout 60 '%s' walk --out %s --egdb db3 --walks 3000 --plies 20 --source-pieces 5 "
	    "--seed %d --quiet from.psdata";
	assert_int_equal(support_shell(paths.dir, walk, paths.datagen, "w1.psdata", 5), 0);
	assert_int_equal(support_shell(paths.dir, walk, paths.datagen, "w2.psdata", 5), 0);
	assert_int_equal(support_shell(paths.dir, walk, paths.datagen, "w3.psdata", 6), 0);
	assert_true(same_file("w1.psdata", "w2.psdata"));
	assert_false(same_file("w1.psdata", "w3.psdata"));

	char err[256];
	Egdb *db = egdb_open(support_path(paths.dir, "db3"), VARIANT_POOL, err, sizeof err);
	if (!db)
		fail_msg("%s", err);
	PosdataFile f = load("w1.psdata");
	assert_int_equal(f.header.egdb_pieces, 3);
	assert_true(f.header.count > 20);
	int seen[3] = {0};
	for (uint64_t i = 0; i < f.header.count; i++) {
		const PosdataRecord *r = &f.records[i];
		assert_true(bb_count(position_occupied(&r->pos)) <= 3);
		assert_false(movegen_has_capture(&r->pos));
		assert_true(movegen_has_moves(&r->pos));
		assert_true(r->has_egdb);
		uint8_t v;
		assert_true(egdb_probe(db, &r->pos, &v));
		assert_int_equal((int)r->egdb - 1, (int)egdb_value_result(v));
		assert_int_equal(r->result, r->egdb);
		assert_int_equal(r->score > 0, r->result == POSDATA_WIN);
		assert_int_equal(r->score < 0, r->result == POSDATA_LOSS);
		assert_true(r->result == POSDATA_DRAW || score_is_decisive(r->score));
		seen[r->result]++;
		for (uint64_t j = 0; j < i; j++)
			assert_false(f.records[j].pos.key == r->pos.key);
	}
	/* Three-piece endings are won, drawn and lost. */
	assert_true(seen[POSDATA_WIN] > 0 && seen[POSDATA_DRAW] > 0 && seen[POSDATA_LOSS] > 0);
	posdata_free(&f);
	egdb_close(db);

	/* --max-difference 0 keeps the positions of level material only. */
	assert_int_equal(
	    support_shell(paths.dir,
	                  "timeout 60 '%s' walk --out level.psdata --egdb db3 --walks 3000 --plies 20 "
	                  "--source-pieces 5 --max-difference 0 --seed 5 --quiet from.psdata",
	                  paths.datagen),
	    0);
	PosdataFile level = load("level.psdata");
	assert_true(level.header.count > 0);
	for (uint64_t i = 0; i < level.header.count; i++) {
		const Position *p = &level.records[i].pos;
		assert_int_equal(bb_count(p->pieces[BLACK]), bb_count(p->pieces[WHITE]));
	}
	posdata_free(&level);

	/* A file of other rules, and a damaged one, stop the walk with their
	 * reason and leave no output. */
	assert_int_equal(
	    support_shell(
	        paths.dir,
	        "timeout 60 '%s' gen --out ru.psdata --variant russian --games 2 --nodes 200 "
	        "--max-plies 60 --egdb none --quiet --openings '%s/tools/data/openings-russian.fen'",
	        paths.datagen, paths.source),
	    0);
	assert_int_equal(support_shell(paths.dir,
	                               "'%s' walk --out walkbad.psdata --egdb db3 ru.psdata 2>walk.err",
	                               paths.datagen),
	                 1);
	assert_int_equal(
	    support_shell(paths.dir, "grep -q 'a russian file; the databases are pool' walk.err"), 0);
	assert_int_equal(support_shell(paths.dir, "head -c 100 w1.psdata > cut.psdata"), 0);
	assert_int_equal(support_shell(paths.dir,
	                               "'%s' walk --out walkbad.psdata --egdb db3 cut.psdata 2>walk.err",
	                               paths.datagen),
	                 1);
	assert_int_equal(support_shell(paths.dir, "grep -q 'cut.psdata' walk.err"), 0);
	assert_int_equal(access(support_path(paths.dir, "walkbad.psdata"), F_OK), -1);
}

/* Bad arguments: a message naming the problem, exit 2. */
static void test_bad_arguments(void **state)
{
	(void)state;
	const char *cases[][2] = {
	    {"gen --games 2", "--out FILE is required"},
	    {"gen --out x.psdata --nodes 0", "--nodes"},
	    {"gen --out x.psdata --jobs 0", "--jobs"},
	    {"gen --out x.psdata --shard 3/2", "--shard: 3/2 is not K/N"},
	    {"gen --out x.psdata --shard two", "--shard: two is not K/N"},
	    {"gen --out x.psdata --variant chess", "unknown variant"},
	    {"gen --out x.psdata --frobnicate 1", "unknown option"},
	    {"gen --out", "needs a value"},
	    {"gen --out x.psdata --eval fast", "--eval: unknown value `fast`"},
	    {"gen --out x.psdata --eval-file n.bin", "--eval-file needs --eval net"},
	    {"gen --out x.psdata --opponent classic", "--opponent needs --eval net"},
	    {"gen --out x.psdata --eval net --opponent-eval-file n.bin", "needs --opponent net"},
	    {"gen --out x.psdata --eval net --opponent classic --opponent-eval-file n.bin",
	     "needs --opponent net"},
	    {"gen --out x.psdata --eval net --opponent fish", "--opponent: unknown value `fish`"},
	    {"gen --out x.psdata --eval net --opponent-nodes 100", "--opponent-nodes needs --opponent"},
	    {"gen --out x.psdata --eval net --opponent classic --opponent-nodes 0", "--opponent-nodes"},
	    {"gen --out x.psdata --label fish", "--label: unknown value `fish`"},
	    {"gen --out x.psdata --label-eval-file n.bin", "--label-eval-file needs --label net"},
	    {"gen --out x.psdata --label-nodes 100", "--label-nodes needs --label net"},
	    {"gen --out x.psdata --label net --label-nodes 0", "--label-nodes"},
	    {"gen --out x.psdata --eval net --opponent classic --label net", "both choose the labels"},
	    {"info", "usage: datagen info"},
	    {"merge a.psdata", "usage: datagen merge"},
	    {"shuffle", "unknown subcommand"},
	    {"walk a.psdata", "--out FILE is required"},
	    {"walk --out x.psdata", "no DATA file"},
	    {"walk --out x.psdata --egdb none a.psdata", "--egdb none leaves none"},
	    {"walk --out x.psdata --plies 0 a.psdata", "--plies"},
	    {"walk --out x.psdata --max-difference -1 a.psdata", "--max-difference"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int status =
		    support_shell(paths.dir, "'%s' %s 2>args.err >/dev/null", paths.datagen, cases[i][0]);
		if (status != 2)
			fail_msg("`datagen %s` exited %d, not 2", cases[i][0], status);
		char grep[256];
		snprintf(grep, sizeof grep, "grep -qF -- '%s' args.err", cases[i][1]);
		if (support_shell(paths.dir, "%s", grep) != 0)
			fail_msg("`datagen %s`: no `%s` in the message", cases[i][0], cases[i][1]);
	}
	/* Pool's databases for Russian games: refused by the file's header. */
	assert_int_equal(support_shell(paths.dir,
	                               "'%s' gen --out x.psdata --variant russian --egdb db3 --openings "
	                               "'%s/tools/data/openings-russian.fen' 2>args.err >/dev/null",
	                               paths.datagen, paths.source),
	                 1);
	assert_int_equal(support_shell(paths.dir, "grep -qF -- 'a database of American pool checkers, not "
	                                          "Russian draughts' args.err"),
	                 0);
	assert_int_equal(access(support_path(paths.dir, "x.psdata"), F_OK), -1);
	/* A missing openings file is an error of the run (1), named. */
	assert_int_equal(support_shell(paths.dir, "'%s' gen --out x.psdata --openings nowhere.fen 2>args.err",
	                               paths.datagen),
	                 1);
	assert_int_equal(support_shell(paths.dir, "grep -q nowhere.fen args.err"), 0);
	/* Away from any source tree (a copy of the program in the scratch
	 * directory) a rule set's run names the openings file of its own that
	 * it lacks, not pool's. */
	assert_int_equal(support_shell(paths.dir,
	                               "cp '%s' datagen-alone && ./datagen-alone gen --out x.psdata "
	                               "--variant italian --egdb none 2>args.err",
	                               paths.datagen),
	                 1);
	assert_int_equal(support_shell(paths.dir, "grep -q 'openings-italian.fen' args.err"), 0);
	/* A network of another rule set is an error of the run (1), named. */
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' gen --out x.psdata --openings '%s/tools/data/openings.fen' --games 2 "
	                  "--egdb none --eval net --eval-file '%s/tools/data/nnue-russian.bin' 2>args.err",
	                  paths.datagen, paths.source, paths.source),
	    1);
	assert_int_equal(support_shell(paths.dir, "grep -q 'a network for russian, not for pool' args.err"),
	                 0);
	/* So is a missing network for the opponent. */
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' gen --out x.psdata --openings '%s/tools/data/openings.fen' --games 2 "
	                  "--egdb none --eval net --opponent net --opponent-eval-file nowhere.bin "
	                  "2>args.err",
	                  paths.datagen, paths.source),
	    1);
	assert_int_equal(
	    support_shell(paths.dir, "grep -q -- '--opponent-eval-file nowhere.bin: .*nowhere.bin' args.err"),
	    0);
	/* And one for the labels, or one of another rule set. */
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' gen --out x.psdata --openings '%s/tools/data/openings.fen' --games 2 "
	                  "--egdb none --label net --label-eval-file '%s/tools/data/nnue-russian.bin' "
	                  "2>args.err",
	                  paths.datagen, paths.source, paths.source),
	    1);
	assert_int_equal(
	    support_shell(paths.dir,
	                  "grep -q -- '--label-eval-file .*a network for russian, not for pool' args.err"),
	    0);
	/* Output that is not a regular file (here a FIFO; /dev/full alike) is
	 * refused: the file is renamed into place, and renaming onto a device as
	 * root would replace it. */
	assert_int_equal(support_shell(paths.dir, "rm -f out.fifo && mkfifo out.fifo"), 0);
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' gen --out out.fifo --openings '%s/tools/data/openings.fen' --games 2 "
	                  "--nodes 300 --egdb none 2>args.err",
	                  paths.datagen, paths.source),
	    1);
	assert_int_equal(support_shell(paths.dir, "grep -q 'not a regular file' args.err"), 0);
	struct stat st;
	assert_int_equal(stat(support_path(paths.dir, "out.fifo"), &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
}

static int setup(void **state)
{
	*state = paths.dir;
	bool ready =
	    support_tool_path("test_datagen", "datagen", paths.datagen, sizeof paths.datagen) &&
	    support_tool_path("test_datagen", "pool-egdb", paths.egdb_tool, sizeof paths.egdb_tool) &&
	    getcwd(paths.source, sizeof paths.source) &&
	    support_scratch_dir("test_datagen", paths.dir, sizeof paths.dir);
	return ready ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_seed_same_file_for_any_jobs),
	    cmocka_unit_test(test_network_against_the_classic_evaluation),
	    cmocka_unit_test(test_network_against_a_network),
	    cmocka_unit_test(test_labels_by_a_network),
	    cmocka_unit_test(test_shards_cover_the_run),
	    cmocka_unit_test(test_variant_in_the_header),
	    cmocka_unit_test(test_reader_refuses_damage_naming_the_offset),
	    cmocka_unit_test(test_reader_refuses_missing_and_short),
	    cmocka_unit_test(test_committed_sample_reads),
	    cmocka_unit_test(test_database_labels_agree),
	    cmocka_unit_test(test_russian_database_labels_agree),
	    cmocka_unit_test(test_walk_labels_from_the_databases),
	    cmocka_unit_test(test_bad_arguments),
	};
	return cmocka_run_group_tests(tests, setup, support_teardown_dir);
}
