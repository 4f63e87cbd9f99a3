/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: arbitrary bytes as a PDN file; games read are legal and round-trip, errors are text. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/pdn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { COMMENT_KEPT_MAX = 1000 }; /* the writer cuts longer comments */

static void check_error(const char *error, size_t size)
{
	if (!memchr(error, '\0', size) || error[0] == '\0')
		abort(); /* every error says something, as a terminated string */
}

/* A game read is legal move by move; written back and read again it is the same game. */
static void check_game(const PdnGame *g)
{
	const Game *game = g->game;
	if (!game || game->ply_count < 0 || game->ply_count > GAME_MAX_PLIES)
		abort();
	for (int i = 0; i <= game->ply_count; i++)
		if (position_validate(&game->positions[i]) != POSITION_OK)
			abort();
	for (int i = 0; i < g->tag_count; i++)
		if (!g->tags[i].name[0] || !g->tags[i].value)
			abort();

	char *text = NULL;
	size_t length = 0;
	FILE *out = open_memstream(&text, &length);
	if (!out)
		return;
	if (!pdn_write_game(out, game, NULL, 0, (const char *const *)g->comments))
		abort();
	fclose(out);
	FILE *in = fmemopen(text, length, "r");
	PdnGame back;
	char error[256];
	if (!in || pdn_read_game(in, &back, error, sizeof error) != PDN_READ_OK) {
		fprintf(stderr, "written game does not read back: %s\n%s", in ? error : "fmemopen", text);
		abort();
	}
	if (!position_equal(&back.game->positions[0], &game->positions[0]) ||
	    back.game->ply_count != game->ply_count)
		abort();
	for (int i = 0; i < game->ply_count; i++) {
		if (!move_equal(back.game->moves[i], game->moves[i]))
			abort();
		const char *a = g->comments[i], *b = back.comments[i];
		if (a && strlen(a) < COMMENT_KEPT_MAX && !strchr(a, '}') && a[0] && (!b || strcmp(a, b))) {
			fprintf(stderr, "comment '%s' read back as '%s'\n", a, b ? b : "(none)");
			abort();
		}
	}
	pdn_game_free(&back);
	fclose(in);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0; /* fmemopen refuses an empty buffer */
	FILE *in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	/* Every call consumes input, so the calls are bounded by the size. */
	for (size_t calls = 0;; calls++) {
		PdnGame g;
		char error[256];
		if (calls > size + 1)
			abort();
		PdnReadStatus s = pdn_read_game(in, &g, error, sizeof error);
		if (s == PDN_READ_END)
			break;
		if (s == PDN_READ_OK) {
			check_game(&g);
			pdn_game_free(&g);
			continue;
		}
		check_error(error, sizeof error);
		if (s == PDN_READ_FAILED)
			break;
	}
	fclose(in);
	return 0;
}
