/* SPDX-License-Identifier: GPL-3.0-or-later */
/* FNV-1a, the one checksum of the project's binary files (book, databases). */
#ifndef POOLSHARK_CHECKSUM_H
#define POOLSHARK_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* Where an FNV-1a 64 hash starts. */
#define CHECKSUM_FNV_OFFSET 0xcbf29ce484222325ull

/* FNV-1a 64 over `size` bytes at data, continuing from `hash` (start with
 * CHECKSUM_FNV_OFFSET): cheap, and enough to catch a damaged file. */
uint64_t checksum_fnv1a(uint64_t hash, const uint8_t *data, size_t size);

#endif
