/* SPDX-License-Identifier: GPL-3.0-or-later */
/* datagen gen: fixed-node self-play games in worker threads, written in game order, deduplicated. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/clock.h"
#include "poolshark/egdb.h"
#include "poolshark/nnue.h"
#include "poolshark/game.h"
#include "poolshark/movegen.h"
#include "poolshark/random.h"
#include "poolshark/score.h"
#include "poolshark/search.h"
#include "poolshark/variant.h"
#include "cmdline.h"
#include "datagen.h"
#include "openings.h"
#include "posdata.h"

enum { JOBS_MAX = 64, WINDOW_PER_JOB = 4 };

/* Who plays the other side of each game (--opponent). */
typedef enum Opponent {
	OPPONENT_SELF,    /* the games are self-play */
	OPPONENT_CLASSIC, /* the classic evaluation */
	OPPONENT_NET,     /* a network: the compiled-in one or --opponent-eval-file */
} Opponent;

typedef struct GenOptions {
	const char *out, *openings, *egdb_dir;
	char openings_default[OPENINGS_PATH_MAX]; /* the path when --openings is not given */
	const char *eval_file; /* NULL: the classic evaluation; "default": the compiled-in network */
	Variant variant;
	int games, random_plies, max_plies, hash_mb, jobs, shard_index, shard_count;
	long long nodes, seed;
	long long opponent_nodes; /* the opponent's nodes a move (--opponent-nodes) */
	bool adjudicate, quiet;
	/* The network plays one side only, Black in even games, and the
	 * opponent the other; every position is labelled with the network's
	 * score (--opponent). */
	Opponent opponent;
	const char *opponent_eval_file; /* --opponent net: NULL for the compiled-in network */
	/* --label net: every position written is labelled by a search of its
	 * own with this network ("default": the compiled-in one) at
	 * label_nodes; NULL: by the search that chose the move. */
	const char *label_eval_file;
	long long label_nodes;
} GenOptions;

/* One game's records, filled by a worker and emptied by the writer. */
typedef struct Slot {
	PosdataRecord *records;
	int count;
	bool done;
} Slot;

typedef struct Run {
	const GenOptions *o;
	Openings openings;
	Egdb *db;
	int egdb_pieces;
	NnueNetwork *net;          /* what the games are played with; NULL: the classic evaluation */
	NnueNetwork *opponent_net; /* --opponent net's network */
	NnueNetwork *label_net;    /* --label net's network */
	int task_count;            /* games of this shard; task t is game shard_index + t * shard_count */
	int window;                /* games played ahead of the writer at most */
	Slot *slots;               /* [window], task t in slot t % window */

	pthread_mutex_t lock; /* guards the fields below and the slots' done flags */
	pthread_cond_t changed;
	int next_task, written;
	bool failed;
} Run;

/* What the options chose before they are settled into GenOptions: -1 for not given. */
typedef struct GenChoices {
	int eval;     /* 0 classic, 1 net */
	int opponent; /* 0 classic, 1 net */
	int label;    /* 0 net */
	const char *eval_file;
} GenChoices;

/* The options that go together settled into *o; false with the first that does not. */
static bool settle_gen_options(GenOptions *o, const GenChoices *c, char *problem, size_t size)
{
	bool eval_net = c->eval == 1, label_net = c->label == 0;
	o->opponent = c->opponent < 0 ? OPPONENT_SELF : c->opponent == 0 ? OPPONENT_CLASSIC : OPPONENT_NET;
	const struct {
		bool broken;
		const char *why;
	} rules[] = {
	    {c->eval_file && !eval_net, "--eval-file needs --eval net"},
	    {o->opponent != OPPONENT_SELF && !eval_net, "--opponent needs --eval net"},
	    {o->opponent_nodes && o->opponent == OPPONENT_SELF, "--opponent-nodes needs --opponent"},
	    {o->opponent_eval_file && o->opponent != OPPONENT_NET,
	     "--opponent-eval-file needs --opponent net"},
	    {o->label_eval_file && !label_net, "--label-eval-file needs --label net"},
	    {o->label_nodes && !label_net, "--label-nodes needs --label net"},
	    {label_net && o->opponent != OPPONENT_SELF,
	     "--label and --opponent both choose the labels; give one"},
	};
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (rules[i].broken) {
			snprintf(problem, size, "%s", rules[i].why);
			return false;
		}
	if (!o->opponent_nodes)
		o->opponent_nodes = o->nodes;
	if (label_net) {
		if (!o->label_eval_file)
			o->label_eval_file = "default";
		if (!o->label_nodes)
			o->label_nodes = o->nodes;
	}
	o->eval_file = eval_net ? (c->eval_file ? c->eval_file : "default") : NULL;
	if (!o->openings)
		o->openings =
		    openings_find_default(o->variant, o->openings_default, sizeof o->openings_default);
	return true;
}

/* The options into *o (its defaults first); false with the exit status. */
static bool parse_gen_options(int argc, char **argv, GenOptions *o, int *status)
{
	*o = (GenOptions){.games = 1000,
	                  .nodes = 5000,
	                  .random_plies = 8,
	                  .max_plies = 400,
	                  .hash_mb = 8,
	                  .jobs = 1,
	                  .shard_count = 1,
	                  .seed = 1,
	                  .adjudicate = true};
	GenChoices c = {.eval = -1, .opponent = -1, .label = -1};
	const CmdlineOption options[] = {
	    cmdline_required(cmdline_text("out", "FILE", &o->out, "the training data file to write")),
	    cmdline_variant("variant", &o->variant, "the rules of the games (default pool)"),
	    cmdline_text("openings", "FILE", &o->openings, "the openings (default: the variant's)"),
	    cmdline_int("games", "N", &o->games, 1, 100000000, "games to play (default 1000)"),
	    cmdline_long("nodes", "N", &o->nodes, 1, 1LL << 40, "nodes a move (default 5000)"),
	    cmdline_int("random-plies", "R", &o->random_plies, 0, 40,
	                "random moves after the opening, R/2..R (default 8)"),
	    cmdline_int("max-plies", "M", &o->max_plies, 10, 10000,
	                "a game still running after M plies is a draw (default 400)"),
	    cmdline_int("hash", "MB", &o->hash_mb, 1, 4096, "each thread's table (default 8)"),
	    cmdline_int("jobs", "J", &o->jobs, 1, JOBS_MAX, "worker threads (default 1)"),
	    cmdline_int("threads", "J", &o->jobs, 1, JOBS_MAX, "the same as --jobs"),
	    cmdline_long("seed", "S", &o->seed, 0, 1LL << 62, "of every game (default 1)"),
	    cmdline_shard("shard", "K/N", &o->shard_index, &o->shard_count, "plays games K, K+N, ... only"),
	    cmdline_text("egdb", "DIR", &o->egdb_dir,
	                 "the endgame databases, or none (default: beside the program)"),
	    cmdline_off("no-adjudicate", &o->adjudicate, "play on where the databases know the result"),
	    cmdline_on("quiet", &o->quiet, "no progress on stderr"),
	    cmdline_choice("eval", "classic net", &c.eval, "what plays the games (default classic)"),
	    cmdline_text("eval-file", "FILE", &c.eval_file, "--eval net's network (default: compiled in)"),
	    cmdline_choice("opponent", "classic net", &c.opponent,
	                   "the network plays one side, this the other"),
	    cmdline_text("opponent-eval-file", "FILE2", &o->opponent_eval_file,
	                 "--opponent net's network (default: compiled in)"),
	    cmdline_long("opponent-nodes", "N", &o->opponent_nodes, 1, 1LL << 40,
	                 "the opponent's nodes a move (default: --nodes)"),
	    cmdline_choice("label", "net", &c.label, "each position labelled by a search of its own"),
	    cmdline_text("label-eval-file", "FILE3", &o->label_eval_file,
	                 "--label net's network (default: compiled in)"),
	    cmdline_long("label-nodes", "N", &o->label_nodes, 1, 1LL << 40,
	                 "the labelling search's nodes (default: --nodes)"),
	};
	const Cmdline cmdline = {
	    .program = "datagen gen",
	    .synopsis = "usage: datagen gen --out FILE [OPTIONS]\n"
	                "Plays N self-play games, searching N nodes a move, each from a random opening\n"
	                "of FILE followed by R/2..R random moves that keep material level, and writes\n"
	                "every position where the side to move has no capture, labelled with the\n"
	                "search's score and the game's result (doc/EVAL.md). Game i is played from the\n"
	                "seed and i alone, so the file is the same for any J. A position already\n"
	                "written is dropped. --shard K/N plays games K, K+N, ... only (datagen merge\n"
	                "joins the shards). Positions the rule set's endgame databases hold carry\n"
	                "their exact value, and the game ends there with that result unless\n"
	                "--no-adjudicate. --eval net plays the games with the network; --opponent\n"
	                "classic gives it one side (Black in even games) and the classic evaluation the\n"
	                "other, and every position carries the network's score: its own search's, or in\n"
	                "the opponent's turn its search's of the move before; --opponent net: the\n"
	                "opponent is a network too. --label net: each position written is labelled by a\n"
	                "search of its own with a network.\n",
	    .options = options,
	    .count = sizeof options / sizeof options[0],
	};
	if (!cmdline_parse(&cmdline, argc, argv, status))
		return false;
	char problem[CMDLINE_PROBLEM_MAX];
	if (!settle_gen_options(o, &c, problem, sizeof problem)) {
		*status = cmdline_fail(&cmdline, "%s", problem);
		return false;
	}
	return true;
}

static PosdataResult result_for(GameResult result, Color side)
{
	if (result == RESULT_DRAW || result == RESULT_NONE)
		return POSDATA_DRAW;
	bool black_won = result == RESULT_BLACK_WINS;
	return black_won == (side == BLACK) ? POSDATA_WIN : POSDATA_LOSS;
}

/* A score of the position after the best move, seen from the side that
 * is then to move: negated, and a forced end one ply nearer. */
static int score_one_ply_back(int score)
{
	if (!score_is_decisive(score))
		return -score;
	return score > 0 ? -score - 1 : -score + 1;
}

typedef struct Worker {
	Run *run;
	Search *search;
	TT tt;
	bool tt_ok;
	/* The opponent's own search and table (--opponent). */
	Search *opponent;
	TT opponent_tt;
	bool opponent_tt_ok;
	/* The labeller's (--label). */
	Search *labeller;
	TT label_tt;
	bool label_tt_ok;
	Game *game;
	PosdataRecord *scratch;
} Worker;

/*
 * Plays game `number` into w->scratch; returns the records (quiet positions
 * searched by the engine) or -1 when a database class it needs is unreadable.
 */
static int play_game(Worker *w, int number)
{
	const GenOptions *o = w->run->o;
	Run *run = w->run;
	Game *g = w->game;
	uint64_t rng = datagen_rng(o->seed, number);
	const Position *opening = &run->openings.positions[random_below(&rng, (uint64_t)run->openings.count)];
	openings_random_start(&rng, opening, (o->random_plies + 1) / 2, o->random_plies, g);
	tt_clear(&w->tt);
	search_clear(w->search);
	Color net_side = number % 2 == 0 ? BLACK : WHITE;
	/* The network's score of the position the opponent is now to move
	 * in: its search's score one ply before, seen from the other side. */
	bool have_net_score = false;
	int net_score = 0;
	if (o->opponent != OPPONENT_SELF) {
		tt_clear(&w->opponent_tt);
		search_clear(w->opponent);
	}
	if (w->labeller) {
		tt_clear(&w->label_tt);
		search_clear(w->labeller);
	}
	SearchLimits limits = {.nodes = (uint64_t)o->nodes};
	SearchLimits opponent_limits = {.nodes = (uint64_t)o->opponent_nodes};
	SearchLimits label_limits = {.nodes = (uint64_t)o->label_nodes};
	GameResult result = RESULT_NONE;
	unsigned flags = 0;
	int count = 0;
	for (;;) {
		GameStatus status = game_status(g);
		if (status.result != RESULT_NONE) {
			result = status.result;
			break;
		}
		if (g->ply_count >= o->max_plies) {
			result = RESULT_DRAW;
			flags = POSDATA_FLAG_PLY_CAP;
			break;
		}
		const Position *p = game_position(g);
		SearchRoot root;
		SearchResult r;
		search_root_from_game(g, &root);
		bool opponent_moves = o->opponent != OPPONENT_SELF && p->side != net_side;
		if (opponent_moves)
			search_run(w->opponent, &w->opponent_tt, &root, &opponent_limits, NULL, &r);
		else
			search_run(w->search, &w->tt, &root, &limits, NULL, &r);

		bool known = false;
		uint8_t value = EGDB_VALUE_DRAW;
		if (run->db && bb_count(position_occupied(p)) <= run->egdb_pieces) {
			if (!egdb_probe(run->db, p, &value))
				return -1;
			known = true;
		}
		int score = r.score;
		bool labelled = !opponent_moves || have_net_score;
		if (opponent_moves)
			score = net_score;
		if (o->opponent != OPPONENT_SELF) {
			have_net_score = !opponent_moves;
			net_score = score_one_ply_back(r.score);
		}
		if (!movegen_has_capture(p) && labelled) {
			if (w->labeller) {
				SearchResult label;
				search_run(w->labeller, &w->label_tt, &root, &label_limits, NULL, &label);
				score = label.score;
			}
			w->scratch[count++] =
			    (PosdataRecord){.pos = *p,
			                    .score = score,
			                    .has_egdb = known,
			                    .egdb = known ? datagen_egdb_label(value) : POSDATA_DRAW,
			                    .ply = g->ply_count,
			                    .game = (uint32_t)number};
		}
		if (known && o->adjudicate) {
			PosdataResult mover = datagen_egdb_label(value);
			result = mover == POSDATA_DRAW                          ? RESULT_DRAW
			         : (mover == POSDATA_WIN) == (p->side == BLACK) ? RESULT_BLACK_WINS
			                                                        : RESULT_WHITE_WINS;
			flags = POSDATA_FLAG_ADJUDICATED;
			break;
		}
		if (!game_play(g, r.best))
			return -1; /* cannot happen: the search returns a legal move */
	}
	for (int i = 0; i < count; i++) {
		w->scratch[i].result = result_for(result, w->scratch[i].pos.side);
		w->scratch[i].flags = flags;
	}
	return count;
}

static void *worker_main(void *arg)
{
	Worker *w = arg;
	Run *run = w->run;
	pthread_mutex_lock(&run->lock);
	for (;;) {
		while (!run->failed && run->next_task < run->task_count &&
		       run->next_task >= run->written + run->window)
			pthread_cond_wait(&run->changed, &run->lock);
		if (run->failed || run->next_task >= run->task_count)
			break;
		int task = run->next_task++;
		pthread_mutex_unlock(&run->lock);

		int number = run->o->shard_index + task * run->o->shard_count;
		int count = play_game(w, number);
		Slot *slot = &run->slots[task % run->window];
		PosdataRecord *copy = count > 0 ? malloc((size_t)count * sizeof *copy) : NULL;
		if (copy)
			memcpy(copy, w->scratch, (size_t)count * sizeof *copy);

		pthread_mutex_lock(&run->lock);
		if (count < 0 || (count > 0 && !copy)) {
			if (!run->failed)
				fprintf(stderr, "datagen gen: game %d: %s\n", number,
				        count < 0 ? "an endgame database class is unreadable"
				                  : "out of memory");
			run->failed = true;
			free(copy);
		} else {
			slot->records = copy;
			slot->count = count;
			slot->done = true;
		}
		pthread_cond_broadcast(&run->changed);
	}
	pthread_cond_broadcast(&run->changed);
	pthread_mutex_unlock(&run->lock);
	return NULL;
}

static bool worker_init(Worker *w, Run *run)
{
	*w = (Worker){.run = run};
	w->search = search_create();
	w->tt_ok = tt_init(&w->tt, (size_t)run->o->hash_mb);
	w->game = malloc(sizeof *w->game);
	w->scratch = malloc((size_t)(run->o->max_plies + 1) * sizeof *w->scratch);
	if (w->search) {
		search_set_egdb(w->search, run->db);
		search_set_network(w->search, run->net);
	}
	if (run->label_net) {
		w->labeller = search_create();
		w->label_tt_ok = tt_init(&w->label_tt, (size_t)run->o->hash_mb);
		if (!w->labeller || !w->label_tt_ok)
			return false;
		search_set_egdb(w->labeller, run->db);
		search_set_network(w->labeller, run->label_net);
	}
	if (run->o->opponent == OPPONENT_SELF)
		return w->search && w->tt_ok && w->game && w->scratch;
	w->opponent = search_create();
	w->opponent_tt_ok = tt_init(&w->opponent_tt, (size_t)run->o->hash_mb);
	if (w->opponent) {
		search_set_egdb(w->opponent, run->db);
		search_set_network(w->opponent, run->opponent_net);
	}
	return w->search && w->tt_ok && w->opponent && w->opponent_tt_ok && w->game && w->scratch;
}

static void worker_free(Worker *w)
{
	if (w->search)
		search_destroy(w->search);
	if (w->tt_ok)
		tt_free(&w->tt);
	if (w->opponent)
		search_destroy(w->opponent);
	if (w->opponent_tt_ok)
		tt_free(&w->opponent_tt);
	if (w->labeller)
		search_destroy(w->labeller);
	if (w->label_tt_ok)
		tt_free(&w->label_tt);
	free(w->game);
	free(w->scratch);
}

typedef struct Totals {
	long long written, duplicates, games;
	long long results[3];
} Totals;

/* Takes the games from the slots in order, drops positions already written
 * and writes the rest. False on a write error or a failed worker. */
static bool write_games(Run *run, PosdataWriter *writer, KeySet *seen, Totals *t)
{
	const GenOptions *o = run->o;
	int64_t started = clock_now_ms();
	bool ok = true;
	for (int task = 0; task < run->task_count && ok; task++) {
		Slot *slot = &run->slots[task % run->window];
		pthread_mutex_lock(&run->lock);
		while (!slot->done && !run->failed)
			pthread_cond_wait(&run->changed, &run->lock);
		ok = slot->done;
		pthread_mutex_unlock(&run->lock);
		if (!ok)
			break;
		for (int i = 0; i < slot->count && ok; i++) {
			bool added;
			if (!keyset_add(seen, slot->records[i].pos.key, &added)) {
				fprintf(stderr, "datagen gen: out of memory\n");
				ok = false;
			} else if (!added) {
				t->duplicates++;
			} else if (!posdata_writer_add(writer, &slot->records[i])) {
				fprintf(stderr, "datagen gen: %s: write error\n", writer->temporary);
				ok = false;
			} else {
				t->written++;
				t->results[slot->records[i].result]++;
			}
		}
		free(slot->records);
		t->games++;
		pthread_mutex_lock(&run->lock);
		*slot = (Slot){.records = NULL};
		run->written++;
		if (!ok)
			run->failed = true;
		pthread_cond_broadcast(&run->changed);
		pthread_mutex_unlock(&run->lock);
		if (!o->quiet && (t->games % 100 == 0 || t->games == run->task_count)) {
			double seconds = (double)(clock_now_ms() - started) / 1000.0;
			fprintf(
			    stderr,
			    "datagen gen: %lld/%d games, %lld positions (%lld duplicates dropped), %.0f s\n",
			    t->games, run->task_count, t->written, t->duplicates, seconds);
		}
	}
	return ok;
}

/* *net = the network of `file` ("default": the compiled-in one), or a
 * message naming `option` and the problem; false then, *net NULL. */
static bool load_network(NnueNetwork **net, const char *option, const char *file, Variant variant)
{
	char err[1200];
	*net = malloc(sizeof **net);
	bool loaded = *net && (strcmp(file, "default") ? nnue_load_file(*net, file, variant, err, sizeof err)
	                                               : nnue_load_default(*net, variant, err, sizeof err));
	if (!loaded) {
		fprintf(stderr, "datagen gen: %s %s: %s\n", option, file, *net ? err : "out of memory");
		free(*net);
		*net = NULL;
	}
	return loaded;
}

int datagen_gen(int argc, char **argv)
{
	GenOptions o;
	int status;
	if (!parse_gen_options(argc, argv, &o, &status))
		return status;
	Run run = {.o = &o};
	char err[1200];
	if (!openings_read(o.openings, o.variant, NULL, &run.openings, err, sizeof err)) {
		fprintf(stderr, "datagen gen: %s\n", err);
		return 1;
	}
	char default_dir[1024];
	const char *dir = o.egdb_dir;
	if (!dir) {
		egdb_default_dir(default_dir, sizeof default_dir);
		dir = default_dir;
	}
	/* A directory named must hold the rule set's databases; the one
	 * beside the program is pool's, and another rule set's only when its
	 * databases are there. */
	if (dir[0] && strcmp(dir, "none") != 0) {
		run.db = egdb_open(dir, o.variant, err, sizeof err);
		if (!run.db && (o.egdb_dir || o.variant == VARIANT_POOL)) {
			fprintf(stderr, "datagen gen: --egdb %s: %s\n", dir, err);
			openings_free(&run.openings);
			return 1;
		}
	}
	if (run.db)
		run.egdb_pieces = egdb_max_pieces(run.db);
	if ((o.eval_file && !load_network(&run.net, "--eval-file", o.eval_file, o.variant)) ||
	    (o.opponent == OPPONENT_NET &&
	     !load_network(&run.opponent_net, "--opponent-eval-file",
	                   o.opponent_eval_file ? o.opponent_eval_file : "default", o.variant)) ||
	    (o.label_eval_file &&
	     !load_network(&run.label_net, "--label-eval-file", o.label_eval_file, o.variant))) {
		free(run.net);
		free(run.opponent_net);
		egdb_close(run.db);
		openings_free(&run.openings);
		return 1;
	}

	run.task_count =
	    o.games > o.shard_index ? (o.games - o.shard_index + o.shard_count - 1) / o.shard_count : 0;
	run.window = WINDOW_PER_JOB * o.jobs;
	run.slots = calloc((size_t)run.window, sizeof *run.slots);
	Worker *workers = calloc((size_t)o.jobs, sizeof *workers);
	pthread_t threads[JOBS_MAX];
	int started = 0;
	status = 1;
	pthread_mutex_init(&run.lock, NULL);
	pthread_cond_init(&run.changed, NULL);
	KeySet seen = {.slots = NULL};
	PosdataWriter writer = {.file = NULL};
	PosdataHeader header = {.variant = o.variant,
	                        .egdb_pieces = run.egdb_pieces,
	                        .nodes = (uint64_t)o.nodes,
	                        .seed = (uint64_t)o.seed};
	if (!run.slots || !workers || !keyset_init(&seen)) {
		fprintf(stderr, "datagen gen: out of memory\n");
		goto done;
	}
	for (int i = 0; i < o.jobs; i++)
		if (!worker_init(&workers[i], &run)) {
			fprintf(stderr, "datagen gen: out of memory\n");
			goto done;
		}
	if (!posdata_writer_open(&writer, o.out, &header, err, sizeof err)) {
		fprintf(stderr, "datagen gen: %s\n", err);
		goto done;
	}
	int64_t start_ms = clock_now_ms();
	for (; started < o.jobs; started++)
		if (pthread_create(&threads[started], NULL, worker_main, &workers[started]) != 0) {
			fprintf(stderr, "datagen gen: cannot start a thread\n");
			pthread_mutex_lock(&run.lock);
			run.failed = true;
			pthread_cond_broadcast(&run.changed);
			pthread_mutex_unlock(&run.lock);
			break;
		}
	Totals totals = {0};
	bool ok = started == o.jobs && write_games(&run, &writer, &seen, &totals);
	for (int i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	if (ok && !posdata_writer_close(&writer, err, sizeof err)) {
		fprintf(stderr, "datagen gen: %s\n", err);
		ok = false;
	} else if (!ok) {
		posdata_writer_abandon(&writer);
	}
	if (ok && !o.quiet) {
		double seconds = (double)(clock_now_ms() - start_ms) / 1000.0;
		fprintf(stderr,
		        "datagen gen: %s: %lld positions of %lld games (win %lld, draw %lld, loss %lld for "
		        "the side to move), %lld duplicates dropped, %.1f s, %.0f positions/s\n",
		        o.out, totals.written, totals.games, totals.results[POSDATA_WIN],
		        totals.results[POSDATA_DRAW], totals.results[POSDATA_LOSS], totals.duplicates,
		        seconds, seconds > 0 ? (double)totals.written / seconds : 0.0);
	}
	status = ok ? 0 : 1;
done:
	for (int i = 0; i < o.jobs && workers; i++)
		worker_free(&workers[i]);
	if (run.slots)
		for (int i = 0; i < run.window; i++)
			free(run.slots[i].records);
	free(run.slots);
	free(workers);
	keyset_free(&seen);
	pthread_cond_destroy(&run.changed);
	pthread_mutex_destroy(&run.lock);
	if (run.db)
		egdb_close(run.db);
	free(run.net);
	free(run.opponent_net);
	free(run.label_net);
	openings_free(&run.openings);
	return status;
}
