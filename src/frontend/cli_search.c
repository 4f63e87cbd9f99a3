/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `poolshark bench` and `poolshark analyse`: the search from the command line. */
#include "cli_search.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "poolshark/bench.h"
#include "cli.h"
#include "poolshark/engine.h"
#include "poolshark/notation.h"
#include "poolshark/options.h"
#include "poolshark/score.h"

enum { LINE_MAX_CHARS = 4096 };

/* The moves of a line in PDN, each written in the position it is played in. */
static void format_line(const Position *root, const Move *moves, int count, char *out, size_t size)
{
	Position p = *root;
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < count && used + NOTATION_MOVE_MAX + 2 < size; i++) {
		char text[NOTATION_MOVE_MAX];
		notation_write_move(&p, moves[i], text, sizeof text);
		used += (size_t)snprintf(out + used, size - used, "%s%s", i ? " " : "", text);
		position_make(&p, moves[i], &p);
	}
}

static void print_info(const SearchInfo *info, void *user)
{
	const Position *root = user;
	char score[64], line[LINE_MAX_CHARS], hits[48] = "";
	if (info->egdb_root && score_is_decisive(info->score)) {
		int plies = score_mate_plies(info->score);
		snprintf(score, sizeof score, "%+.2f (database %s in %d plies)", score_in_men(info->score),
		         plies > 0 ? "win" : "loss", plies > 0 ? plies : -plies);
	} else {
		score_write(info->score, score, sizeof score);
	}
	format_line(root, info->pv, info->pv_length, line, sizeof line);
	uint64_t nps = info->time_ms > 0 ? info->nodes * 1000 / (uint64_t)info->time_ms : 0;
	if (info->egdb_hits)
		snprintf(hits, sizeof hits, " egdb-hits %" PRIu64, info->egdb_hits);
	char number[32] = "";
	if (info->line > 0)
		snprintf(number, sizeof number, " multipv %d", info->line);
	printf("info%s depth %d mean-depth %.1f score %s nodes %" PRIu64 " time %" PRId64 " nps %" PRIu64
	       "%s pv %s\n",
	       number, info->depth, info->mean_depth, score, info->nodes, info->time_ms, nps, hits, line);
	fflush(stdout);
}

static void print_bench_position(int index, const Position *root, const SearchResult *result, void *user)
{
	(void)user;
	char move[NOTATION_MOVE_MAX] = "none", score[64];
	if (!move_is_none(result->best))
		notation_write_move(root, result->best, move, sizeof move);
	score_write(result->score, score, sizeof score);
	printf("position %2d/%d  nodes %10" PRIu64 "  score %-7s  best %-8s  %s\n", index + 1,
	       bench_position_count, result->nodes, score, move, bench_positions[index].comment);
}

int cli_bench(int argc, char **argv)
{
	long long depth = BENCH_DEFAULT_DEPTH;
	EngineOptions defaults;
	engine_default_options(&defaults);
	Variant variant = defaults.variant;
	EngineEval eval = defaults.eval;
	const char *eval_file = defaults.eval_file;
	const char *depth_text = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--variant") && i + 1 < argc) {
			if (!cli_parse_variant("bench", argv[++i], &variant))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--eval") && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "classic") && strcmp(argv[i], "net")) {
				fprintf(stderr, "poolshark bench: unknown evaluation '%.40s' (known: %s)\n",
				        argv[i], ENGINE_EVAL_NAMES);
				return CLI_USAGE;
			}
			eval = strcmp(argv[i], "net") ? ENGINE_EVAL_CLASSIC : ENGINE_EVAL_NET;
		} else if (!strcmp(argv[i], "--eval-file") && i + 1 < argc) {
			eval_file = argv[++i];
			if (strlen(eval_file) >= ENGINE_PATH_MAX) {
				fprintf(stderr, "poolshark bench: --eval-file is longer than %d bytes\n",
				        ENGINE_PATH_MAX - 1);
				return CLI_USAGE;
			}
		} else if (!depth_text && argv[i][0] != '-') {
			depth_text = argv[i];
		} else {
			fprintf(stderr, "poolshark: unexpected argument '%.40s'\n", argv[i]);
			fprintf(stderr, "usage: poolshark bench [--variant " VARIANT_CHOICES
			                "] [--eval classic|net] [--eval-file FILE] [DEPTH]\n");
			return CLI_USAGE;
		}
	}
	if (depth_text && !cli_parse_number("bench", "depth", depth_text, 1, BENCH_MAX_DEPTH, &depth)) {
		fprintf(stderr, "usage: poolshark bench [--variant " VARIANT_CHOICES
		                "] [--eval classic|net] [--eval-file FILE] [DEPTH]\n");
		return CLI_USAGE;
	}
	BenchTotals totals;
	char error[ENGINE_PATH_MAX + 256];
	if (!bench_run((int)depth, variant, eval, eval_file, print_bench_position, NULL, &totals, error,
	               sizeof error)) {
		fprintf(stderr, "poolshark bench: %s\n", error);
		return CLI_FAILURE;
	}
	int64_t elapsed = totals.elapsed_ms > 0 ? totals.elapsed_ms : 1;
	printf("\nDepth: %d\nKernel: %s\nTotal time (ms): %" PRId64 "\nProcessor time (ms): %" PRId64 "\n",
	       totals.depth, totals.kernel, totals.elapsed_ms, totals.cpu_ms);
	printf("Nodes searched: %" PRIu64 "\n", totals.nodes);
	printf("Nodes/second: %" PRIu64 "\n", totals.nodes * 1000 / (uint64_t)elapsed);
	return CLI_OK;
}

/* A verdict of the databases for people: "win in 13 plies", "draw". */
static void verdict_text(const EgdbVerdict *v, char *out, size_t size)
{
	if (v->result == EGDB_DRAW)
		snprintf(out, size, "draw");
	else
		snprintf(out, size, "%s in %d pl%s", v->result == EGDB_WIN ? "win" : "loss", v->plies,
		         v->plies == 1 ? "y" : "ies");
}

/* `analyse --lookup`: the databases' verdict on the position and on each
 * legal move, best first, for the side to move. */
static int print_lookup(Engine *engine, const Position *p)
{
	static EgdbMoveVerdict moves[MOVELIST_CAPACITY];
	EgdbVerdict verdict;
	const char *why;
	int count = engine_lookup(engine, &verdict, moves, MOVELIST_CAPACITY, &why);
	if (count < 0) {
		fprintf(stderr, "poolshark analyse: --lookup: %s\n", why);
		return CLI_FAILURE;
	}
	char text[64], move[NOTATION_MOVE_MAX];
	verdict_text(&verdict, text, sizeof text);
	printf("position %s (%s to move)\n", text, p->side == WHITE ? "White" : "Black");
	for (int i = 0; i < count; i++) {
		notation_write_move(p, moves[i].move, move, sizeof move);
		verdict_text(&moves[i].verdict, text, sizeof text);
		printf("move %-10s %s\n", move, text);
	}
	return CLI_OK;
}

static int analyse_usage(const char *problem)
{
	if (problem)
		fprintf(stderr, "poolshark: %s\n", problem);
	fprintf(stderr, "usage: poolshark analyse [--variant " VARIANT_CHOICES "] [--fen FEN] [--OPTION "
	                "VALUE ...] (--depth D | --movetime "
	                "MS | --nodes N | --lookup)\n");
	return CLI_USAGE;
}

int cli_analyse(int argc, char **argv)
{
	Position p;
	const char *fen = NULL; /* read after the loop, under the rules of --variant */
	position_start(&p);
	SearchLimits limits = {0};
	int limit_count = 0;
	EngineOptions options;
	engine_default_options(&options);
	options.move_overhead_ms = 0;
	char default_egdb[sizeof options.egdb_path];
	egdb_default_dir(default_egdb, sizeof default_egdb);
	snprintf(options.egdb_path, sizeof options.egdb_path, "%s", default_egdb);

	bool lookup = false;
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i];
		char error[OPTION_ERROR_MAX];
		if (!strcmp(opt, "--lookup")) {
			lookup = true;
			limit_count++;
			continue;
		}
		if (options_parse_flag(argc, argv, &i, &options, error, sizeof error))
			continue;
		if (error[0])
			return analyse_usage(error);
		if (i + 1 >= argc)
			return analyse_usage(strncmp(opt, "--", 2) ? "unexpected argument"
			                                           : "option needs a value");
		const char *value = argv[++i];
		long long n;
		if (!strcmp(opt, "--fen")) {
			fen = value;
		} else if (!strcmp(opt, "--depth")) {
			if (!cli_parse_number("analyse", "depth", value, 1, 100, &n))
				return analyse_usage(NULL);
			limits.depth = (int)n;
			limit_count++;
		} else if (!strcmp(opt, "--movetime")) {
			if (!cli_parse_number("analyse", "move time", value, 1, 86400000LL, &n))
				return analyse_usage(NULL);
			limits.move_time_ms = n;
			limit_count++;
		} else if (!strcmp(opt, "--nodes")) {
			if (!cli_parse_number("analyse", "node count", value, 1, 1000000000000LL, &n))
				return analyse_usage(NULL);
			limits.nodes = (uint64_t)n;
			limit_count++;
		} else {
			fprintf(stderr, "poolshark: unknown option '%s'\n", opt);
			return analyse_usage(NULL);
		}
	}
	char fen_error[NOTATION_ERROR_MAX];
	if (fen && !notation_parse_fen(fen, options.variant, &p, fen_error, sizeof fen_error)) {
		fprintf(stderr, "poolshark: bad FEN: %s\n", fen_error);
		return CLI_USAGE;
	}
	if (limit_count != 1)
		return analyse_usage("give exactly one of --depth, --movetime, --nodes, --lookup");
	/* A directory asked for must hold databases; the one beside the
	 * binary is only taken when it does. */
	if (strcmp(options.egdb_path, default_egdb) &&
	    !cli_check_egdb("analyse", options.egdb_path, &options.variant))
		return CLI_USAGE;
	if (!cli_check_eval_file("analyse", &options))
		return CLI_USAGE;
	if (!fen)
		position_start_variant(&p, options.variant);

	Engine *engine = engine_create(&options);
	if (!engine) {
		fprintf(stderr, "poolshark: out of memory\n");
		return CLI_FAILURE;
	}
	const char *why;
	if (options.egdb_path[0] && engine_egdb_pieces(engine, &why) == 0)
		fprintf(stderr, "poolshark: no endgame databases: %s\n", why);
	engine_new_game(engine, &p);
	if (lookup) {
		int status = print_lookup(engine, &p);
		engine_destroy(engine);
		return status;
	}
	SearchResult r;
	engine_search_sync(engine, &limits, print_info, &p, &r);
	engine_destroy(engine);

	if (move_is_none(r.best)) {
		printf("bestmove none (no legal move: the side to move has lost)\n");
		return CLI_OK;
	}
	char best[NOTATION_MOVE_MAX], ponder[NOTATION_MOVE_MAX] = "";
	notation_write_move(&p, r.best, best, sizeof best);
	if (!move_is_none(r.ponder)) {
		Position next;
		position_make(&p, r.best, &next);
		notation_write_move(&next, r.ponder, ponder, sizeof ponder);
	}
	printf("bestmove %s%s%s\n", best, *ponder ? " ponder " : "", ponder);
	return CLI_OK;
}
