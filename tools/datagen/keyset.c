/* SPDX-License-Identifier: GPL-3.0-or-later */
/* datagen: the set of position keys already written (deduplication). */
#include <stdlib.h>

#include "datagen.h"

bool keyset_init(KeySet *s)
{
	*s = (KeySet){.capacity = 1 << 16};
	s->slots = calloc(s->capacity, sizeof *s->slots);
	return s->slots != NULL;
}

static void insert(uint64_t *slots, size_t capacity, uint64_t key)
{
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 20) & (capacity - 1);
	while (slots[i] && slots[i] != key)
		i = (i + 1) & (capacity - 1);
	slots[i] = key;
}

static bool contains(const KeySet *s, uint64_t key)
{
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 20) & (s->capacity - 1);
	while (s->slots[i]) {
		if (s->slots[i] == key)
			return true;
		i = (i + 1) & (s->capacity - 1);
	}
	return false;
}

bool keyset_add(KeySet *s, uint64_t key, bool *added)
{
	if (key == 0) {
		*added = !s->has_zero;
		s->has_zero = true;
		return true;
	}
	*added = !contains(s, key);
	if (!*added)
		return true;
	if (2 * (s->count + 1) > s->capacity) {
		size_t capacity = 2 * s->capacity;
		uint64_t *slots = calloc(capacity, sizeof *slots);
		if (!slots)
			return false;
		for (size_t i = 0; i < s->capacity; i++)
			if (s->slots[i])
				insert(slots, capacity, s->slots[i]);
		free(s->slots);
		s->slots = slots;
		s->capacity = capacity;
	}
	insert(s->slots, s->capacity, key);
	s->count++;
	return true;
}

void keyset_free(KeySet *s)
{
	free(s->slots);
	*s = (KeySet){.slots = NULL};
}
