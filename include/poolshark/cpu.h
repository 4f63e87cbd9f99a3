/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the processor can run: the x86-64 instruction sets the kernels and the build need. */
#ifndef POOLSHARK_CPU_H
#define POOLSHARK_CPU_H

#include <stdbool.h>
#include <stddef.h>

/* The features that choose a kernel (each one also enabled by the system:
 * AVX and AVX-512 need their registers saved, which XGETBV says). All false
 * off x86-64. */
typedef struct CpuFeatures {
	bool popcnt, sse42, ssse3;
	bool avx2, bmi2;
	bool avxvnni;                     /* AVX-VNNI: VNNI on 256-bit registers, VEX encoded */
	bool avx512f, avx512bw, avx512vl; /* the AVX-512 foundation and its byte and 256-bit forms */
	bool avx512vnni;                  /* AVX-512 VNNI */
} CpuFeatures;

/* The features of the processor this runs on (CPUID, and XGETBV for the
 * system's part). Cheap enough to call at each start; never fails. */
CpuFeatures cpu_features(void);

/*
 * Whether this processor runs the instructions this build was compiled to
 * assume everywhere (its -march: at most x86-64-v2, POPCNT and SSE4.2, for
 * `make portable` and the Windows DLL; whatever the building machine had for
 * `make`). False, with the missing sets named in why ("this program was
 * built for a processor with AVX2, BMI2; this one lacks AVX2"), when it
 * does not: a program then stops before it reaches one of them.
 */
bool cpu_runs_this_build(char *why, size_t why_size);

#endif
