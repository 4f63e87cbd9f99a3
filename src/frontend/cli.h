/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the poolshark binary's subcommands share: exit statuses and argument errors. */
#ifndef POOLSHARK_CLI_H
#define POOLSHARK_CLI_H

#include <stdbool.h>

#include "poolshark/engine.h"
#include "poolshark/variant.h"

/* Exit statuses of every subcommand (each one's entry point lives in its
 * own module: cli_perft.h, cli_search.h, play.h, hubloop.h). */
enum { CLI_OK = 0, CLI_FAILURE = 1, CLI_USAGE = 2 };

/*
 * Reads a command-line number with number_parse(). On a bad one prints
 * "poolshark PROGRAM: WHAT 'TEXT' is PROBLEM (allowed MIN-MAX)" to stderr
 * and returns false.
 */
bool cli_parse_number(const char *program, const char *what, const char *text, long long min, long long max,
                      long long *out);

/*
 * Reads the value of `--variant`. On an unknown name prints "poolshark
 * PROGRAM: unknown variant 'TEXT' (known: pool russian brazilian)" to
 * stderr and returns false (the caller exits with CLI_USAGE).
 */
bool cli_parse_variant(const char *program, const char *text, Variant *out);

/*
 * Checks an endgame database directory that the command line named: true
 * when `dir` is "" (none) or holds a complete set of databases (at least
 * every 2-piece class, doc/EGDB.md) of *variant's rules (of any rule set
 * when variant is NULL: the Hub's rule set may change later). Otherwise
 * prints "poolshark PROGRAM: --egdb DIR: WHY" to stderr and returns false
 * (the caller exits with CLI_USAGE), as the Hub's egdb-path option refuses
 * such a directory.
 */
bool cli_check_egdb(const char *program, const char *dir, const Variant *variant);

/*
 * Checks the network file the command line named (options->eval_file) for
 * options->variant, the flags being read in any order: true for "default"
 * or a network of that rule set. Otherwise prints "poolshark PROGRAM:
 * --eval-file FILE: WHY" to stderr and returns false (the caller exits with
 * CLI_USAGE).
 */
bool cli_check_eval_file(const char *program, const EngineOptions *options);

#endif
