/* SPDX-License-Identifier: GPL-3.0-or-later */
/* train through its binary: deterministic for any thread count, learning, and stopping on damaged data. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "poolshark/nnue.h"
#include "posdata.h"
#include "support/support.h"

static struct {
	char datagen[1024], train[1024], source[1024], dir[256];
} paths;

/* The held-out losses of a train log, epoch 0 first; their count. */
static int held_out_losses(const char *log, double *out, int max)
{
	FILE *f = fopen(support_path(paths.dir, log), "r");
	assert_non_null(f);
	char line[512];
	int n = 0, epoch;
	double train, held;
	while (fgets(line, sizeof line, f) && n < max)
		if (sscanf(line, "epoch %d train %lf held-out %lf", &epoch, &train, &held) == 3) {
			assert_int_equal(epoch, n);
			out[n++] = held;
		}
	fclose(f);
	return n;
}

/* Two epochs on a small generated file: the same seed gives the same
 * weights file with one thread and with two, the held-out loss falls, and
 * the file loads as a pool network (and not as a Russian one). */
static void test_deterministic_and_learning(void **state)
{
	(void)state;
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' gen --out d.psdata --openings '%s/tools/data/openings.fen' --games 40 "
	                  "--nodes 300 --max-plies 120 --egdb none --quiet --seed 3",
	                  paths.datagen, paths.source),
	    0);
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' --out a.bin --epochs 2 --hidden 32 --batch 256 --lr 0.005 --threads 1 "
	                  "--holdout 20 d.psdata > a.log",
	                  paths.train),
	    0);
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' --out b.bin --epochs 2 --hidden 32 --batch 256 --lr 0.005 --threads 2 "
	                  "--holdout 20 d.psdata > b.log",
	                  paths.train),
	    0);
	assert_int_equal(support_shell(paths.dir, "cmp a.bin b.bin"), 0);
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' --out c.bin --epochs 2 --hidden 32 --batch 256 --lr 0.005 --seed 2 "
	                  "--holdout 20 d.psdata > c.log",
	                  paths.train),
	    0);
	assert_int_not_equal(support_shell(paths.dir, "cmp -s a.bin c.bin"), 0);
	/* A falling rate changes the second epoch's steps (the first runs at
	 * --lr), and the log shows the rate of each epoch. */
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' --out e.bin --epochs 2 --hidden 32 --batch 256 --lr 0.005 --lr-end 0.0005 "
	                  "--holdout 20 d.psdata > e.log",
	                  paths.train),
	    0);
	assert_int_not_equal(support_shell(paths.dir, "cmp -s a.bin e.bin"), 0);
	assert_int_equal(
	    support_shell(paths.dir,
	                  "grep -q 'epoch 1 .* lr 0.005 ' e.log && grep -q 'epoch 2 .* lr 0.0005 ' e.log"),
	    0);
	double loss[8];
	assert_int_equal(held_out_losses("a.log", loss, 8), 3);
	assert_true(loss[2] < loss[1] && loss[1] < loss[0]);
	NnueNetwork *net = malloc(sizeof *net);
	char err[NNUE_ERROR_MAX + 600];
	if (!nnue_load_file(net, support_path(paths.dir, "a.bin"), VARIANT_POOL, err, sizeof err))
		fail_msg("%s", err);
	assert_int_equal(net->hidden, 32);
	assert_false(nnue_load_file(net, support_path(paths.dir, "a.bin"), VARIANT_RUSSIAN, err, sizeof err));
	free(net);
}

/* A damaged record stops the trainer with the reader's offset, and no
 * weights file is written. */
static void test_damaged_data_stops(void **state)
{
	(void)state;
	/* Record 3's side byte (record offset 12) made impossible. */
	long record = POSDATA_HEADER_SIZE + 3 * POSDATA_RECORD_SIZE;
	assert_int_equal(
	    support_shell(paths.dir,
	                  "cp d.psdata bad.psdata && printf '\\007' | dd of=bad.psdata bs=1 seek=%ld "
	                  "conv=notrunc 2>/dev/null",
	                  record + 12),
	    0);
	assert_int_equal(
	    support_shell(paths.dir, "'%s' --out bad.bin --epochs 1 bad.psdata 2> bad.err", paths.train), 1);
	assert_int_equal(support_shell(paths.dir, "grep -q 'bad.psdata: offset %ld ' bad.err", record), 0);
	assert_int_not_equal(support_shell(paths.dir, "test -e bad.bin"), 0);
	assert_int_equal(support_shell(paths.dir,
	                               "'%s' --out bad.bin --epochs 1 missing.psdata 2> missing.err",
	                               paths.train),
	                 1);
	assert_int_equal(support_shell(paths.dir, "grep -q 'missing.psdata' missing.err"), 0);
}

/* --init starts from a weights file: its first held-out loss is the
 * trained network's, not a random start's, its size stands for --hidden,
 * and a file that is not a network of the data's rule set is refused. */
static void test_fine_tune(void **state)
{
	(void)state;
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' --out f.bin --init a.bin --hidden 64 --epochs 1 --batch 256 --lr 0.0005 "
	                  "--holdout 20 d.psdata > f.log",
	                  paths.train),
	    0);
	assert_int_equal(support_shell(paths.dir, "grep -q 'hidden 32,' f.log"), 0);
	double random_start[8], tuned[8];
	assert_int_equal(held_out_losses("a.log", random_start, 8), 3);
	assert_int_equal(held_out_losses("f.log", tuned, 8), 2);
	assert_true(tuned[0] < random_start[1]);
	assert_true(fabs(tuned[0] - random_start[2]) < 0.1 * random_start[2]);
	NnueNetwork *net = malloc(sizeof *net);
	char err[NNUE_ERROR_MAX + 600];
	if (!nnue_load_file(net, support_path(paths.dir, "f.bin"), VARIANT_POOL, err, sizeof err))
		fail_msg("%s", err);
	assert_int_equal(net->hidden, 32);
	free(net);
	assert_int_equal(
	    support_shell(paths.dir, "'%s' --out g.bin --init d.psdata d.psdata 2> g.err", paths.train), 1);
	assert_int_equal(support_shell(paths.dir, "grep -q 'init d.psdata: ' g.err"), 0);
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' --out g.bin --init '%s/tools/data/nnue-russian.bin' d.psdata 2> h.err",
	                  paths.train, paths.source),
	    1);
	assert_int_equal(support_shell(paths.dir, "grep -q 'nnue-russian.bin: ' h.err"), 0);
	assert_int_not_equal(support_shell(paths.dir, "test -e g.bin"), 0);
}

/* --stacks: a network of stacks is written and loads with its count; a
 * one-stack network copied into stacks (--init) starts where it ended;
 * a network of stacks refuses another count, and a count out of range is
 * refused. */
static void test_stacks(void **state)
{
	(void)state;
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' --out s.bin --stacks 4 --epochs 1 --hidden 32 --batch 256 --lr 0.005 "
	                  "--holdout 20 d.psdata > s.log",
	                  paths.train),
	    0);
	NnueNetwork *net = malloc(sizeof *net);
	char err[NNUE_ERROR_MAX + 600];
	if (!nnue_load_file(net, support_path(paths.dir, "s.bin"), VARIANT_POOL, err, sizeof err))
		fail_msg("%s", err);
	assert_int_equal(net->buckets, 4);
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' --out t.bin --init a.bin --stacks 3 --epochs 1 --batch 256 --lr 0.0005 "
	                  "--holdout 20 d.psdata > t.log",
	                  paths.train),
	    0);
	/* Epoch 0 is the loaded network's loss: the same as a.bin's own in
	 * test_fine_tune, stacks or not. */
	double one[8], copied[8];
	assert_int_equal(held_out_losses("f.log", one, 8), 2);
	assert_int_equal(held_out_losses("t.log", copied, 8), 2);
	assert_true(copied[0] == one[0]);
	if (!nnue_load_file(net, support_path(paths.dir, "t.bin"), VARIANT_POOL, err, sizeof err))
		fail_msg("%s", err);
	assert_int_equal(net->buckets, 3);
	free(net);
	assert_int_equal(support_shell(paths.dir,
	                               "'%s' --out u.bin --init s.bin --stacks 2 d.psdata 2> u.err",
	                               paths.train),
	                 1);
	assert_int_equal(support_shell(paths.dir, "grep -q 'has 4 stacks' u.err"), 0);
	assert_int_equal(
	    support_shell(paths.dir, "'%s' --out u.bin --stacks 9 d.psdata 2> v.err", paths.train), 2);
	assert_int_equal(support_shell(paths.dir, "grep -q 'stacks: 9 is too large' v.err"), 0);
	assert_int_not_equal(support_shell(paths.dir, "test -e u.bin"), 0);
}

/* --with: another rule set's data is trained on beside DATA (more
 * training positions, another network), the network stays DATA's rule
 * set's; the same file among DATA is refused, naming --with. */
static void test_with_other_rules(void **state)
{
	(void)state;
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' gen --out r.psdata --variant russian --openings "
	                  "'%s/tools/data/openings-russian.fen' --games 20 --nodes 300 --max-plies 120 "
	                  "--egdb none --quiet --seed 4",
	                  paths.datagen, paths.source),
	    0);
	assert_int_equal(
	    support_shell(paths.dir,
	                  "'%s' --out w.bin --epochs 2 --hidden 32 --batch 256 --lr 0.005 --holdout 20 "
	                  "d.psdata --with r.psdata > w.log",
	                  paths.train),
	    0);
	assert_int_equal(
	    support_shell(paths.dir,
	                  "grep -q '^train: with r.psdata, [1-9][0-9]* positions of russian$' w.log"),
	    0);
	/* The positions counted: d.psdata's (a.log) and r.psdata's. */
	unsigned long long alone_train = 0, alone_held = 0, with_train = 0, with_held = 0, russian = 0;
	assert_int_equal(
	    support_shell(paths.dir,
	                  "sed -n 's/^train: pool, \\([0-9]*\\) training and \\([0-9]*\\) held-out.*/\\1 "
	                  "\\2/p' a.log > counts && "
	                  "sed -n 's/^train: pool, \\([0-9]*\\) training and \\([0-9]*\\) held-out.*/\\1 "
	                  "\\2/p' w.log >> counts && "
	                  "sed -n 's/^train: with r.psdata, \\([0-9]*\\) positions.*/\\1/p' w.log >> counts"),
	    0);
	FILE *f = fopen(support_path(paths.dir, "counts"), "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llu %llu %llu %llu %llu", &alone_train, &alone_held, &with_train,
	                        &with_held, &russian),
	                 5);
	fclose(f);
	assert_true(russian > 0);
	assert_int_equal(with_train + with_held, alone_train + alone_held + russian);
	assert_int_not_equal(support_shell(paths.dir, "cmp -s a.bin w.bin"), 0);
	NnueNetwork *net = malloc(sizeof *net);
	char err[NNUE_ERROR_MAX + 600];
	if (!nnue_load_file(net, support_path(paths.dir, "w.bin"), VARIANT_POOL, err, sizeof err))
		fail_msg("%s", err);
	assert_false(nnue_load_file(net, support_path(paths.dir, "w.bin"), VARIANT_RUSSIAN, err, sizeof err));
	free(net);
	assert_int_equal(
	    support_shell(paths.dir, "'%s' --out x.bin --epochs 1 d.psdata r.psdata 2> x.err", paths.train),
	    1);
	assert_int_equal(
	    support_shell(paths.dir, "grep -q 'r.psdata: russian data, and d.psdata is pool (--with' x.err"),
	    0);
	assert_int_not_equal(support_shell(paths.dir, "test -e x.bin"), 0);
}

static void test_bad_arguments(void **state)
{
	(void)state;
	assert_int_equal(support_shell(paths.dir, "'%s' --out x.bin --hidden 24 d.psdata 2> e1", paths.train),
	                 2);
	assert_int_equal(support_shell(paths.dir, "grep -q 'hidden: 24 is not a multiple of 16' e1"), 0);
	assert_int_equal(support_shell(paths.dir, "'%s' --out x.bin --threads 0 d.psdata 2> e2", paths.train),
	                 2);
	assert_int_equal(support_shell(paths.dir, "grep -q 'threads: 0 is too small' e2"), 0);
	assert_int_equal(support_shell(paths.dir, "'%s' d.psdata 2> e3", paths.train), 2);
	assert_int_equal(support_shell(paths.dir, "grep -q 'out NET is required' e3"), 0);
	assert_int_equal(support_shell(paths.dir, "'%s' --out x.bin --bogus 1 d.psdata 2> e4", paths.train),
	                 2);
	assert_int_equal(support_shell(paths.dir, "grep -q 'unknown option' e4"), 0);
}

static int setup(void **state)
{
	*state = paths.dir;
	bool ready = support_tool_path("test_train", "datagen", paths.datagen, sizeof paths.datagen) &&
	             support_tool_path("test_train", "train", paths.train, sizeof paths.train) &&
	             getcwd(paths.source, sizeof paths.source) &&
	             support_scratch_dir("test_train", paths.dir, sizeof paths.dir);
	return ready ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_deterministic_and_learning),
	    cmocka_unit_test(test_damaged_data_stops),
	    cmocka_unit_test(test_fine_tune),
	    cmocka_unit_test(test_stacks),
	    cmocka_unit_test(test_with_other_rules),
	    cmocka_unit_test(test_bad_arguments),
	};
	return cmocka_run_group_tests(tests, setup, support_teardown_dir);
}
