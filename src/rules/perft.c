/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perft with bulk counting and an optional transposition table. */
#include "poolshark/perft.h"

#include <stdlib.h>

#include "poolshark/bigmem.h"
#include "poolshark/movegen.h"

enum { PREFAULT_THREADS = 2 };

typedef struct PerftEntry {
	uint64_t key; /* position key mixed with depth; 0 = empty */
	uint64_t leaves;
} PerftEntry;

struct PerftTable {
	PerftEntry *entries;
	size_t mask;
};

PerftTable *perft_table_create(size_t megabytes)
{
	size_t want = megabytes * 1024 * 1024 / sizeof(PerftEntry), size = 1;
	while (size * 2 <= want)
		size *= 2;
	PerftTable *t = malloc(sizeof *t);
	if (!t)
		return NULL;
	t->entries = bigmem_alloc(size * sizeof *t->entries);
	if (!t->entries) {
		free(t);
		return NULL;
	}
	t->mask = size - 1;
	/* Resident before the count starts: page faults in the middle of a
	 * perft cost more than the table saves (a few seconds for 1 GiB). */
	bigmem_prefault(t->entries, size * sizeof *t->entries, PREFAULT_THREADS, NULL);
	return t;
}

void perft_table_free(PerftTable *table)
{
	if (table) {
		bigmem_free(table->entries, (table->mask + 1) * sizeof *table->entries);
		free(table);
	}
}

/* Depth goes into the stored key so that one slot never answers for
 * another depth; the low bits index, the whole word verifies. */
static uint64_t entry_key(uint64_t key, int depth)
{
	return (key ^ ((uint64_t)depth * 0x9e3779b97f4a7c15ull)) | 1;
}

/* depth >= 2; a depth-2 node is counted by the generator in one call. */
static uint64_t count_plain(const Position *p, int depth)
{
	if (depth == 2)
		return movegen_count_replies(p);
	MoveList list;
	uint64_t leaves = 0;
	int n = movegen_generate(p, &list);
	for (int i = 0; i < n; i++) {
		Position next;
		position_make_keyed(p, list.moves[i], &next, false);
		leaves += count_plain(&next, depth - 1);
	}
	return leaves;
}

/* count_plain() for a pool root: the generator's pool entries and a make
 * without the variant, so that pool's perft pays nothing for the others. */
static uint64_t count_plain_pool(const Position *p, int depth)
{
	if (depth == 2)
		return movegen_count_replies_pool(p);
	MoveList list;
	uint64_t leaves = 0;
	int n = movegen_generate_pool(p, &list);
	for (int i = 0; i < n; i++) {
		Position next;
		position_make_pool(p, list.moves[i], &next, false);
		leaves += count_plain_pool(&next, depth - 1);
	}
	return leaves;
}

static uint64_t count_hashed(const Position *p, int depth, PerftTable *t)
{
	if (depth == 2)
		return movegen_count_replies(p);
	uint64_t k = entry_key(p->key, depth);
	PerftEntry *e = &t->entries[k & t->mask];
	if (e->key == k)
		return e->leaves;
	MoveList list;
	uint64_t leaves = 0;
	int n = movegen_generate(p, &list);
	for (int i = 0; i < n; i++) {
		Position next;
		position_make(p, list.moves[i], &next);
		leaves += count_hashed(&next, depth - 1, t);
	}
	e->key = k;
	e->leaves = leaves;
	return leaves;
}

uint64_t perft_count(const Position *p, int depth, PerftTable *table)
{
	if (depth <= 0)
		return 1;
	if (depth == 1)
		return (uint64_t)movegen_count(p);
	if (table)
		return count_hashed(p, depth, table);
	return variant_fast_path(p->variant) ? count_plain_pool(p, depth) : count_plain(p, depth);
}

/* Keeps perft_count_paths()'s entries apart from perft_count()'s. */
static const uint64_t PATHS_KEY = 0x5bd1e9955bd1e995ull;

uint64_t perft_count_paths(const Position *p, int depth, PerftTable *table)
{
	if (depth <= 0)
		return 1;
	PerftEntry *e = NULL;
	uint64_t k = 0;
	if (table && depth >= 2) {
		k = entry_key(p->key ^ PATHS_KEY, depth);
		e = &table->entries[k & table->mask];
		if (e->key == k)
			return e->leaves;
	}
	MoveList list;
	uint64_t leaves = 0;
	int n = movegen_generate(p, &list);
	for (int i = 0; i < n; i++) {
		Move m = list.moves[i];
		uint64_t routes = m.captured ? (uint64_t)movegen_paths(p, m, NULL, 0) : 1;
		if (depth == 1) {
			leaves += routes;
			continue;
		}
		Position next;
		position_make(p, m, &next);
		leaves += routes * perft_count_paths(&next, depth - 1, table);
	}
	if (e) {
		e->key = k;
		e->leaves = leaves;
	}
	return leaves;
}

void perft_divide(const Position *p, int depth, PerftTable *table, PerftDivide *out)
{
	MoveList list;
	int n = movegen_generate(p, &list);
	out->count = n;
	out->total = 0;
	for (int i = 0; i < n; i++) {
		Position next;
		position_make(p, list.moves[i], &next);
		out->moves[i] = list.moves[i];
		out->leaves[i] = perft_count(&next, depth - 1, table);
		out->total += out->leaves[i];
	}
}
