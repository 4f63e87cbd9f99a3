/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads PDN files with the library's reader and prints each game's start, moves and result (browser tests).
 */
#include <stdio.h>

#include "poolshark/notation.h"
#include "poolshark/pdn.h"

/*
 * usage: pdn_read FILE...
 * Per game: `start <FEN>`, `moves <PDN moves>`, `result <token>`. Exits 1
 * naming the problem when a file cannot be opened or a game is bad.
 */
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *in = fopen(argv[i], "r");
		if (!in) {
			perror(argv[i]);
			return 1;
		}
		for (int index = 1;; index++) {
			PdnGame g = {0};
			char error[256];
			PdnReadStatus status = pdn_read_game(in, &g, error, sizeof error);
			if (status == PDN_READ_END)
				break;
			if (status == PDN_READ_ERROR) {
				fprintf(stderr, "%s: game %d: %s\n", argv[i], index, error);
				fclose(in);
				return 1;
			}
			char fen[NOTATION_FEN_MAX], move[NOTATION_MOVE_MAX];
			notation_write_fen(&g.game->positions[0], fen, sizeof fen);
			printf("start %s\nmoves", fen);
			for (int ply = 0; ply < g.game->ply_count; ply++) {
				notation_write_move(&g.game->positions[ply], g.game->moves[ply], move,
				                    sizeof move);
				printf(" %s", move);
			}
			printf("\nresult %s\n", game_result_text(g.result));
			pdn_game_free(&g);
		}
		fclose(in);
	}
	return 0;
}
