/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the processor can run: CPUID and XGETBV on x86-64, nothing elsewhere. */
/* The functions here are compiled for the baseline processor (below), and
 * glibc's fortified string and stdio wrappers are always_inline for the
 * build's -march: GCC cannot inline those into them (Debian's hardened
 * build, -D_FORTIFY_SOURCE). This file calls the plain functions. */
#undef _FORTIFY_SOURCE
#include "poolshark/cpu.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The functions here run before a program knows what the processor has,
 * so GCC compiles them for plain x86-64 whatever the build's -march
 * (Clang keeps the build's sets: its `arch=` only changes the tuning). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define BASELINE __attribute__((target("arch=x86-64")))
#else
#define BASELINE
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>

/* The register state the system saves on a switch (XCR0), given OSXSAVE. */
BASELINE static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;
	__asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

BASELINE CpuFeatures cpu_features(void)
{
	CpuFeatures f;
	memset(&f, 0, sizeof f);
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return f;
	f.ssse3 = c & (1u << 9);
	f.sse42 = c & (1u << 20);
	f.popcnt = c & (1u << 23);
	bool osxsave = c & (1u << 27), avx = c & (1u << 28);
	uint64_t xcr0 = osxsave ? xgetbv0() : 0;
	bool ymm_state = avx && (xcr0 & 0x6) == 0x6;         /* SSE and AVX state */
	bool zmm_state = ymm_state && (xcr0 & 0xe0) == 0xe0; /* opmask, upper ZMM, ZMM16-31 */
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return f;
	unsigned max_leaf7 = a;
	f.bmi2 = b & (1u << 8);
	f.avx2 = ymm_state && (b & (1u << 5));
	f.avx512f = zmm_state && (b & (1u << 16));
	f.avx512bw = f.avx512f && (b & (1u << 30));
	f.avx512vl = f.avx512f && (b & (1u << 31));
	f.avx512vnni = f.avx512f && (c & (1u << 11));
	if (max_leaf7 >= 1 && __get_cpuid_count(7, 1, &a, &b, &c, &d))
		f.avxvnni = ymm_state && (a & (1u << 4));
	return f;
}
#else
BASELINE CpuFeatures cpu_features(void)
{
	CpuFeatures f;
	memset(&f, 0, sizeof f);
	return f;
}
#endif

/* The sets the compiler was allowed to use anywhere in this build (its
 * -march), among those cpu_runs_this_build() checks. */
#ifdef __POPCNT__
#define BUILT_POPCNT true
#else
#define BUILT_POPCNT false
#endif
#ifdef __SSE4_2__
#define BUILT_SSE42 true
#else
#define BUILT_SSE42 false
#endif
#ifdef __AVX2__
#define BUILT_AVX2 true
#else
#define BUILT_AVX2 false
#endif
#ifdef __BMI2__
#define BUILT_BMI2 true
#else
#define BUILT_BMI2 false
#endif
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#define BUILT_AVX512 true
#else
#define BUILT_AVX512 false
#endif

BASELINE bool cpu_runs_this_build(char *why, size_t why_size)
{
	CpuFeatures f = cpu_features();
	const struct {
		const char *name;
		bool built, present;
	} sets[] = {
	    {"POPCNT", BUILT_POPCNT, f.popcnt},
	    {"SSE4.2", BUILT_SSE42, f.sse42},
	    {"AVX2", BUILT_AVX2, f.avx2},
	    {"BMI2", BUILT_BMI2, f.bmi2},
	    {"AVX-512", BUILT_AVX512, f.avx512f && f.avx512bw && f.avx512vl},
	};
	char built[128] = "", missing[128] = "";
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		if (!sets[i].built)
			continue;
		size_t n = strlen(built);
		snprintf(built + n, sizeof built - n, "%s%s", n ? ", " : "", sets[i].name);
		if (!sets[i].present) {
			n = strlen(missing);
			snprintf(missing + n, sizeof missing - n, "%s%s", n ? ", " : "", sets[i].name);
		}
	}
	if (!missing[0])
		return true;
	snprintf(why, why_size, "this program was built for a processor with %s; this one lacks %s", built,
	         missing);
	return false;
}
