/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine facade: game, hash table, options, the book and the search threads. */
#include "poolshark/engine.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/bigmem.h"
#include "poolshark/book.h"
#include "poolshark/clock.h"
#include "poolshark/eval.h"
#include "poolshark/movegen.h"
#include "poolshark/random.h"
#include "poolshark/threads.h"
#include "engine_internal.h"

void engine_default_options(EngineOptions *out)
{
	out->hash_mb = 64;
	out->move_overhead_ms = 50;
	out->ponder = false;
	out->strength = 100;
	out->variant = VARIANT_POOL;
	out->egdb_path[0] = '\0';
	out->threads = 1;
	snprintf(out->book, sizeof out->book, "off");
	out->eval = ENGINE_EVAL_NET;
	snprintf(out->eval_file, sizeof out->eval_file, "default");
	out->contempt = 0;
	out->multipv = 1;
}

/* A new network for `variant` from `file` ("default": the compiled-in
 * one), running the engine's kernel, into *out; false with the reason in
 * error when it cannot be had. A rule set with no compiled-in network
 * gets NULL for "default", and the classic evaluation plays. */
static bool load_network(const Engine *e, Variant variant, const char *file, NnueNetwork **out, char *error,
                         size_t size)
{
	*out = NULL;
	bool by_default = !strcmp(file, "default");
	if (by_default && !nnue_has_default(variant))
		return true;
	NnueNetwork *net = nnue_create();
	if (!net) {
		snprintf(error, size, "%s", engine_status_text(ENGINE_NO_MEMORY));
		return false;
	}
	bool ok = by_default ? nnue_load_default(net, variant, error, size)
	                     : nnue_load_file(net, file, variant, error, size);
	if (!ok) {
		nnue_destroy(net);
		return false;
	}
	nnue_use_kernel(net, e->kernel); /* available: engine_create() chose it */
	*out = net;
	return true;
}

/* Gives every search the engine's network when the options ask for it. The
 * weaker settings (strength below 100) keep the classic evaluation: their
 * ladder of depths, nodes and margins was set and measured with it. */
static void use_network(Engine *e)
{
	bool net = e->options.eval == ENGINE_EVAL_NET && e->options.strength >= 100;
	threads_set_network(e->threads, net ? e->network : NULL);
}

bool engine_network_score(const Engine *e, const Position *p, int *score)
{
	if (!e->network || e->network->variant != (Variant)p->variant)
		return false;
	if (eval_is_kings_ending(p)) {
		*score = eval_kings_ending(p, eval_weights_for((Variant)p->variant));
		return true;
	}
	NnueAccumulator acc;
	nnue_refresh(e->network, p, &acc);
	*score = nnue_evaluate(e->network, &acc, (Color)p->side);
	return true;
}

const char *engine_network_error(const Engine *e)
{
	return e->network_error;
}

const char *engine_kernel(const Engine *e)
{
	return nnue_kernel_name(e->kernel);
}

const char *engine_kernel_error(const Engine *e)
{
	return e->kernel_error;
}

/* Gives every search the databases db (NULL: none), closing the old ones;
 * error is what opening them said. */
static void use_egdb(Engine *e, Egdb *db, const char *error)
{
	threads_set_egdb(e->threads, NULL);
	egdb_close(e->egdb);
	e->egdb = db;
	snprintf(e->egdb_error, sizeof e->egdb_error, "%s", error);
	threads_set_egdb(e->threads, e->egdb);
}

int engine_egdb_pieces(const Engine *e, const char **error)
{
	if (error)
		*error = e->egdb_error;
	return egdb_max_pieces(e->egdb);
}

int engine_lookup(Engine *e, EgdbVerdict *verdict, EgdbMoveVerdict *moves, int max, const char **why)
{
	const Position *p = game_position(e->game);
	*why = "";
	if (!e->egdb) {
		*why = e->egdb_error[0] ? e->egdb_error : "no endgame databases (egdb-path is none)";
		return -1;
	}
	if (egdb_variant(e->egdb) != position_variant(p)) {
		*why = "the endgame databases are of another rule set";
		return -1;
	}
	int count = egdb_lookup(e->egdb, p, verdict, moves, max);
	if (count < 0)
		*why =
		    "the position is not in the endgame databases (too many pieces, or a class is missing)";
	return count;
}

int engine_book_moves(Engine *e, Move *moves, int *weights, int max)
{
	if (e->options.variant != VARIANT_POOL)
		return 0;
	const Book *book = e->book;
	if (!book) {
		char error[256];
		if (!e->listed && !book_open("default", &e->listed, error, sizeof error))
			return 0;
		book = e->listed;
	}
	return book_moves(book, game_position(e->game), moves, weights, max);
}

static void *prepare_table(void *arg)
{
	Engine *e = arg;
	tt_prefault(&e->tt, PREPARE_THREADS, &e->prepare_abort);
	return NULL;
}

/* Waits for the table to be resident (or, with abort, for the preparer to
 * give up). Called by whichever thread owns the engine at the time. */
static void join_preparer(Engine *e, bool abort)
{
	if (!e->preparing)
		return;
	if (abort)
		atomic_store(&e->prepare_abort, true);
	pthread_join(e->preparer, NULL);
	e->preparing = false;
	atomic_store(&e->prepare_abort, false);
}

/* A new (all-zero) table is made resident in the background, so that the
 * searches do not take its page faults on their clock. */
static void start_preparer(Engine *e)
{
	/* Without threads (the browser worker) this fails, and the pages fault
	 * in as the search uses them. */
	e->preparing = pthread_create(&e->preparer, NULL, prepare_table, e) == 0;
}

EngineStatus engine_prepare(Engine *e)
{
	if (engine_is_searching(e))
		return ENGINE_BUSY;
	join_preparer(e, false);
	return ENGINE_OK;
}

Engine *engine_create(const EngineOptions *options)
{
	Engine *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	e->options = *options;
	e->game = malloc(sizeof *e->game);
	e->threads = threads_create();
	char error[BOOK_ERROR_MAX];
	if (!e->game || !e->threads || !threads_set_count(e->threads, options->threads) ||
	    !book_open(options->book, &e->book, error, sizeof error) || !tt_init(&e->tt, options->hash_mb)) {
		book_free(e->book);
		threads_destroy(e->threads);
		free(e->game);
		free(e);
		return NULL;
	}
	Position start;
	position_start_variant(&start, options->variant);
	game_init(e->game, &start);
	atomic_init(&e->stop, false);
	atomic_init(&e->pondering, false);
	atomic_init(&e->searching, false);
	atomic_init(&e->prepare_abort, false);
	char egdb_error[sizeof e->egdb_error] = "";
	/* A directory without databases: the engine plays on without. */
	use_egdb(e,
	         options->egdb_path[0]
	             ? egdb_open(options->egdb_path, options->variant, egdb_error, sizeof egdb_error)
	             : NULL,
	         egdb_error);
	if (!nnue_kernel_from_environment(&e->kernel, e->kernel_error, sizeof e->kernel_error))
		e->kernel = nnue_kernel_best();
	char net_error[sizeof e->network_error] = "";
	if (!load_network(e, options->variant, options->eval_file, &e->network, net_error,
	                  sizeof net_error)) {
		snprintf(e->network_error, sizeof e->network_error, "eval-file: %s", net_error);
		snprintf(e->options.eval_file, sizeof e->options.eval_file, "default");
		if (!load_network(e, options->variant, "default", &e->network, net_error, sizeof net_error)) {
			engine_destroy(e);
			return NULL;
		}
	}
	use_network(e);
	engine_seed(e, (uint64_t)clock_now_ms() ^ (uint64_t)(uintptr_t)e);
	start_preparer(e);
	return e;
}

const char *engine_status_text(EngineStatus status)
{
	switch (status) {
	case ENGINE_OK: return "done";
	case ENGINE_BUSY: return "a search is running (send stop first)";
	case ENGINE_ILLEGAL_MOVE: return "not a legal move here";
	case ENGINE_GAME_OVER: return "the game is over";
	case ENGINE_RECORD_FULL: return "the game record is full";
	case ENGINE_NOTHING_TO_UNDO: return "no move to take back";
	case ENGINE_NO_MEMORY: return "not enough memory";
	case ENGINE_WRONG_VARIANT: return "the position is of another variant than the engine's";
	case ENGINE_HASH_TOO_LARGE: return "more than this machine's memory";
	case ENGINE_BAD_BOOK: return "the book cannot be read";
	case ENGINE_BAD_EGDB: return "no complete endgame database there";
	case ENGINE_BAD_NETWORK: return "not a network for this variant";
	}
	return "unknown engine status";
}

static void join_finished(Engine *e)
{
	if (e->thread_joinable) {
		pthread_join(e->thread, NULL);
		e->thread_joinable = false;
	}
}

bool engine_make_idle(Engine *e)
{
	if (engine_is_searching(e))
		return false;
	join_finished(e);
	return true;
}

void engine_destroy(Engine *e)
{
	if (!e)
		return;
	engine_stop(e);
	join_finished(e);
	join_preparer(e, true);
	tt_free(&e->tt);
	book_free(e->book);
	book_free(e->listed);
	threads_destroy(e->threads);
	egdb_close(e->egdb);
	nnue_destroy(e->network);
	free(e->game);
	free(e);
}

/* Opens the databases of rule set v in a new egdb_path for
 * engine_set_options() into *db (NULL for ""); false, with the reason in
 * e->refusal, when the directory holds no complete database of v. */
static bool open_new_egdb(Engine *e, const char *path, Variant v, Egdb **db, char *error, size_t size)
{
	*db = NULL;
	if (!path[0])
		return true;
	*db = egdb_open(path, v, error, size);
	if (egdb_max_pieces(*db) > 0)
		return true;
	snprintf(e->refusal, sizeof e->refusal, "%s", error[0] ? error : engine_status_text(ENGINE_BAD_EGDB));
	egdb_close(*db);
	*db = NULL;
	return false;
}

EngineStatus engine_set_options(Engine *e, const EngineOptions *options)
{
	if (!engine_make_idle(e))
		return ENGINE_BUSY;
	size_t available = bigmem_available_bytes(); /* RAM, or a container's limit */
	if (available && options->hash_mb > available / (1024 * 1024))
		return ENGINE_HASH_TOO_LARGE;
	/* What can fail without touching the table comes first, so that a
	 * refusal changes nothing. */
	Book *book = e->book;
	bool new_book = strcmp(options->book, e->options.book) != 0;
	char error[BOOK_ERROR_MAX];
	if (new_book && !book_open(options->book, &book, error, sizeof error))
		return ENGINE_BAD_BOOK;
	Egdb *egdb = e->egdb;
	bool new_path = strcmp(options->egdb_path, e->options.egdb_path) != 0;
	bool new_egdb = new_path || options->variant != e->options.variant;
	char egdb_error[sizeof e->egdb_error] = "";
	if (new_path &&
	    !open_new_egdb(e, options->egdb_path, options->variant, &egdb, egdb_error, sizeof egdb_error)) {
		if (new_book)
			book_free(book);
		return ENGINE_BAD_EGDB;
	}
	/* The same directory under other rules: their databases there, or
	 * none (the engine plays on without, as engine_create() does). */
	if (!new_path && new_egdb)
		egdb = options->egdb_path[0]
		           ? egdb_open(options->egdb_path, options->variant, egdb_error, sizeof egdb_error)
		           : NULL;
	NnueNetwork *network = e->network;
	bool new_network =
	    options->variant != e->options.variant || strcmp(options->eval_file, e->options.eval_file) != 0;
	if (new_network) {
		char why[sizeof e->refusal - 20];
		if (!load_network(e, options->variant, options->eval_file, &network, why, sizeof why)) {
			/* After a change of variant the file set is what does
			 * not fit: say so; the reason names the file. */
			snprintf(e->refusal, sizeof e->refusal, "%s%s",
			         options->variant != e->options.variant ? "eval-file: " : "", why);
			if (new_book)
				book_free(book);
			if (new_egdb)
				egdb_close(egdb);
			return ENGINE_BAD_NETWORK;
		}
	}
	EngineStatus status = ENGINE_OK;
	int old_threads = threads_count(e->threads);
	if (!threads_set_count(e->threads, options->threads))
		status = ENGINE_NO_MEMORY;
	if (status == ENGINE_OK && options->hash_mb != e->options.hash_mb) {
		join_preparer(e, true);
		bool resized = tt_resize(&e->tt, options->hash_mb);
		if (!e->tt.buckets) {
			/* Not even the old size came back: keep a minimal table so
			 * that the engine stays usable. */
			tt_init(&e->tt, 1);
			e->options.hash_mb = 1;
		}
		if (!resized) {
			threads_set_count(e->threads, old_threads); /* fewer: cannot fail */
			status = ENGINE_NO_MEMORY;
		}
		start_preparer(e);
	}
	if (status != ENGINE_OK) {
		if (new_book)
			book_free(book);
		if (new_egdb)
			egdb_close(egdb);
		if (new_network)
			nnue_destroy(network);
		return status;
	}
	bool new_variant = options->variant != e->options.variant;
	if (new_egdb)
		use_egdb(e, egdb, egdb_error);
	if (new_book) {
		book_free(e->book);
		e->book = book;
	}
	if (new_network) {
		threads_set_network(e->threads, NULL);
		nnue_destroy(e->network);
		e->network = network;
	}
	e->options = *options;
	use_network(e);
	return new_variant ? engine_new_game(e, NULL) : ENGINE_OK;
}

const char *engine_refusal_text(const Engine *e)
{
	return e->refusal;
}

const TT *engine_table(const Engine *e)
{
	return &e->tt;
}

Variant engine_variant(const Engine *e)
{
	return e->options.variant;
}

void engine_get_options(const Engine *e, EngineOptions *out)
{
	*out = e->options;
}

const Game *engine_game(const Engine *e)
{
	return e->game;
}

EngineStatus engine_new_game(Engine *e, const Position *start)
{
	if (!engine_make_idle(e))
		return ENGINE_BUSY;
	Position initial;
	if (!start) {
		position_start_variant(&initial, e->options.variant);
		start = &initial;
	}
	if (start->variant != e->options.variant)
		return ENGINE_WRONG_VARIANT;
	game_init(e->game, start);
	/* The table forgets the old game without being touched (tt.h): the
	 * new game's first move is not charged for clearing it. */
	if (!tt_new_game(&e->tt)) {
		join_preparer(e, true);
		tt_clear(&e->tt);
		start_preparer(e);
	}
	threads_clear(e->threads);
	return ENGINE_OK;
}

EngineStatus engine_seed(Engine *e, uint64_t seed)
{
	if (!engine_make_idle(e))
		return ENGINE_BUSY;
	e->random = seed;
	return ENGINE_OK;
}

static int clamp_strength(int strength)
{
	return strength < 0 ? 0 : strength > 100 ? 100 : strength;
}

/*
 * The limits actually searched. Below strength 100 the engine sees less
 * far (at most 1 + strength/10 plies and 500 << strength/10 nodes, whatever
 * the clock allows) and scores every root move, so that it can then pick
 * one that is nearly as good as the best (choose_weaker_move).
 */
static SearchLimits effective_limits(const Engine *e, const SearchLimits *limits)
{
	SearchLimits l = *limits;
	if (l.multipv == 0)
		l.multipv = e->options.multipv;
	int strength = clamp_strength(e->options.strength);
	if (strength < 100) {
		int depth_cap = 1 + strength / 10;
		uint64_t node_cap = (uint64_t)500 << (strength / 10);
		if (l.depth == 0 || l.depth > depth_cap)
			l.depth = depth_cap;
		if (l.nodes == 0 || l.nodes > node_cap)
			l.nodes = node_cap;
		l.score_all_moves = true;
	}
	return l;
}

/*
 * A weaker player does not always find the best move: it takes one of the
 * root moves whose score is within (100 - strength) * 3/2 hundredths of a
 * man of the best, with a weight that falls with the square of the gap, so
 * the best move stays the likeliest and a move that loses much more than
 * the margin (a man or more at strength 30 and up) is never played.
 */
static void choose_weaker_move(Engine *e, SearchResult *out)
{
	int n = search_root_scores(threads_main(e->threads), e->scored_moves, e->scored_scores,
	                           MOVELIST_CAPACITY);
	if (n == 0)
		return;
	int best = e->scored_scores[0];
	for (int i = 1; i < n; i++)
		if (e->scored_scores[i] > best)
			best = e->scored_scores[i];
	int margin = (100 - clamp_strength(e->options.strength)) * 3 / 2;
	uint64_t total = 0;
	for (int i = 0; i < n; i++) {
		int gap = best - e->scored_scores[i];
		if (gap <= margin)
			total += (uint64_t)(margin + 1 - gap) * (uint64_t)(margin + 1 - gap);
	}
	uint64_t pick = random_below(&e->random, total);
	for (int i = 0; i < n; i++) {
		int gap = best - e->scored_scores[i];
		if (gap > margin)
			continue;
		uint64_t weight = (uint64_t)(margin + 1 - gap) * (uint64_t)(margin + 1 - gap);
		if (pick < weight) {
			if (!move_equal(out->best, e->scored_moves[i]))
				out->ponder = move_none();
			out->best = e->scored_moves[i];
			out->score = e->scored_scores[i];
			return;
		}
		pick -= weight;
	}
}

/* A book move for the root, when the book is on and this search may use
 * it: analysis, several lines and pondering want a search, a weaker
 * setting its own choices. */
static bool book_move(Engine *e, SearchResult *out)
{
	if (!e->book || e->options.variant != VARIANT_POOL || e->limits.infinite || e->limits.ponder ||
	    e->limits.multipv > 1 || clamp_strength(e->options.strength) < 100)
		return false;
	Move m;
	if (!book_pick(e->book, &e->root.position, &e->random, &m))
		return false;
	*out = (SearchResult){.best = m, .ponder = move_none(), .book = true};
	return true;
}

static void run(Engine *e, EngineInfoCallback info, void *user, SearchResult *out)
{
	if (book_move(e, out))
		return;
	SearchControl control = {
	    .stop = &e->stop,
	    .pondering = &e->pondering,
	    .move_overhead_ms = e->options.move_overhead_ms,
	    .contempt = e->options.contempt,
	    .info = info,
	    .user = user,
	};
	if (clamp_strength(e->options.strength) < 100) {
		/* A weaker setting searches a few hundred nodes with one thread,
		 * so that its choices repeat with the seed. */
		search_run(threads_main(e->threads), &e->tt, &e->root, &e->limits, &control, out);
		choose_weaker_move(e, out);
		return;
	}
	threads_search(e->threads, &e->tt, &e->root, &e->limits, &control, out);
}

static void *search_thread(void *arg)
{
	Engine *e = arg;
	SearchResult result;
	/* A search never waits for memory: what is not resident yet faults in
	 * as the search uses it, and the clock is not spent on preparation. */
	join_preparer(e, true);
	run(e, e->info, e->user, &result);
	atomic_store(&e->searching, false);
	if (e->done)
		e->done(&e->root.position, &result, e->user);
	/* The helpers were told to stop when the main search ended; the move
	 * went out first. This thread is joined before the engine changes. */
	threads_wait(e->threads);
	return NULL;
}

EngineStatus engine_start(Engine *e, const SearchLimits *limits, EngineInfoCallback info,
                          EngineDoneCallback done, void *user)
{
	if (!engine_make_idle(e))
		return ENGINE_BUSY;
	e->limits = effective_limits(e, limits);
	search_root_from_game(e->game, &e->root);
	e->info = info;
	e->done = done;
	e->user = user;
	atomic_store(&e->stop, false);
	atomic_store(&e->pondering, limits->ponder);
	atomic_store(&e->searching, true);
#ifdef POOLSHARK_SINGLE_THREAD
	/* No threads (the browser worker): search here, done included; the page
	 * stops an endless search by ending the worker. */
	search_thread(e);
#else
	if (pthread_create(&e->thread, NULL, search_thread, e) != 0) {
		atomic_store(&e->searching, false);
		return ENGINE_NO_MEMORY;
	}
	e->thread_joinable = true;
#endif
	return ENGINE_OK;
}

void engine_stop(Engine *e)
{
	atomic_store(&e->stop, true);
}

void engine_ponder_hit(Engine *e)
{
	atomic_store(&e->pondering, false);
}

void engine_wait(Engine *e)
{
	join_finished(e);
}

bool engine_is_searching(const Engine *e)
{
	return atomic_load(&((Engine *)e)->searching);
}

int engine_root_scores(const Engine *e, Move *moves, int *scores, int max)
{
	if (engine_is_searching(e) || !e->limits.score_all_moves)
		return 0;
	return search_root_scores(threads_main(e->threads), moves, scores, max);
}

EngineStatus engine_search_sync(Engine *e, const SearchLimits *limits, EngineInfoCallback info, void *user,
                                SearchResult *out)
{
	if (!engine_make_idle(e))
		return ENGINE_BUSY;
	/* No GUI clock runs here: the table is made resident first, on its
	 * large pages (the bench's speed is measured on them). */
	join_preparer(e, false);
	e->limits = effective_limits(e, limits);
	search_root_from_game(e->game, &e->root);
	atomic_store(&e->stop, false);
	atomic_store(&e->pondering, false);
	e->limits.ponder = false;
	run(e, info, user, out);
	threads_wait(e->threads);
	return ENGINE_OK;
}
