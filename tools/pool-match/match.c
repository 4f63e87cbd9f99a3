/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The match: openings, worker threads each holding a pair of engines, records and totals. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "match.h"
#include "openings.h"
#include "poolshark/clock.h"
#include "poolshark/hubline.h"
#include "poolshark/notation.h"
#include "poolshark/pdn.h"
#include "poolshark/random.h"
#include "poolshark/textfile.h"

/* Per pair: the first engine's half points in each of its two games, -1 until played. */
typedef struct PairRecord {
	int half_points[2];
} PairRecord;

typedef struct Match {
	MatchConfig *config;
	volatile const sig_atomic_t *interrupted;
	atomic_bool stop; /* the SPRT decided, or a fatal error */
	Openings openings;
	int *order; /* pair -> opening index */
	int pair_count;
	int *tasks; /* game numbers of this shard, in play order */
	int task_count;

	pthread_mutex_t lock; /* guards everything below */
	int next_task;
	int games_done;
	MatchTally tally;
	PairRecord *pairs;
	TerminationCounts terms;
	EdgeTally edges;
	SprtDecision decision;
	double llr;
	FILE *pdn;
	bool write_failed;
	bool progress_tty;
	int64_t started_ms;
} Match;

void termination_add(TerminationCounts *t, const char *name)
{
	for (int i = 0; i < t->count; i++) {
		if (!strcmp(t->names[i], name)) {
			t->games[i]++;
			return;
		}
	}
	if (t->count == MAX_TERMINATIONS)
		name = "other";
	int i = t->count < MAX_TERMINATIONS ? t->count++ : MAX_TERMINATIONS - 1;
	snprintf(t->names[i], sizeof t->names[i], "%s", name);
	t->games[i]++;
}

static bool plan(Match *m)
{
	const MatchConfig *c = m->config;
	int count = m->openings.count;
	int *shuffled = malloc((size_t)count * sizeof *shuffled);
	m->pair_count = (c->games + 1) / 2;
	m->order = malloc((size_t)m->pair_count * sizeof *m->order);
	m->tasks = malloc((size_t)c->games * sizeof *m->tasks);
	m->pairs = malloc((size_t)m->pair_count * sizeof *m->pairs);
	if (!shuffled || !m->order || !m->tasks || !m->pairs) {
		free(shuffled);
		return false;
	}
	for (int i = 0; i < count; i++)
		shuffled[i] = i;
	if (c->seeded) {
		uint64_t state = c->seed;
		for (int i = count - 1; i > 0; i--) {
			int j = (int)(random_next(&state) % (uint64_t)(i + 1));
			int t = shuffled[i];
			shuffled[i] = shuffled[j];
			shuffled[j] = t;
		}
	}
	m->task_count = 0;
	for (int p = 0; p < m->pair_count; p++) {
		m->order[p] = shuffled[p % count];
		m->pairs[p].half_points[0] = m->pairs[p].half_points[1] = -1;
		if (p % c->shard_count != c->shard_index)
			continue;
		for (int g = 2 * p; g < 2 * p + 2 && g < c->games; g++)
			m->tasks[m->task_count++] = g;
	}
	free(shuffled);
	return true;
}

static void format_elo(char *out, size_t size, double elo)
{
	if (isinf(elo))
		snprintf(out, size, "%sinf", elo > 0 ? "+" : "-");
	else
		snprintf(out, size, "%+.1f", elo + 0.0); /* no "-0.0" */
}

/*
 * "score 55.0%  Elo +12.3 [-5.0, +29.9]  LOS 91.2%": the score from every
 * game, Elo and LOS from the complete pairs (from the games before any pair).
 */
static void format_estimate(char *out, size_t size, const MatchTally *t)
{
	EloEstimate e;
	char elo[16], low[16], high[16];
	int games = t->wins + t->draws + t->losses;
	bool ok = stats_pair_count(t) > 0 ? stats_elo_pentanomial(t, &e) : stats_elo_trinomial(t, &e);
	if (!ok || games == 0) {
		snprintf(out, size, "no game yet");
		return;
	}
	format_elo(elo, sizeof elo, e.elo);
	format_elo(low, sizeof low, e.elo_low);
	format_elo(high, sizeof high, e.elo_high);
	snprintf(out, size, "score %.1f%%  Elo %s [%s, %s]  LOS %.1f%%",
	         100.0 * (t->wins + 0.5 * t->draws) / games, elo, low, high, 100.0 * e.los);
}

static void print_progress(Match *m)
{
	char estimate[160], sprt[96] = "";
	const MatchTally *t = &m->tally;
	if (m->config->sprt_enabled) {
		double lower, upper;
		stats_sprt_bounds(&m->config->sprt, &lower, &upper);
		snprintf(sprt, sizeof sprt, "  LLR %.2f [%.2f, %.2f]", m->llr, lower, upper);
	}
	format_estimate(estimate, sizeof estimate, t);
	fprintf(stderr, "%s%d/%d  +%d =%d -%d  %s%s%s", m->progress_tty ? "\r" : "", m->games_done,
	        m->task_count, t->wins, t->draws, t->losses, estimate, sprt,
	        m->progress_tty ? "\033[K" : "\n");
	fflush(stderr);
}

void match_print_summary(const char *name0, const char *name1, const MatchTally *tally,
                         const TerminationCounts *terms, const EdgeTally *edges, const SprtConfig *sprt,
                         double seconds, int games)
{
	char estimate[160];
	format_estimate(estimate, sizeof estimate, tally);
	printf("Match: %s vs %s, %d games", name0, name1, games);
	if (seconds >= 0)
		printf(" in %.1f s", seconds);
	printf("\nResult for %s: +%d =%d -%d, %s\n", name0, tally->wins, tally->draws, tally->losses,
	       estimate);
	printf("Pairs (%d): 0:%d 0.5:%d 1:%d 1.5:%d 2:%d\n", stats_pair_count(tally), tally->pairs[0],
	       tally->pairs[1], tally->pairs[2], tally->pairs[3], tally->pairs[4]);
	if (sprt) {
		double lower, upper, llr;
		SprtDecision d = stats_sprt_decide(tally, sprt, &llr);
		stats_sprt_bounds(sprt, &lower, &upper);
		printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f [%.2f, %.2f] %s\n", sprt->elo0,
		       sprt->elo1, sprt->alpha, sprt->beta, llr, lower, upper,
		       d == SPRT_ACCEPT_H1   ? "H1 accepted"
		       : d == SPRT_ACCEPT_H0 ? "H0 accepted"
		                             : "no decision");
	}
	printf("Terminations:\n");
	for (int i = 0; i < terms->count; i++)
		printf("  %-28s %d\n", terms->names[i], terms->games[i]);
	if (edges)
		edges_print(edges, name0, name1);
	fflush(stdout);
}

static int half_points_of(GameResult result, bool engine0_is_black)
{
	if (result == RESULT_DRAW)
		return 1;
	bool black_won = result == RESULT_BLACK_WINS;
	return black_won == engine0_is_black ? 2 : 0;
}

/* Writes the record and updates every total; called with the lock held. */
static void record_game(Match *m, int number, const Game *game, char **comments, const GameOutcome *o)
{
	const MatchConfig *c = m->config;
	const EngineSpec *black = &c->engines[number % 2], *white = &c->engines[1 - number % 2];
	char round[16], opening[16], fen[NOTATION_FEN_MAX], date[16];
	time_t now = time(NULL);
	struct tm day;
	gmtime_r(&now, &day);
	strftime(date, sizeof date, "%Y.%m.%d", &day);
	snprintf(round, sizeof round, "%d", number + 1);
	snprintf(opening, sizeof opening, "%d", m->order[number / 2] + 1);
	notation_write_fen(&game->positions[0], fen, sizeof fen);
	PdnTag tags[12] = {
	    {"Event", "pool-match"}, {"Date", date},
	    {"Round", round},        {"Black", black->name},
	    {"White", white->name},  {"Result", game_result_text(o->result)},
	    {"SetUp", "1"},          {"FEN", fen},
	    {"Opening", opening},    {"Termination", o->termination},
	};
	int count = 10;
	if (o->detail[0])
		tags[count++] = (PdnTag){"TerminationDetails", o->detail};
	if (m->pdn && !m->write_failed &&
	    (!pdn_write_game(m->pdn, game, tags, count, (const char *const *)comments) ||
	     fflush(m->pdn) != 0)) {
		/* A match whose games are lost is not worth going on with. */
		fprintf(stderr, "pool-match: writing %s failed (%s); stopping the match\n", c->pdn_path,
		        strerror(errno));
		m->write_failed = true;
		atomic_store(&m->stop, true);
	}

	int hp = half_points_of(o->result, number % 2 == 0);
	PairRecord *pair = &m->pairs[number / 2];
	stats_add_game(&m->tally, hp);
	pair->half_points[number % 2] = hp;
	if (pair->half_points[0] >= 0 && pair->half_points[1] >= 0)
		stats_add_pair(&m->tally, pair->half_points[0], pair->half_points[1]);
	termination_add(&m->terms, o->termination);
	edges_add_game(&m->edges, game, o->result, number % 2 == 0);
	m->games_done++;
	if (c->sprt_enabled) {
		m->decision = stats_sprt_decide(&m->tally, &c->sprt, &m->llr);
		if (m->decision != SPRT_CONTINUE)
			atomic_store(&m->stop, true);
	}
	print_progress(m);
}

typedef struct Worker {
	Match *match;
	pthread_t thread;
} Worker;

static void *worker_main(void *arg)
{
	Worker *w = arg;
	Match *m = w->match;
	const MatchConfig *c = m->config;
	Seat seats[2];
	Game *game = malloc(sizeof *game);
	char **comments = calloc(GAME_MAX_PLIES, sizeof *comments);
	size_t line_size = 2 * (size_t)HUBLINE_MAX_LENGTH;
	char *line = malloc(line_size);
	char error[DETAIL_MAX];

	for (int e = 0; e < 2; e++) {
		seats[e].spec = &c->engines[e];
		seats[e].running = false;
		hub_engine_init(&seats[e].engine);
	}
	if (!game || !comments || !line) {
		fprintf(stderr, "pool-match: out of memory\n");
		atomic_store(&m->stop, true);
	}
	while (!*m->interrupted && !atomic_load(&m->stop)) {
		pthread_mutex_lock(&m->lock);
		int task = m->next_task < m->task_count ? m->next_task++ : -1;
		pthread_mutex_unlock(&m->lock);
		if (task < 0)
			break;
		int number = m->tasks[task];
		GameOutcome outcome;
		bool ready = true;
		game_init(game, &m->openings.positions[m->order[number / 2]]);
		for (int e = 0; e < 2 && ready; e++) {
			if (seats[e].running)
				continue;
			if (!seat_start(c, &seats[e], m->interrupted, error, sizeof error)) {
				/* It failed to come back: it loses this game, we try again next game. */
				memset(&outcome, 0, sizeof outcome);
				bool black = (number % 2 == 0) == (e == 0);
				outcome.result = black ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
				snprintf(outcome.termination, sizeof outcome.termination, "crash");
				snprintf(outcome.detail, sizeof outcome.detail, "%s", error);
				ready = false;
			}
		}
		if (*m->interrupted)
			break; /* the game is not played: nothing to record */
		if (ready)
			referee_play(c, seats, number % 2 == 0 ? 0 : 1,
			             &m->openings.positions[m->order[number / 2]], game, comments, line,
			             line_size, m->interrupted, &m->stop, &outcome);
		if (!outcome.aborted) {
			pthread_mutex_lock(&m->lock);
			record_game(m, number, game, comments, &outcome);
			pthread_mutex_unlock(&m->lock);
		}
		for (int i = 0; i < game->ply_count; i++) {
			free(comments[i]);
			comments[i] = NULL;
		}
		for (int e = 0; e < 2; e++)
			if (outcome.restart[e])
				seat_stop(&seats[e]);
	}
	for (int e = 0; e < 2; e++)
		seat_stop(&seats[e]);
	free(line);
	free(comments);
	free(game);
	return NULL;
}

/* Starts each engine once, to fail early on a bad command and to learn its name. */
static bool probe_engines(MatchConfig *c, volatile const sig_atomic_t *interrupted)
{
	char error[DETAIL_MAX];
	for (int e = 0; e < 2; e++) {
		Seat seat = {.spec = &c->engines[e]};
		hub_engine_init(&seat.engine);
		if (!seat_start(c, &seat, interrupted, error, sizeof error)) {
			if (!*interrupted)
				fprintf(stderr, "pool-match: engine %d: %s\n", e + 1, error);
			return false;
		}
		if (!c->engines[e].name[0])
			snprintf(c->engines[e].name, sizeof c->engines[e].name, "%s",
			         seat.engine.name[0] ? seat.engine.name : "engine");
		seat_stop(&seat);
	}
	if (!strcmp(c->engines[0].name, c->engines[1].name)) {
		/* Records must tell the two apart. */
		for (int e = 0; e < 2; e++) {
			size_t n = strnlen(c->engines[e].name, sizeof c->engines[e].name - 3);
			snprintf(c->engines[e].name + n, 3, "-%c", (char)('1' + e));
		}
	}
	return true;
}

int match_run(MatchConfig *config, volatile const sig_atomic_t *interrupted)
{
	Match m = {.config = config, .interrupted = interrupted, .decision = SPRT_CONTINUE};
	int status = 0;
	atomic_init(&m.stop, false);
	pthread_mutex_init(&m.lock, NULL);
	m.progress_tty = isatty(STDERR_FILENO);

	char err[600];
	bool loaded =
	    openings_read(config->openings_path, config->variant, interrupted, &m.openings, err, sizeof err);
	if (!loaded && !*interrupted)
		fprintf(stderr, "pool-match: %s\n", err);
	if (!loaded || !plan(&m)) {
		status = 1;
		goto done;
	}
	if (*interrupted)
		goto done;
	if (config->pdn_path && !(m.pdn = fopen(config->pdn_path, "w"))) {
		fprintf(stderr, "pool-match: %s: %s\n", config->pdn_path, strerror(errno));
		status = 1;
		goto done;
	}
	if (!probe_engines(config, interrupted)) {
		status = 1;
		goto done;
	}
	m.started_ms = clock_now_ms();
	int workers = config->concurrency < m.task_count ? config->concurrency : m.task_count;
	Worker *pool = calloc((size_t)(workers > 0 ? workers : 1), sizeof *pool);
	int started = 0;
	for (int i = 0; pool && i < workers; i++) {
		pool[i].match = &m;
		if (pthread_create(&pool[i].thread, NULL, worker_main, &pool[i]) != 0)
			break;
		started++;
	}
	for (int i = 0; i < started; i++)
		pthread_join(pool[i].thread, NULL);
	free(pool);
	if (m.progress_tty && m.games_done > 0)
		fputc('\n', stderr);

	double seconds = (double)(clock_now_ms() - m.started_ms) / 1000.0;
	match_print_summary(config->engines[0].name, config->engines[1].name, &m.tally, &m.terms, &m.edges,
	                    config->sprt_enabled ? &config->sprt : NULL, seconds, m.games_done);
	if (*interrupted) {
		printf("Interrupted after %d of %d games\n", m.games_done, m.task_count);
		fprintf(stderr, "pool-match: interrupted after %d of %d games\n", m.games_done, m.task_count);
		status = 130;
	} else if (m.games_done < m.task_count && m.decision != SPRT_CONTINUE) {
		printf("SPRT stopped the match after %d of %d games\n", m.games_done, m.task_count);
	}
	if (m.write_failed)
		status = 1;
	/* Every engine was reaped by its worker; say so if anything is left. */
	int leftover;
	if (waitpid(-1, &leftover, WNOHANG) >= 0) {
		fprintf(stderr, "pool-match: a child process was left behind\n");
		status = status ? status : 1;
	}
done:
	if (*interrupted && m.started_ms == 0) {
		fprintf(stderr, "pool-match: interrupted before the first game\n");
		status = 130;
	}
	char error[TEXTFILE_ERROR_MAX];
	if (m.pdn && !textfile_finish(m.pdn, config->pdn_path, error, sizeof error)) {
		fprintf(stderr, "pool-match: %s\n", error);
		status = status ? status : 1;
	}
	openings_free(&m.openings);
	free(m.order);
	free(m.tasks);
	free(m.pairs);
	pthread_mutex_destroy(&m.lock);
	return status;
}

/* Adds the complete pairs of one file's table to the tally and empties the
 * table for the next file. */
static void add_pairs(MatchTally *tally, int *pairs, int capacity)
{
	for (int p = 0; p < capacity; p++) {
		if (pairs[2 * p] >= 0 && pairs[2 * p + 1] >= 0)
			stats_add_pair(tally, pairs[2 * p], pairs[2 * p + 1]);
		pairs[2 * p] = pairs[2 * p + 1] = -1;
	}
}

int match_summarize(const char *const *paths, int count, const SprtConfig *sprt)
{
	MatchTally tally = {0};
	TerminationCounts terms = {0};
	EdgeTally edges = {0};
	char name0[HUB_NAME_MAX] = "", name1[HUB_NAME_MAX] = "", error[200];
	int *pairs = NULL, pair_capacity = 0, games = 0, status = 0;
	/* Games without a round number (other programs' files, or Round "-")
	 * are counted by their place among such games: they count as games,
	 * but form no colour-reversed pairs. */
	long unnumbered = 0;

	for (int i = 0; i < count; i++) {
		int index = 0; /* of the game in this file, from 1 */
		FILE *f = fopen(paths[i], "r");
		PdnGame g;
		PdnReadStatus r;
		if (!f) {
			fprintf(stderr, "pool-match: %s: %s\n", paths[i], strerror(errno));
			status = 1;
			continue;
		}
		PdnErrorPlace where;
		while ((r = pdn_read_game_located(f, &g, error, sizeof error, &where)) != PDN_READ_END) {
			index++;
			if (r != PDN_READ_OK) {
				/* file:line: game N (Event "E", Round "R"): the problem */
				char line[24] = "", tags[200] = "";
				if (where.line > 0)
					snprintf(line, sizeof line, ":%ld", where.line);
				if (where.event[0] || where.round[0])
					snprintf(tags, sizeof tags, " (Event \"%.80s\", Round \"%.30s\")",
					         where.event, where.round);
				fprintf(stderr, "pool-match: %s%s: game %d%s: %s\n", paths[i], line, index,
				        tags, error);
				status = 1;
				if (r == PDN_READ_FAILED)
					break; /* nothing more can be read from it */
				continue;
			}
			const char *round = pdn_game_tag(&g, "Round"),
			           *term = pdn_game_tag(&g, "Termination");
			char *end = NULL;
			long number = round ? strtol(round, &end, 10) - 1 : -1;
			if (g.result == RESULT_NONE) {
				fprintf(stderr, "pool-match: %s: game %d has no result, skipped\n", paths[i],
				        index);
				pdn_game_free(&g);
				continue;
			}
			bool numbered = round && end != round && !*end && number >= 0 && number < 100000000;
			if (!numbered)
				number = unnumbered++;
			/* Game 2k has the first engine as Black, game 2k+1 as White;
			 * an unnumbered game goes by the players' names when they
			 * differ (the first engine is the first game's Black). */
			const char *black = pdn_game_tag(&g, "Black"), *white = pdn_game_tag(&g, "White");
			bool engine0_black = number % 2 == 0;
			if (!numbered && black && white && strcmp(black, white)) {
				if (!name0[0]) {
					snprintf(name0, sizeof name0, "%s", black);
					snprintf(name1, sizeof name1, "%s", white);
				}
				engine0_black = !strcmp(black, name0);
			}
			if (!name0[0] && black && white) {
				snprintf(name0, sizeof name0, "%s", engine0_black ? black : white);
				snprintf(name1, sizeof name1, "%s", engine0_black ? white : black);
			}
			int hp = half_points_of(g.result, engine0_black);
			stats_add_game(&tally, hp);
			termination_add(&terms, term ? term : "unknown");
			edges_add_game(&edges, g.game, g.result, engine0_black);
			games++;
			if (!numbered) {
				pdn_game_free(&g);
				continue;
			}
			int p = (int)(number / 2);
			if (p >= pair_capacity) {
				int grown = p + 1024;
				int *more = realloc(pairs, (size_t)grown * 2 * sizeof *more);
				if (!more) {
					pdn_game_free(&g);
					fclose(f);
					free(pairs);
					return 1;
				}
				for (int k = 2 * pair_capacity; k < 2 * grown; k++)
					more[k] = -1;
				pairs = more;
				pair_capacity = grown;
			}
			pairs[2 * p + number % 2] = hp;
			pdn_game_free(&g);
		}
		fclose(f);
		/* A pair is two games of one file: the shards of one match keep
		 * each pair in one file, and two matches share round numbers. */
		add_pairs(&tally, pairs, pair_capacity);
	}
	free(pairs);
	match_print_summary(name0[0] ? name0 : "?", name1[0] ? name1 : "?", &tally, &terms, &edges, sprt, -1,
	                    games);
	return status;
}
