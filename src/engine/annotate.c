/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Game review: every move of a game searched, scored against the best one, marked with NAGs. */
#include "poolshark/annotate.h"

#include <stdlib.h>
#include <string.h>

#include "poolshark/movegen.h"
#include "poolshark/notation.h"
#include "poolshark/score.h"
#include "poolshark/text.h"

static int capped(int score)
{
	if (score >= SCORE_WIN_MIN || score > ANNOTATE_SCORE_CAP)
		return ANNOTATE_SCORE_CAP;
	if (score <= -SCORE_WIN_MIN || score < -ANNOTATE_SCORE_CAP)
		return -ANNOTATE_SCORE_CAP;
	return score;
}

AnnotateNag annotate_nag(int loss, int others_loss, bool capture)
{
	if (loss >= ANNOTATE_BLUNDER)
		return NAG_BLUNDER;
	if (loss >= ANNOTATE_MISTAKE)
		return NAG_MISTAKE;
	if (loss >= ANNOTATE_DUBIOUS)
		return NAG_DUBIOUS;
	if (loss == 0 && !capture && others_loss >= ANNOTATE_MISTAKE)
		return NAG_GOOD;
	return NAG_NONE;
}

/* The principal variation of the last completed iteration. */
typedef struct LastLine {
	int length;
	Move moves[ANNOTATE_LINE_MAX];
} LastLine;

static void keep_line(const SearchInfo *info, void *user)
{
	LastLine *line = user;
	line->length = info->pv_length < ANNOTATE_LINE_MAX ? info->pv_length : ANNOTATE_LINE_MAX;
	memcpy(line->moves, info->pv, sizeof line->moves[0] * (size_t)line->length);
}

/* Reviews the position before `ply` from the engine's root scores. */
static void review_ply(const Game *game, int ply, const SearchResult *r, const Move *moves, const int *scores,
                       int count, const LastLine *line, AnnotatedPly *out)
{
	memset(out, 0, sizeof *out);
	out->legal_moves = movegen_count(&game->positions[ply]);
	int best = -1, played = -1;
	for (int i = 0; i < count; i++) {
		/* Ties go to the head of the principal variation. */
		if (best < 0 || scores[i] > scores[best] ||
		    (scores[i] == scores[best] && line->length > 0 && move_equal(moves[i], line->moves[0])))
			best = i;
		if (move_equal(moves[i], game->moves[ply]))
			played = i;
	}
	if (best < 0 || played < 0)
		return;
	int others = -1; /* the least loss among the moves not played */
	for (int i = 0; i < count; i++) {
		int loss = capped(scores[best]) - capped(scores[i]);
		if (i != played && (others < 0 || loss < others))
			others = loss;
	}
	out->searched = true;
	out->depth = r->depth;
	out->best = moves[best];
	out->best_score = scores[best];
	out->played_score = scores[played];
	out->loss = capped(scores[best]) - capped(scores[played]);
	out->nag = annotate_nag(out->loss, others, move_is_capture(game->moves[ply]));
	if (out->nag == NAG_MISTAKE || out->nag == NAG_BLUNDER) {
		if (line->length > 0 && move_equal(line->moves[0], out->best)) {
			out->line_length = line->length;
			memcpy(out->line, line->moves, sizeof out->line[0] * (size_t)line->length);
		} else {
			out->line_length = 1;
			out->line[0] = out->best;
		}
	}
}

bool annotate_game(Engine *e, const Game *game, const SearchLimits *limits, AnnotatedPly *plies,
                   AnnotateProgress progress, void *user)
{
	const Position *start = &game->positions[0];
	EngineOptions options;
	engine_get_options(e, &options);
	if (options.variant != position_variant(start)) {
		options.variant = position_variant(start);
		if (engine_set_options(e, &options) != ENGINE_OK)
			return false;
	}
	Game *work = malloc(sizeof *work);
	Move *moves = malloc(MOVELIST_CAPACITY * sizeof *moves);
	int *scores = malloc(MOVELIST_CAPACITY * sizeof *scores);
	bool ok = work && moves && scores && engine_new_game(e, start) == ENGINE_OK;
	if (ok)
		game_init(work, start);
	SearchLimits l = *limits;
	l.score_all_moves = true;
	for (int ply = 0; ok && ply < game->ply_count; ply++) {
		if (progress)
			progress(ply, game->ply_count, user);
		LastLine line = {0};
		SearchResult r;
		ok = engine_set_game(e, work) == ENGINE_OK &&
		     engine_search_sync(e, &l, keep_line, &line, &r) == ENGINE_OK;
		if (!ok)
			break;
		int count = engine_root_scores(e, moves, scores, MOVELIST_CAPACITY);
		review_ply(game, ply, &r, moves, scores, count, &line, &plies[ply]);
		ok = game_play(work, game->moves[ply]);
	}
	free(work);
	free(moves);
	free(scores);
	return ok;
}

/* A score in men from White's view: "+0.35", or "#7" / "#-7" for a forced end. */
static void write_white_score(int score, Color mover, char *out, size_t size)
{
	int white = mover == WHITE ? score : -score;
	if (score_is_decisive(white)) {
		int plies = score_mate_plies(white);
		snprintf(out, size, "#%d", plies);
	} else {
		snprintf(out, size, "%+.2f", white / 100.0);
	}
}

void annotate_comment(const Position *before, Move played, const AnnotatedPly *ply, char *out, size_t size)
{
	size_t used = 0;
	char score[32], move[NOTATION_MOVE_MAX];
	out[0] = '\0';
	if (!ply->searched)
		return;
	write_white_score(ply->played_score, before->side, score, sizeof score);
	text_append(out, size, &used, "%s/%d", score, ply->depth);
	if (!move_equal(played, ply->best) && ply->loss > 0) {
		notation_write_move(before, ply->best, move, sizeof move);
		write_white_score(ply->best_score, before->side, score, sizeof score);
		text_append(out, size, &used, ", best %s %s", move, score);
	}
}

void annotate_summary(const Game *game, const AnnotatedPly *plies, AnnotateSide out[2])
{
	memset(out, 0, 2 * sizeof *out);
	for (int i = 0; i < game->ply_count; i++) {
		if (!plies[i].searched)
			continue;
		AnnotateSide *side = &out[game->positions[i].side];
		side->moves++;
		side->loss_total += plies[i].loss;
		side->blunders += plies[i].nag == NAG_BLUNDER;
		side->mistakes += plies[i].nag == NAG_MISTAKE;
		side->dubious += plies[i].nag == NAG_DUBIOUS;
		side->good += plies[i].nag == NAG_GOOD;
	}
}

bool annotate_write_game(FILE *out, const Game *game, const PdnTag *tags, int tag_count,
                         const char *const *old_comments, const AnnotatedPly *plies)
{
	int n = game->ply_count;
	PdnPlyNote *notes = calloc((size_t)(n > 0 ? n : 1), sizeof *notes);
	char *texts = malloc((size_t)(n > 0 ? n : 1) * ANNOTATE_COMMENT_MAX);
	bool ok = notes && texts;
	for (int i = 0; ok && i < n; i++) {
		char *text = texts + (size_t)i * ANNOTATE_COMMENT_MAX;
		annotate_comment(&game->positions[i], game->moves[i], &plies[i], text, ANNOTATE_COMMENT_MAX);
		notes[i].nag = plies[i].nag;
		notes[i].comments[0] = old_comments ? old_comments[i] : NULL;
		notes[i].comments[1] = text[0] ? text : NULL;
		notes[i].line = plies[i].line;
		notes[i].line_length = plies[i].line_length;
	}
	ok = ok && pdn_write_annotated_game(out, game, tags, tag_count, notes);
	free(notes);
	free(texts);
	return ok;
}
