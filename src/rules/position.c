/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Position set-up, validation and the Zobrist key table. */
#include "poolshark/position.h"

/* Fixed pseudo-random keys, drawn once from a seeded generator. Constant, so
 * that keys (and the bench signature) are the same in every build. */
const uint64_t zobrist_pieces[2][2][SQUARE_COUNT] = {
    [BLACK] =
        {
            {
                0x239eed24c2c063feull, 0xf768064f958507adull, 0x55113dc30e9a8df5ull, 0x5966eb44e0c67744ull,
                0x4ca82984fcb042d9ull, 0xb9c48cb01720800eull, 0xd6c93f01a9f18630ull, 0xa83c546dbc4d13dcull,
                0xa3966023df2d5c05ull, 0xace970fccddba416ull, 0x4fe2c4e12b5eadadull, 0x00633256e25fe71dull,
                0x34c6049fa9998118ull, 0xe66c0e9819428e8aull, 0xa62d2465be71c2d9ull, 0x3c19c840d9f9bacdull,
                0xf5a6b47b57a73cabull, 0xe7f137f5a11b5c7dull, 0x60a8a1e2fdbc4be2ull, 0x12f034c143d2ba11ull,
                0xd6567964cfbaa4ddull, 0x83de0b93946a0998ull, 0x9f777337923fe54eull, 0x068c193bf65cc902ull,
                0x3379782e12806dccull, 0xc85ad6ff6546e4beull, 0x33ba20d253c80a75ull, 0x10cc80422fb71eacull,
                0xf7453614dba55617ull, 0x333931383701003full, 0xca927d725879f224ull, 0x4223d05b17b98c28ull,
            },
            {
                0xf3ddcd46e156ceb2ull, 0xc67e2041df70b032ull, 0xcd191c7ccf4d7c58ull, 0xb40a5b86968a2fa3ull,
                0x4f9e9d91d95996e3ull, 0x90bc4c1046597fc8ull, 0xfdd471d22152b5cfull, 0x9fdcc21c11570c3full,
                0xe1b75b47fb165944ull, 0x46004dbfaad384b6ull, 0x89b894ba72dcd5a2ull, 0xd67050fa52d6abd4ull,
                0x20180b2af99ec5e0ull, 0x0ac770b548b3d8ccull, 0xbbd8fc43e311fbceull, 0x0dbb2fb35db2a391ull,
                0x768cd6608cac8fa1ull, 0x33e3fb178dc99b6full, 0xb5c6b35d6a5e3357ull, 0xe08260732e991a6eull,
                0x264e3cd3821ddb24ull, 0xab7c9c6ab8934931ull, 0xd665c9a11a6a4509ull, 0x3b57457b6ac15379ull,
                0x0101a47c13ffdb21ull, 0xfd9f7c9bb3dbc11eull, 0xca48209df90a7533ull, 0xba0d6ec3102d37b3ull,
                0x66aba91dc51d8ac7ull, 0x9f5c066a7a206c4dull, 0x25f3032da1fe7d90ull, 0x362f38084363de11ull,
            },
        },
    [WHITE] =
        {
            {
                0x762a77709b98e199ull, 0x559ed7e9f1f95e3bull, 0xa2e862d8d31892f6ull, 0x1089aa733219cfe1ull,
                0x4989926f84b8b5fcull, 0xc1a54922e27c2421ull, 0x2ee68902335fca4eull, 0xd332143b0d9b34ccull,
                0x3c828906c03dd4d3ull, 0x5dbbcf7c225d1050ull, 0x5cb306f43e225b3cull, 0x6e97bb2e0542fb3full,
                0x45d90e18e1263f18ull, 0x0697acafeb32f858ull, 0x471565c1b21e12e5ull, 0x3da4e63cd002f23dull,
                0x6ec5b43f7dc919c5ull, 0xa7cb440da07c0f71ull, 0xc2e2be1d73a4dddcull, 0xaf6ad2bc6ea76491ull,
                0xfc77100f749623a7ull, 0xa36e7c507fc2249bull, 0x7b7cc97d5d8d14b8ull, 0x14e0ee9f6781afe9ull,
                0x7d53f76de40dc6c8ull, 0x4e92fb018ff53957ull, 0x6cc20a40ac1457a1ull, 0xacf8a385ccc77eccull,
                0x8e0956ef6b541d45ull, 0x5294589662855e82ull, 0x6dac79d4e560679eull, 0x010e1d9790ae0233ull,
            },
            {
                0x92b47a9271995c60ull, 0x4ac99b91552f54cdull, 0x7e526760c97ce057ull, 0x815907978c2af0b1ull,
                0x1751394850fe3092ull, 0xd3e030227a5f7e57ull, 0xeab168de5bbb635cull, 0x279a942387fe4804ull,
                0xc60aa4fe584bd68eull, 0x767b2cbe32f441e7ull, 0x59f3b4479b83749dull, 0x087ae4963308d5b3ull,
                0x537384d14f7d655aull, 0x87fd4d76bb9f24a1ull, 0x21e0114a4fd257cfull, 0x9c8ed450453d184aull,
                0xbab6995f97767273ull, 0xf5a4c6c7d2358c47ull, 0xd1a9e257c4d92e7cull, 0x30e60b391444c0d4ull,
                0xacd114f0372bee8dull, 0x356c7e25eef2c5d7ull, 0x7d05846fe698957aull, 0x311700890fe0c412ull,
                0x10a0ee82523641bdull, 0xff6918e48170c17aull, 0x32c8e06e75031b24ull, 0xfda0107605c789aeull,
                0x3a8c7c252f4d1622ull, 0xa14338fb0a6f5829ull, 0x7c285c9f91a47b6eull, 0xef9a641a32987084ull,
            },
        },
};

const uint64_t zobrist_white_to_move = 0x782cf4ee6e50ce1dull;

void position_set(Position *out, Bitboard black, Bitboard white, Bitboard kings, Color side)
{
	out->pieces[BLACK] = black;
	out->pieces[WHITE] = white;
	out->kings = kings;
	out->side = side;
	out->variant = VARIANT_POOL;
	out->key = position_compute_key(out);
}

void position_start(Position *out)
{
	position_set(out, 0x00000fffu, 0xfff00000u, 0, BLACK);
}

void position_start_variant(Position *out, Variant v)
{
	position_set(out, 0x00000fffu, 0xfff00000u, 0, variant_rules(v)->white_first ? WHITE : BLACK);
	out->variant = (uint8_t)v;
}

uint64_t position_compute_key(const Position *p)
{
	uint64_t key = p->side == WHITE ? zobrist_white_to_move : 0;
	for (int c = 0; c < 2; c++)
		for (Bitboard b = p->pieces[c]; b; b &= b - 1) {
			int s = bb_lowest(b);
			key ^= zobrist_pieces[c][(p->kings >> s) & 1][s];
		}
	return key;
}

PositionProblem position_validate(const Position *p)
{
	if (p->pieces[BLACK] & p->pieces[WHITE])
		return POSITION_OVERLAP;
	if (p->kings & ~position_occupied(p))
		return POSITION_STRAY_KING;
	for (int c = 0; c < 2; c++) {
		if (position_men(p, (Color)c) & position_crown_row((Color)c))
			return POSITION_MAN_ON_CROWN_ROW;
		if (bb_count(p->pieces[c]) > 12)
			return POSITION_TOO_MANY_PIECES;
	}
	if (p->key != position_compute_key(p))
		return POSITION_BAD_KEY;
	return POSITION_OK;
}

const char *position_problem_text(PositionProblem problem)
{
	switch (problem) {
	case POSITION_OK: return "";
	case POSITION_OVERLAP: return "a square holds pieces of both colours";
	case POSITION_STRAY_KING: return "a king mark on an empty square";
	case POSITION_MAN_ON_CROWN_ROW: return "a man stands on its own crowning row";
	case POSITION_TOO_MANY_PIECES: return "more than 12 pieces of one colour";
	case POSITION_BAD_KEY: return "the Zobrist key does not match the pieces";
	}
	return "unknown problem";
}
