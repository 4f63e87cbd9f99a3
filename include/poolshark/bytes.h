/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Little-endian integers in byte buffers, the encoding of every binary file (databases, data, networks). */
#ifndef POOLSHARK_BYTES_H
#define POOLSHARK_BYTES_H

#include <stdint.h>

/* Writes v at p, least significant byte first. */
static inline void bytes_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void bytes_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void bytes_put64(uint8_t *p, uint64_t v)
{
	bytes_put32(p, (uint32_t)v);
	bytes_put32(p + 4, (uint32_t)(v >> 32));
}

/* Reads the value written by the matching bytes_put. */
static inline uint16_t bytes_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t bytes_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t bytes_get64(const uint8_t *p)
{
	return (uint64_t)bytes_get32(p) | (uint64_t)bytes_get32(p + 4) << 32;
}

#endif
