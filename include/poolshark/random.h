/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A small seeded generator (splitmix64) for choices that must be repeatable. */
#ifndef POOLSHARK_RANDOM_H
#define POOLSHARK_RANDOM_H

#include <stdint.h>

/*
 * The next value of the splitmix64 sequence kept in *state (any seed, 0
 * included, gives a full-period sequence). The state belongs to the caller:
 * an engine, a match or a tool keeps its own, so runs with the same seed
 * repeat and nothing is shared between threads.
 */
static inline uint64_t random_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A value in 0..n-1 (n >= 1); the tiny modulo bias does not matter here. */
static inline uint64_t random_below(uint64_t *state, uint64_t n)
{
	return random_next(state) % n;
}

#endif
