/* SPDX-License-Identifier: GPL-3.0-or-later */
/* FNV-1a 64 (Fowler, Noll, Vo). */
#include "poolshark/checksum.h"

uint64_t checksum_fnv1a(uint64_t hash, const uint8_t *data, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		hash ^= data[i];
		hash *= 0x100000001b3ull;
	}
	return hash;
}
