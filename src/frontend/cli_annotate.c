/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `poolshark annotate`: a PDN file reviewed move by move, games in parallel jobs. */
#include "cli_annotate.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "poolshark/annotate.h"
#include "cli.h"
#include "poolshark/egdb.h"
#include "poolshark/engine.h"
#include "poolshark/options.h"
#include "poolshark/pdn.h"

enum { JOBS_MAX = 64, INPUT_MAX_BYTES = 256 << 20 };

static const char usage_text[] =
    "usage: poolshark annotate [--OPTION VALUE ...] (--depth D | --movetime MS | --nodes N)\n"
    "                          [--jobs N] [--output FILE] [FILE]\n"
    "Reviews every move of the PDN games in FILE (standard input when absent or -): each\n"
    "game's rules come from its GameType (23 pool, 25 Russian, 26 Brazilian). Writes the\n"
    "games with a comment after each move: the score after it in men from White's view\n"
    "and the depth, and the best move when it was another (\"-0.65/8, best 9-14 +0.10\";\n"
    "#7 / #-7: White / Black wins in 7 plies). NAGs by what the move lost against the\n"
    "best one, from the mover's view, scores capped at 10 men: $6 dubious from 0.30,\n"
    "$2 mistake from 0.60, $4 blunder from 0.90, $1 for the best move when every other\n"
    "loses 0.60 or more. After a mistake or a blunder the engine's line follows as a\n"
    "variation. A summary per game and side goes to standard error.\n"
    "  --jobs N       games annotated at once, each by its own engine (default 1)\n"
    "  --output FILE  write there instead of standard output\n"
    "  --threads N, --hash MB, --egdb DIR|none, ...: the engine's options, as for analyse\n";

static int usage(const char *problem)
{
	if (problem)
		fprintf(stderr, "poolshark annotate: %s\n", problem);
	fputs(usage_text, stderr);
	return CLI_USAGE;
}

/* A game as read: the moves without the large Game record, so that a file of many games fits. */
typedef struct InputGame {
	Position start;
	int ply_count;
	Move *moves;
	PdnTag *tags;
	int tag_count;
	char **comments; /* ply_count entries or NULL */
	/* What the annotation made of it, filled by a job. */
	char *text; /* the PDN written, NUL-terminated; NULL until done or on failure */
	size_t text_length;
	AnnotateSide sides[2];
	bool done, failed;
} InputGame;

typedef struct Run {
	InputGame *games;
	int count;
	SearchLimits limits;
	EngineOptions options;
	pthread_mutex_t lock; /* guards next, the games' done flags and stderr */
	pthread_cond_t finished;
	int next;
	bool tty; /* stderr is a terminal: a progress line that rewrites itself */
} Run;

typedef struct Job {
	Run *run;
	Engine *engine;
	Game *game;
	int index; /* the game being annotated */
	pthread_t thread;
} Job;

static void free_game(InputGame *g)
{
	for (int i = 0; i < g->tag_count; i++) {
		free((void *)g->tags[i].name);
		free((void *)g->tags[i].value);
	}
	for (int i = 0; g->comments && i < g->ply_count; i++)
		free(g->comments[i]);
	free(g->tags);
	free(g->comments);
	free(g->moves);
	free(g->text);
}

/* Takes what it keeps out of *pg (which is then freed as usual). */
static bool keep_game(PdnGame *pg, InputGame *out)
{
	memset(out, 0, sizeof *out);
	out->start = pg->game->positions[0];
	out->ply_count = pg->game->ply_count;
	out->moves = malloc(sizeof *out->moves * (size_t)(out->ply_count ? out->ply_count : 1));
	if (!out->moves)
		return false;
	memcpy(out->moves, pg->game->moves, sizeof *out->moves * (size_t)out->ply_count);
	out->tags = pg->tags;
	out->tag_count = pg->tag_count;
	out->comments = pg->comments;
	pg->tags = NULL;
	pg->tag_count = 0;
	pg->comments = NULL;
	/* A result token without a Result tag becomes the tag, so that the
	 * writer does not put in its own view of the result. */
	if (!pdn_game_tag(&(PdnGame){.tags = out->tags, .tag_count = out->tag_count}, "Result") &&
	    pg->result != RESULT_NONE) {
		PdnTag *tags = realloc(out->tags, sizeof *tags * (size_t)(out->tag_count + 1));
		if (!tags)
			return false;
		out->tags = tags;
		tags[out->tag_count].name = strdup("Result");
		tags[out->tag_count].value = strdup(game_result_text(pg->result));
		out->tag_count++;
	}
	return true;
}

/* The 1-based line of byte `offset` in text. */
static int line_of(const char *text, size_t length, long offset)
{
	int line = 1;
	for (size_t i = 0; i < length && (long)i < offset; i++)
		line += text[i] == '\n';
	return line;
}

/* Reads every game of `text`, reporting the bad ones; false when one was bad. */
static bool read_games(const char *name, char *text, size_t length, Run *run)
{
	FILE *in = fmemopen(text, length ? length : 1, "r");
	if (!in) {
		fprintf(stderr, "poolshark annotate: %s: %s\n", name, strerror(errno));
		return false;
	}
	bool clean = true;
	int capacity = 0, index = 0;
	for (;;) {
		PdnGame pg;
		PdnErrorPlace where;
		char error[256];
		PdnReadStatus status =
		    length ? pdn_read_game_located(in, &pg, error, sizeof error, &where) : PDN_READ_END;
		if (status == PDN_READ_END)
			break;
		index++;
		if (status != PDN_READ_OK) {
			clean = false;
			if (where.offset >= 0)
				fprintf(stderr, "poolshark annotate: %s:%d: game %d", name,
				        line_of(text, length, where.offset), index);
			else
				fprintf(stderr, "poolshark annotate: %s: game %d", name, index);
			if (where.event[0])
				fprintf(stderr, " (Event \"%s\")", where.event);
			const char *problem = error;
			if (where.move_number > 0) {
				/* The reader counts plies as "move N: "; say it once, as people number moves.
				 */
				char ply_prefix[32];
				int n = snprintf(ply_prefix, sizeof ply_prefix, "move %d: ", where.ply);
				if (!strncmp(problem, ply_prefix, (size_t)n))
					problem += n;
				fprintf(stderr, ", move %d (%s, ply %d)", where.move_number,
				        where.side == WHITE ? "White" : "Black", where.ply);
			}
			fprintf(stderr, ": %s%s\n", problem,
			        status == PDN_READ_FAILED ? "; the rest of the file is not read" : "");
			if (status == PDN_READ_FAILED)
				break;
			continue;
		}
		if (run->count == capacity) {
			capacity = capacity ? 2 * capacity : 16;
			InputGame *games = realloc(run->games, sizeof *games * (size_t)capacity);
			if (!games) {
				pdn_game_free(&pg);
				clean = false;
				fprintf(stderr, "poolshark annotate: out of memory\n");
				break;
			}
			run->games = games;
		}
		bool kept = keep_game(&pg, &run->games[run->count]);
		run->count++;
		pdn_game_free(&pg);
		if (!kept) {
			clean = false;
			fprintf(stderr, "poolshark annotate: out of memory\n");
			break;
		}
	}
	fclose(in);
	return clean;
}

static void on_progress(int ply, int ply_count, void *user)
{
	Job *job = user;
	Run *run = job->run;
	if (!run->tty)
		return;
	pthread_mutex_lock(&run->lock);
	fprintf(stderr, "\rannotate: game %d/%d ply %d/%d   ", job->index + 1, run->count, ply + 1,
	        ply_count);
	fflush(stderr);
	pthread_mutex_unlock(&run->lock);
}

/* Annotates one game into its text. */
static void annotate_one(Job *job, InputGame *g)
{
	size_t size = 0;
	FILE *text = open_memstream(&g->text, &size);
	AnnotatedPly *plies = calloc((size_t)(g->ply_count ? g->ply_count : 1), sizeof *plies);
	bool ok = text && plies;
	if (ok) {
		game_init(job->game, &g->start);
		for (int i = 0; ok && i < g->ply_count; i++)
			ok = game_play(job->game, g->moves[i]);
	}
	ok = ok && annotate_game(job->engine, job->game, &job->run->limits, plies, on_progress, job);
	ok = ok && annotate_write_game(text, job->game, g->tags, g->tag_count,
	                               (const char *const *)g->comments, plies);
	if (ok)
		annotate_summary(job->game, plies, g->sides);
	if (text)
		ok &= fclose(text) == 0;
	g->text_length = size;
	g->failed = !ok;
	free(plies);
}

static void *job_main(void *arg)
{
	Job *job = arg;
	Run *run = job->run;
	for (;;) {
		pthread_mutex_lock(&run->lock);
		int index = run->next < run->count ? run->next++ : -1;
		pthread_mutex_unlock(&run->lock);
		if (index < 0)
			return NULL;
		job->index = index;
		annotate_one(job, &run->games[index]);
		pthread_mutex_lock(&run->lock);
		run->games[index].done = true;
		pthread_cond_broadcast(&run->finished);
		pthread_mutex_unlock(&run->lock);
	}
}

static void print_summary(const Run *run, int index)
{
	const InputGame *g = &run->games[index];
	static const char *const names[2] = {"Black", "White"};
	const char *event = pdn_game_tag(&(PdnGame){.tags = g->tags, .tag_count = g->tag_count}, "Event");
	for (int c = 0; c < 2; c++) {
		/* Pool's and English Black moves first, the other rule sets' White. */
		int side = variant_rules(position_variant(&g->start))->white_first ? 1 - c : c;
		const AnnotateSide *s = &g->sides[side];
		fprintf(stderr,
		        "annotate: game %d%s%s%s %s: blunders %d, mistakes %d, dubious %d, good %d, "
		        "average loss %.2f over %d moves\n",
		        index + 1, event ? " \"" : "", event ? event : "", event ? "\"" : "", names[side],
		        s->blunders, s->mistakes, s->dubious, s->good,
		        s->moves ? s->loss_total / 100.0 / s->moves : 0.0, s->moves);
	}
}

/* Starts the jobs, writes the games in order as they are done; false on a failure. */
static bool annotate_all(Run *run, int jobs, FILE *out, const char *out_name)
{
	Job job[JOBS_MAX];
	int started = 0;
	bool ok = true;
	for (int i = 0; i < jobs; i++) {
		job[i] =
		    (Job){.run = run, .engine = engine_create(&run->options), .game = malloc(sizeof(Game))};
		if (!job[i].engine || !job[i].game ||
		    pthread_create(&job[i].thread, NULL, job_main, &job[i]) != 0) {
			engine_destroy(job[i].engine);
			free(job[i].game);
			break;
		}
		started++;
	}
	if (started == 0) {
		fprintf(stderr, "poolshark annotate: out of memory\n");
		return false;
	}
	const char *why;
	if (run->options.egdb_path[0] && engine_egdb_pieces(job[0].engine, &why) == 0)
		fprintf(stderr, "poolshark annotate: no endgame databases: %s\n", why);
	bool written = true;
	for (int i = 0; i < run->count; i++) {
		pthread_mutex_lock(&run->lock);
		while (!run->games[i].done)
			pthread_cond_wait(&run->finished, &run->lock);
		if (run->tty)
			fputs("\r\033[K", stderr);
		InputGame *g = &run->games[i];
		if (g->failed) {
			fprintf(stderr, "poolshark annotate: game %d: out of memory or the engine refused\n",
			        i + 1);
			ok = false;
		} else {
			print_summary(run, i);
			if (written && fwrite(g->text, 1, g->text_length, out) != g->text_length)
				written = false;
		}
		pthread_mutex_unlock(&run->lock);
		free(g->text);
		g->text = NULL;
	}
	for (int i = 0; i < started; i++) {
		pthread_join(job[i].thread, NULL);
		engine_destroy(job[i].engine);
		free(job[i].game);
	}
	if (fflush(out) != 0 || ferror(out) || !written) {
		fprintf(stderr, "poolshark annotate: cannot write %s: %s\n", out_name, strerror(errno));
		ok = false;
	}
	return ok;
}

/* Reads all of `in`; NULL with a message on a read error or when too large. */
static char *read_all(FILE *in, const char *name, size_t *length)
{
	size_t capacity = 1 << 16, used = 0;
	char *data = malloc(capacity);
	while (data) {
		used += fread(data + used, 1, capacity - used, in);
		if (ferror(in)) {
			fprintf(stderr, "poolshark annotate: cannot read %s: %s\n", name, strerror(errno));
			break;
		}
		if (used < capacity) {
			*length = used;
			return data;
		}
		if (capacity >= INPUT_MAX_BYTES) {
			fprintf(stderr, "poolshark annotate: %s is larger than %d MiB\n", name,
			        INPUT_MAX_BYTES >> 20);
			break;
		}
		char *more = realloc(data, capacity * 2);
		if (!more)
			fprintf(stderr, "poolshark annotate: out of memory\n");
		else
			capacity *= 2;
		data = more ? more : (free(data), NULL);
	}
	free(data);
	return NULL;
}

int cli_annotate(int argc, char **argv)
{
	Run run = {.lock = PTHREAD_MUTEX_INITIALIZER, .finished = PTHREAD_COND_INITIALIZER};
	int limit_count = 0;
	long long jobs = 1;
	const char *input_name = NULL, *output_name = NULL;
	engine_default_options(&run.options);
	run.options.move_overhead_ms = 0;
	egdb_default_dir(run.options.egdb_path, sizeof run.options.egdb_path);

	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i];
		char error[OPTION_ERROR_MAX];
		if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
			fputs(usage_text, stdout);
			return CLI_OK;
		}
		if (options_parse_flag(argc, argv, &i, &run.options, error, sizeof error))
			continue;
		if (error[0])
			return usage(error);
		if (strncmp(opt, "--", 2) || !strcmp(opt, "-")) {
			if (input_name)
				return usage("give one input file");
			input_name = opt;
			continue;
		}
		if (i + 1 >= argc)
			return usage("option needs a value");
		const char *value = argv[++i];
		long long n;
		if (!strcmp(opt, "--depth")) {
			if (!cli_parse_number("annotate", "depth", value, 1, 100, &n))
				return usage(NULL);
			run.limits.depth = (int)n;
			limit_count++;
		} else if (!strcmp(opt, "--movetime")) {
			if (!cli_parse_number("annotate", "move time", value, 1, 86400000LL, &n))
				return usage(NULL);
			run.limits.move_time_ms = n;
			limit_count++;
		} else if (!strcmp(opt, "--nodes")) {
			if (!cli_parse_number("annotate", "node count", value, 1, 1000000000000LL, &n))
				return usage(NULL);
			run.limits.nodes = (uint64_t)n;
			limit_count++;
		} else if (!strcmp(opt, "--jobs")) {
			if (!cli_parse_number("annotate", "job count", value, 1, JOBS_MAX, &jobs))
				return usage(NULL);
		} else if (!strcmp(opt, "--output")) {
			output_name = value;
		} else {
			fprintf(stderr, "poolshark annotate: unknown option '%s'\n", opt);
			return usage(NULL);
		}
	}
	if (limit_count != 1)
		return usage("give exactly one of --depth, --movetime, --nodes");
	if (!cli_check_eval_file("annotate", &run.options))
		return CLI_USAGE;
	run.options.strength = 100; /* a review wants the engine's own judgement */
	snprintf(run.options.book, sizeof run.options.book, "off");

	const char *name = input_name && strcmp(input_name, "-") ? input_name : "standard input";
	FILE *in = input_name && strcmp(input_name, "-") ? fopen(input_name, "rb") : stdin;
	if (!in) {
		fprintf(stderr, "poolshark annotate: cannot open %s: %s\n", input_name, strerror(errno));
		return CLI_FAILURE;
	}
	size_t length = 0;
	char *text = read_all(in, name, &length);
	if (in != stdin)
		fclose(in);
	if (!text)
		return CLI_FAILURE;
	bool clean = read_games(name, text, length, &run);
	free(text);

	FILE *out = output_name ? fopen(output_name, "w") : stdout;
	if (!out) {
		fprintf(stderr, "poolshark annotate: cannot open %s: %s\n", output_name, strerror(errno));
		clean = false;
	} else {
		run.tty = isatty(STDERR_FILENO);
		int job_count = (int)jobs < run.count ? (int)jobs : run.count;
		if (run.count > 0 &&
		    !annotate_all(&run, job_count, out, output_name ? output_name : "standard output"))
			clean = false;
		if (out != stdout && fclose(out) != 0) {
			fprintf(stderr, "poolshark annotate: cannot write %s: %s\n", output_name,
			        strerror(errno));
			clean = false;
		}
	}
	for (int i = 0; i < run.count; i++)
		free_game(&run.games[i]);
	free(run.games);
	if (run.count == 0 && clean)
		fprintf(stderr, "poolshark annotate: %s holds no game\n", name);
	return clean && run.count > 0 ? CLI_OK : CLI_FAILURE;
}
