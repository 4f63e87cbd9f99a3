/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The learned evaluation: an integer network read from a checked weights file, and its accumulator. */
#ifndef POOLSHARK_NNUE_H
#define POOLSHARK_NNUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/position.h"
#include "poolshark/variant.h"

/*
 * The layout and the arithmetic are in doc/EVAL.md, "The network",
 * "Quantization" and "The weights file". Inputs: 32 squares x {man, king} x
 * {own, opponent's}, seen from one side (White's view is the board turned
 * half a turn), so one set of weights serves both colours. Layers: inputs
 * -> H (accumulated, one copy per point of view) -> clipped ReLU of the two
 * copies, the side to move's first -> 32 -> clipped ReLU -> 1. The last two
 * layers (the "stack") may come in up to NNUE_BUCKETS_MAX copies, one per
 * range of the number of pieces on the board (nnue_bucket()).
 */
enum {
	NNUE_VERSION = 2,           /* the version written for more than one stack; 1 is read too */
	NNUE_VERSION_ONE_STACK = 1, /* the version written for one stack */
	NNUE_HEADER_SIZE = 64,
	NNUE_INPUTS = 128,
	NNUE_HIDDEN_MIN = 16,
	NNUE_HIDDEN_MAX = 256, /* H: a multiple of 16 within these */
	NNUE_HIDDEN2 = 32,
	NNUE_FT_SCALE = 127,  /* first layer: weight w is stored as round(w * 127), int16 */
	NNUE_FT_LIMIT = 1024, /* |stored first-layer weight or bias| at most this: no int16 overflow */
	NNUE_L2_SCALE = 64,   /* second layer: round(w * 64), int8; its bias round(b * 127 * 64), int32 */
	NNUE_OUT_SCALE =
	    1024, /* output layer: round(w * 1024), int16; its bias round(b * 127 * 1024), int32 */
	NNUE_BIAS_LIMIT = 1 << 24, /* |stored second-layer or output bias| at most this: no int32 overflow */
	NNUE_SCORE_PER_UNIT = 100, /* the network's output 1.0 is one man: 100 score units */
	NNUE_BUCKETS_MAX = 8,      /* stacks, by the number of pieces on the board */
	NNUE_PIECES_MAX = 24,      /* the most pieces an 8x8 game has */
	NNUE_ERROR_MAX = 256
};

#define NNUE_MAGIC "PSHKNNUE"

_Static_assert(NNUE_FT_LIMIT * 25 < 32767, "a bias and 24 pieces fit an int16 accumulator");

/*
 * The layers after the first: 2H -> 32 -> 1. The second layer's weights are
 * kept by groups of four inputs (nnue_l2_at()), so that four activations
 * meet the weights of all 32 neurons in one run of 128 bytes, the kernels'
 * inner step.
 */
typedef struct NnueStack {
	int8_t l2_weight[2 * NNUE_HIDDEN_MAX * NNUE_HIDDEN2]; /* at nnue_l2_at() */
	int32_t l2_bias[NNUE_HIDDEN2];
	int32_t out_bias;
	int16_t out_weight[NNUE_HIDDEN2];
} NnueStack;

/* The forms of the network's arithmetic, each for a level of the
 * processor; all give the same numbers (doc/EVAL.md, "Kernels"). */
typedef enum NnueKernel {
	NNUE_KERNEL_PORTABLE,   /* C, with the vector instructions the build assumes everywhere */
	NNUE_KERNEL_AVX2,       /* x86-64 with AVX2 */
	NNUE_KERNEL_AVXVNNI,    /* AVX2 and AVX-VNNI */
	NNUE_KERNEL_AVX512VNNI, /* AVX-512 (F, BW, VL) and AVX-512 VNNI */
	NNUE_KERNEL_COUNT
} NnueKernel;

/* A loaded network (about 200 KB: allocate it, do not put it on a small
 * stack). A network set up by hand (all zero at first) runs the portable
 * kernel. The weights come first, so that in a network that starts on a
 * cache line (nnue_create()) the rows of the first layer and the first
 * stack's second layer start on cache lines too. */
typedef struct NnueNetwork {
	int16_t ft_weight[NNUE_INPUTS * NNUE_HIDDEN_MAX]; /* at nnue_ft_at(): by input, one row each */
	NnueStack stack[NNUE_BUCKETS_MAX];
	int16_t ft_bias[NNUE_HIDDEN_MAX];
	Variant variant;
	int hidden;        /* H */
	int buckets;       /* stacks in use, 1..NNUE_BUCKETS_MAX */
	NnueKernel kernel; /* what nnue_evaluate() and the updates run (nnue_use_kernel()) */
	uint64_t checksum;
} NnueNetwork;

/* A zeroed network on a 64-byte boundary (the layout above), to load into;
 * NULL when memory is short. nnue_destroy() frees it (NULL is ignored). */
NnueNetwork *nnue_create(void);
void nnue_destroy(NnueNetwork *net);

/* Where ft_weight keeps the weight from input i to hidden neuron j of a
 * network of hidden size h: the rows of the inputs one after the other,
 * h long (a multiple of 16: whole cache lines), so that the rows a move
 * changes take no more of the cache than they use. */
static inline size_t nnue_ft_at(int h, int i, int j)
{
	return (size_t)i * (size_t)h + (size_t)j;
}

/* Where l2_weight keeps the weight from input j (0..2H-1) to neuron k:
 * the four weights of a group of four inputs to a neuron side by side,
 * the 32 neurons of a group one after the other. */
static inline size_t nnue_l2_at(int k, int j)
{
	return ((size_t)j / 4 * NNUE_HIDDEN2 + (size_t)k) * 4 + (size_t)j % 4;
}

/* The first layer's sums from each side's point of view (by Color), and
 * the number of pieces on the board, which chooses the stack. */
typedef struct NnueAccumulator {
	_Alignas(32) int16_t v[2][NNUE_HIDDEN_MAX];
	int pieces;
} NnueAccumulator;

/* The stack that scores a position of `pieces` pieces in a network of
 * `buckets` stacks: the range 1..24 cut into `buckets` equal parts. */
static inline int nnue_bucket(int pieces, int buckets)
{
	int b = pieces <= 1 ? 0 : (pieces - 1) * buckets / NNUE_PIECES_MAX;
	return b < buckets ? b : buckets - 1;
}

/* The input index of a piece of colour `owner` (king or man) on bit index
 * square, seen from `view`'s side. */
static inline int nnue_input(Color view, Color owner, bool king, int square)
{
	return (owner == view ? 0 : 64) + (king ? 32 : 0) + (view == BLACK ? square : 31 - square);
}

/*
 * Checks a weights file image and, when every check passes, copies it into
 * *net. Refuses (false, *net untouched, a reason in err naming the problem
 * and its byte offset) a file shorter than its header or than its sizes
 * say, longer than they say, with another magic, a format version other
 * than 1 and 2, a rule set other than `expected`, input count, hidden sizes
 * or scales than this build's, a stack count (version 2) outside
 * 1..NNUE_BUCKETS_MAX,
 * a first-layer value beyond NNUE_FT_LIMIT, a bias beyond NNUE_BIAS_LIMIT, or a checksum that does not
 * match. Works for a file read whole and for bytes compiled in.
 */
bool nnue_load_bytes(NnueNetwork *net, const uint8_t *bytes, size_t size, Variant expected, char *err,
                     size_t err_size);

/* Reads the file at path and loads it as nnue_load_bytes() does; the reason
 * starts with "PATH: ". */
bool nnue_load_file(NnueNetwork *net, const char *path, Variant expected, char *err, size_t err_size);

/* The accumulator of *p computed from scratch. */
void nnue_refresh(const NnueNetwork *net, const Position *p, NnueAccumulator *acc);

/*
 * The accumulator after move m (legal in *before) from the accumulator of
 * *before: only the squares the move changes are touched (its origin, its
 * destination, the captured pieces, a crowning). in and out may be the same.
 */
void nnue_update(const NnueNetwork *net, const Position *before, Move m, const NnueAccumulator *in,
                 NnueAccumulator *out);

/* The same when the position after the move is at hand (the search has
 * it): *after must follow from *before by one legal move. */
void nnue_update_between(const NnueNetwork *net, const Position *before, const Position *after,
                         const NnueAccumulator *in, NnueAccumulator *out);

/* The network's score of a position whose accumulator is *acc, for `side`
 * (the side to move), in score.h units, computed by net->kernel. Integer
 * only: every build and every kernel gives the same number. */
int nnue_evaluate(const NnueNetwork *net, const NnueAccumulator *acc, Color side);

/* The same with the portable kernel, whatever net->kernel (for the tests
 * that the kernels agree). */
int nnue_evaluate_portable(const NnueNetwork *net, const NnueAccumulator *acc, Color side);

/* The kernel's name as POOLSHARK_KERNEL takes it: "portable", "avx2",
 * "avxvnni", "avx512vnni". */
const char *nnue_kernel_name(NnueKernel k);

/* Whether this build has kernel k and this processor runs it. */
bool nnue_kernel_available(NnueKernel k);

/* The fastest available kernel: the one a loaded network runs. */
NnueKernel nnue_kernel_best(void);

/* Makes net run kernel k; false, and net unchanged, when k is not available. */
bool nnue_use_kernel(NnueNetwork *net, NnueKernel k);

/*
 * The kernel the environment asks for: POOLSHARK_KERNEL names one
 * (nnue_kernel_name()), or is unset or empty for nnue_kernel_best(). False,
 * with a reason naming the variable and the kernels available, for a name
 * that is not a kernel or a kernel this processor (or build) cannot run: a
 * program then refuses to start rather than run another.
 */
bool nnue_kernel_from_environment(NnueKernel *out, char *err, size_t err_size);

/* The file's little-endian layout: the checksum of a weights file image
 * (FNV-1a 64 over the bytes after the header, continued over header bytes
 * 0..55), and the byte size a file of hidden size h and that many stacks
 * has. */
uint64_t nnue_checksum(const uint8_t *image, size_t size);
size_t nnue_file_size(int hidden, int buckets);

/* True when a network for rule set v is compiled in: every rule set of
 * the table (v < VARIANT_COUNT) has one. */
bool nnue_has_default(Variant v);

/*
 * Loads the network compiled into every program for rule set v (the files
 * tools/data/nnue-VARIANT.bin of the build, doc/EVAL.md). False, with the
 * reason in err and *net untouched, if those bytes are damaged or v has
 * none (nnue_has_default()).
 */
bool nnue_load_default(NnueNetwork *net, Variant v, char *err, size_t err_size);

#endif
