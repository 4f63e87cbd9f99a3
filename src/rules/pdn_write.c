/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PDN game records (GameType 23, 25, 26): writing whole games. */
#include "poolshark/pdn.h"

#include <string.h>

#include "poolshark/movegen.h"
#include "poolshark/notation.h"

enum { LINE_WIDTH = 79 };

typedef struct Writer {
	FILE *out;
	int column;
	bool ok;
} Writer;

/* Writes one movetext token, breaking the line before it when it would not fit. */
static void put_token(Writer *w, const char *token)
{
	int length = (int)strlen(token);
	if (w->column > 0 && w->column + 1 + length > LINE_WIDTH) {
		w->ok &= fputc('\n', w->out) != EOF;
		w->column = 0;
	}
	if (w->column > 0) {
		w->ok &= fputc(' ', w->out) != EOF;
		w->column++;
	}
	w->ok &= fputs(token, w->out) != EOF;
	w->column += length;
}

static void put_tag(Writer *w, const char *name, const char *value)
{
	w->ok &= fprintf(w->out, "[%s \"", name) > 0;
	for (const char *c = value; *c; c++) {
		if (*c == '"' || *c == '\\')
			w->ok &= fputc('\\', w->out) != EOF;
		w->ok &= fputc(*c, w->out) != EOF;
	}
	w->ok &= fputs("\"]\n", w->out) != EOF;
}

/* Writes one comment token, `{...}`, a closing brace inside turned into `)`. */
static void put_comment(Writer *w, const char *text)
{
	char comment[1024];
	size_t n = 0;
	comment[n++] = '{';
	for (const char *c = text; *c && n < sizeof comment - 2; c++)
		comment[n++] = *c == '}' ? ')' : *c; /* a brace would end it early */
	comment[n++] = '}';
	comment[n] = '\0';
	put_token(w, comment);
}

/* Writes the legal start of a line of moves from *from as a variation, `( N. move ... )`,
 * numbered as the main line; nothing when its first move is not legal. */
static void put_variation(Writer *w, const Position *from, Color first, int number, const Move *line,
                          int length)
{
	char text[NOTATION_MOVE_MAX + 16];
	Position p = *from;
	int legal = 0;
	for (; legal < length && movegen_is_legal(&p, line[legal]); legal++)
		position_make(&p, line[legal], &p);
	if (legal == 0)
		return;
	p = *from;
	put_token(w, "(");
	for (int i = 0; i < legal; i++) {
		if (p.side == first)
			snprintf(text, sizeof text, "%d.", number);
		else if (i == 0)
			snprintf(text, sizeof text, "%d...", number);
		if (p.side == first || i == 0)
			put_token(w, text);
		notation_write_move(&p, line[i], text, sizeof text);
		put_token(w, text);
		if (p.side != first)
			number++;
		position_make(&p, line[i], &p);
	}
	put_token(w, ")");
}

static bool write_game(FILE *out, const Game *game, const PdnTag *tags, int tag_count,
                       const char *const *comments, const PdnPlyNote *notes)
{
	Writer w = {out, 0, true};
	Position start;
	char text[NOTATION_FEN_MAX > NOTATION_MOVE_MAX ? NOTATION_FEN_MAX : NOTATION_MOVE_MAX];
	const char *result = pdn_tag_find(tags, tag_count, "Result");

	Variant variant = position_variant(&game->positions[0]);
	const VariantRules *rules = variant_rules(variant);
	Color first = rules->white_first ? WHITE : BLACK;
	position_start_variant(&start, variant);
	if (!pdn_tag_find(tags, tag_count, "GameType")) {
		snprintf(text, sizeof text, "%d", rules->pdn_game_type);
		put_tag(&w, "GameType", text);
	}
	for (int i = 0; i < tag_count; i++)
		put_tag(&w, tags[i].name, tags[i].value);
	if (!position_equal(&game->positions[0], &start) && !pdn_tag_find(tags, tag_count, "FEN")) {
		notation_write_fen(&game->positions[0], text, sizeof text);
		if (!pdn_tag_find(tags, tag_count, "SetUp"))
			put_tag(&w, "SetUp", "1");
		put_tag(&w, "FEN", text);
	}
	if (!result) {
		result = game_result_text(game_status(game).result);
		put_tag(&w, "Result", result);
	}
	w.ok &= fputc('\n', out) != EOF;

	int number = 1;
	bool need_number = true; /* a second mover's move needs "N..." after a break */
	for (int i = 0; i < game->ply_count; i++) {
		const Position *before = &game->positions[i];
		if (before->side == first) {
			snprintf(text, sizeof text, "%d.", number);
			put_token(&w, text);
		} else if (need_number) {
			snprintf(text, sizeof text, "%d...", number);
			put_token(&w, text);
		}
		notation_write_move(before, game->moves[i], text, sizeof text);
		put_token(&w, text);
		need_number = false;
		if (comments && comments[i]) {
			put_comment(&w, comments[i]);
			need_number = true;
		}
		if (notes && notes[i].nag > 0) {
			snprintf(text, sizeof text, "$%d", notes[i].nag);
			put_token(&w, text);
		}
		/* After the notes the second mover's move keeps no "N...": readers
		 * that count the numbers (pydraughts) would take it for a new move. */
		for (int k = 0; notes && k < 2; k++)
			if (notes[i].comments[k])
				put_comment(&w, notes[i].comments[k]);
		if (notes && notes[i].line_length > 0)
			put_variation(&w, before, first, number, notes[i].line, notes[i].line_length);
		if (before->side != first)
			number++;
	}
	put_token(&w, result);
	w.ok &= fputs("\n\n", out) != EOF;
	return w.ok;
}

bool pdn_write_game(FILE *out, const Game *game, const PdnTag *tags, int tag_count,
                    const char *const *comments)
{
	return write_game(out, game, tags, tag_count, comments, NULL);
}

bool pdn_write_annotated_game(FILE *out, const Game *game, const PdnTag *tags, int tag_count,
                              const PdnPlyNote *notes)
{
	return write_game(out, game, tags, tag_count, NULL, notes);
}
