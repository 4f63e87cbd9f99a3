/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PDN game records (GameType 23, 25, 26): reading whole games (pdn_write.c writes them). */
#include "poolshark/pdn.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "poolshark/notation.h"

bool pdn_parse_result(const char *text, GameResult *out)
{
	static const struct {
		const char *text;
		GameResult result;
	} results[] = {
	    {"1-0", RESULT_WHITE_WINS}, {"0-1", RESULT_BLACK_WINS}, {"1/2-1/2", RESULT_DRAW},
	    {"2-0", RESULT_WHITE_WINS}, {"0-2", RESULT_BLACK_WINS}, {"1-1", RESULT_DRAW},
	    {"0-0", RESULT_NONE},       {"*", RESULT_NONE},
	};
	for (size_t i = 0; i < sizeof results / sizeof results[0]; i++) {
		if (!strcmp(text, results[i].text)) {
			*out = results[i].result;
			return true;
		}
	}
	return false;
}

/* A growable string. */
typedef struct TokenText {
	char *data;
	size_t length, capacity;
} TokenText;

static bool token_add(TokenText *t, char c)
{
	if (t->length + 2 > t->capacity) {
		size_t capacity = t->capacity ? 2 * t->capacity : 64;
		char *data = realloc(t->data, capacity);
		if (!data)
			return false;
		t->data = data;
		t->capacity = capacity;
	}
	t->data[t->length++] = c;
	t->data[t->length] = '\0';
	return true;
}

/* Every TokenText the reader uses holds a string from the start, "" when empty. */
static bool token_init(TokenText *t)
{
	t->capacity = 64;
	t->length = 0;
	t->data = malloc(t->capacity);
	if (t->data)
		t->data[0] = '\0';
	return t->data != NULL;
}

static void token_clear(TokenText *t)
{
	t->length = 0;
	t->data[0] = '\0';
}

typedef enum TokenKind { TOKEN_END, TOKEN_TAG, TOKEN_COMMENT, TOKEN_WORD, TOKEN_ERROR } TokenKind;

typedef struct Reader {
	FILE *in;
	TokenText name, value; /* tag name and value, comment or word in value */
	char *error;
	size_t error_size;
	bool failed;   /* a read error or a NUL byte: the stream ends here */
	long error_at; /* the stream offset where the message was set, -1 when unknown */
} Reader;

static void fail(Reader *r, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Sets the message, unless the stream has failed: that message stays. */
static void fail(Reader *r, const char *format, ...)
{
	va_list args;
	if (r->failed)
		return;
	va_start(args, format);
	vsnprintf(r->error, r->error_size, format, args);
	va_end(args);
	r->error_at = ftell(r->in);
}

/*
 * The next byte, or EOF at the end of the stream, on a read error and at a
 * NUL byte. No PDN text holds a NUL (it is a binary file), and a reader that
 * went on past one could only turn garbage into games, so both failures end
 * the stream for good.
 */
static int next_char(Reader *r)
{
	if (r->failed)
		return EOF;
	int c = getc(r->in);
	if (c == 0) {
		long at = ftell(r->in);
		if (at > 0)
			fail(r, "byte %ld is a NUL byte: not a PDN text file", at);
		else
			fail(r, "a NUL byte: not a PDN text file");
		r->failed = true;
		return EOF;
	}
	if (c == EOF && ferror(r->in)) {
		fail(r, "read error: %s", strerror(errno));
		r->failed = true;
	}
	return c;
}

/* Reads up to `close` (nested `open` allowed when open != 0) into r->value. */
static bool read_until(Reader *r, int open, int close, bool keep)
{
	int depth = 1, c;
	while ((c = next_char(r)) != EOF) {
		if (open && c == open)
			depth++;
		if (c == close && --depth == 0)
			return true;
		if (keep && !token_add(&r->value, (char)(c == '\n' || c == '\r' ? ' ' : c)))
			return false;
	}
	return false;
}

static TokenKind read_tag(Reader *r)
{
	int c;
	token_clear(&r->name);
	token_clear(&r->value);
	while ((c = next_char(r)) == ' ' || c == '\t')
		;
	while (c != EOF && (isalnum(c) || c == '_')) {
		if (!token_add(&r->name, (char)c))
			return TOKEN_ERROR;
		c = next_char(r);
	}
	while (c == ' ' || c == '\t')
		c = next_char(r);
	if (r->name.length == 0 || c != '"') {
		fail(r, "malformed tag");
		read_until(r, 0, ']', false);
		return TOKEN_ERROR;
	}
	while ((c = next_char(r)) != EOF && c != '"' && c != '\n') {
		if (c == '\\') {
			int next = next_char(r);
			if (next == '"' || next == '\\')
				c = next;
			else if (next != EOF)
				ungetc(next, r->in);
		}
		if (!token_add(&r->value, (char)c))
			return TOKEN_ERROR;
	}
	if (c != '"') {
		fail(r, "tag %s: value without a closing quote", r->name.data);
		return TOKEN_ERROR;
	}
	read_until(r, 0, ']', false);
	return TOKEN_TAG;
}

/* The next token; *saw_tag_start tells that it began with `[`. */
static TokenKind next_token(Reader *r, bool *saw_tag_start)
{
	int c;
	*saw_tag_start = false;
	for (;;) {
		c = next_char(r);
		if (c == EOF)
			return TOKEN_END;
		if (isspace(c))
			continue;
		if (c == '[') {
			*saw_tag_start = true;
			return read_tag(r);
		}
		if (c == '{' || c == ';') {
			token_clear(&r->value);
			if (!read_until(r, 0, c == '{' ? '}' : '\n', true) && c == '{') {
				fail(r, "comment without a closing brace");
				return TOKEN_ERROR;
			}
			return TOKEN_COMMENT;
		}
		if (c == '(') {
			read_until(r, '(', ')', false); /* variations are not kept */
			continue;
		}
		if (c == '%') { /* an escape line, ignored */
			read_until(r, 0, '\n', false);
			continue;
		}
		token_clear(&r->value);
		while (c != EOF && !isspace(c) && !strchr("[{(;", c)) {
			if (!token_add(&r->value, (char)c))
				return TOKEN_ERROR;
			c = next_char(r);
		}
		if (c != EOF)
			ungetc(c, r->in);
		return TOKEN_WORD;
	}
}

void pdn_game_free(PdnGame *g)
{
	if (g->game && g->comments)
		for (int i = 0; i < g->game->ply_count; i++)
			free(g->comments[i]);
	free(g->comments);
	for (int i = 0; i < g->tag_count; i++) {
		free((void *)g->tags[i].name);
		free((void *)g->tags[i].value);
	}
	free(g->tags);
	free(g->game);
	memset(g, 0, sizeof *g);
}

const char *pdn_tag_find(const PdnTag *tags, int count, const char *name)
{
	for (int i = 0; i < count; i++)
		if (!strcasecmp(tags[i].name, name))
			return tags[i].value;
	return NULL;
}

const char *pdn_game_tag(const PdnGame *g, const char *name)
{
	return pdn_tag_find(g->tags, g->tag_count, name);
}

static bool add_tag(PdnGame *g, const char *name, const char *value)
{
	PdnTag *tags = realloc(g->tags, (size_t)(g->tag_count + 1) * sizeof *tags);
	if (!tags)
		return false;
	g->tags = tags;
	tags[g->tag_count].name = strdup(name);
	tags[g->tag_count].value = strdup(value);
	g->tag_count++;
	return tags[g->tag_count - 1].name && tags[g->tag_count - 1].value;
}

/*
 * Reads a GameType value: the number alone ("25") or the standard's long
 * form "25,W,8,8,A0,0": number, the colour that moves first, board width
 * and height, notation (A algebraic or N numeric, then the first square),
 * inverted board. The number picks the rules, the colour is the side to
 * move when no FEN tag gives one, and the board must be 8x8; squares are
 * read in either notation whatever the tag says, so the notation field and
 * the flag change nothing here.
 */
static bool parse_game_type(Reader *r, const char *type, Variant *variant, int *first_mover)
{
	char *end;
	long number = strtol(type, &end, 10);
	if (end == type || (*end && *end != ',') || number < 0 || number > 99 ||
	    !variant_from_game_type((int)number, variant)) {
		fail(r, "GameType %.30s is not a game poolshark plays (23 pool, 25 Russian, 26 Brazilian)",
		     type);
		return false;
	}
	if (!*end)
		return true;
	const char *colour = end + 1;
	colour += strspn(colour, " ");
	if (toupper((unsigned char)*colour) == 'W' || toupper((unsigned char)*colour) == 'B') {
		*first_mover = toupper((unsigned char)*colour) == 'W' ? WHITE : BLACK;
		colour++;
	}
	colour += strspn(colour, " ");
	if (*colour && *colour != ',') {
		fail(r, "GameType %.30s: the second field is the colour that moves first, W or B", type);
		return false;
	}
	if (*colour == ',') {
		long width = strtol(colour + 1, &end, 10),
		     height = *end == ',' ? strtol(end + 1, &end, 10) : 0;
		if (width != 8 || height != 8) {
			fail(r, "GameType %.30s: poolshark plays on an 8x8 board", type);
			return false;
		}
	}
	return true;
}

/* Sets up the game record at the first move (or the end): FEN tag or start. */
static bool start_moves(Reader *r, PdnGame *g)
{
	Position start;
	char message[NOTATION_ERROR_MAX];
	const char *fen = pdn_game_tag(g, "FEN");
	if (g->game)
		return true;
	/* GameType picks the rules: 23 pool (also when there is no tag), 25
	 * Russian, 26 Brazilian. */
	Variant variant = VARIANT_POOL;
	int first_mover = -1; /* a Color when the long form names one */
	const char *type = pdn_game_tag(g, "GameType");
	if (type && !parse_game_type(r, type, &variant, &first_mover))
		return false;
	position_start_variant(&start, variant);
	if (first_mover >= 0) {
		start.side = (Color)first_mover;
		start.key = position_compute_key(&start); /* the key covers the side to move */
	}
	if (fen && !notation_parse_fen(fen, variant, &start, message, sizeof message)) {
		fail(r, "bad FEN tag: %s", message);
		return false;
	}
	g->game = malloc(sizeof *g->game);
	g->comments = calloc(GAME_MAX_PLIES, sizeof *g->comments);
	if (!g->game || !g->comments) {
		fail(r, "out of memory");
		return false;
	}
	game_init(g->game, &start);
	return true;
}

static bool add_comment(PdnGame *g, char *text)
{
	size_t length = strlen(text);
	while (length > 0 && isspace((unsigned char)text[length - 1]))
		text[--length] = '\0';
	text += strspn(text, " \t");
	int ply = g->game ? g->game->ply_count : 0;
	if (ply == 0 || *text == '\0')
		return true; /* before the first move it belongs to no ply; empty, it adds nothing */
	char **slot = &g->comments[ply - 1];
	size_t old = *slot ? strlen(*slot) + 1 : 0;
	char *joined = realloc(*slot, old + strlen(text) + 1);
	if (!joined)
		return false;
	if (old)
		joined[old - 1] = ' ';
	strcpy(joined + old, text);
	*slot = joined;
	return true;
}

/* Handles one word of movetext. Returns 1 at a result token, 0 to go on, -1 on error. */
static int read_word(Reader *r, PdnGame *g, char *word)
{
	char message[NOTATION_ERROR_MAX];
	GameResult result;
	if (pdn_parse_result(word, &result)) {
		g->result = result;
		return 1;
	}
	/* Move numbers ("12.", "12...", "...") and a number glued to its move. */
	while (isdigit((unsigned char)*word))
		word++;
	if (*word == '.') {
		word += strspn(word, ".");
	} else if (word != r->value.data && *word != '\0') {
		word = r->value.data; /* digits not followed by '.': a move */
	}
	if (*word == '\0' || *word == '$')
		return 0;
	size_t n = strlen(word);
	while (n > 0 && strchr("!?", word[n - 1]))
		word[--n] = '\0';
	if (!start_moves(r, g))
		return -1;
	Move m;
	const Position *p = game_position(g->game);
	if (notation_parse_move(p, word, &m, message, sizeof message) != MOVE_PARSE_OK) {
		fail(r, "move %d: %s", g->game->ply_count + 1, message);
		return -1;
	}
	if (!game_play(g->game, m)) {
		fail(r, "move %d (%s) comes after the end of the game", g->game->ply_count + 1, word);
		return -1;
	}
	return 0;
}

/* After an error: skip to the end of this game (a result token or the next tags). */
static void skip_game(Reader *r)
{
	bool tag;
	GameResult result;
	for (;;) {
		long at = ftell(r->in);
		TokenKind kind = next_token(r, &tag);
		if (kind == TOKEN_END)
			return;
		if (kind == TOKEN_TAG && at >= 0) {
			fseek(r->in, at, SEEK_SET); /* leave the tag to the next game */
			return;
		}
		if (kind == TOKEN_WORD && pdn_parse_result(r->value.data, &result))
			return;
	}
}

/* The line (1-based) of byte `offset` of the stream, or 0 when it cannot
 * seek; the stream's position is kept. Counted only for a message. */
static long line_at(FILE *in, long offset)
{
	long at = ftell(in);
	if (offset < 0 || at < 0 || fseek(in, 0, SEEK_SET) != 0)
		return 0;
	long line = 1;
	for (long i = 0; i < offset; i++) {
		int c = getc(in);
		if (c == EOF)
			break;
		line += c == '\n';
	}
	return fseek(in, at, SEEK_SET) == 0 ? line : 0;
}

/* Fills *where (may be NULL) with what is known of the bad game *g. */
static void locate_error(const Reader *r, const PdnGame *g, PdnErrorPlace *where)
{
	if (!where)
		return;
	const char *event = pdn_game_tag(g, "Event"), *round = pdn_game_tag(g, "Round");
	*where = (PdnErrorPlace){.offset = r->error_at, .ply = 0, .move_number = 0, .side = BLACK};
	snprintf(where->event, sizeof where->event, "%s", event ? event : "");
	snprintf(where->round, sizeof where->round, "%s", round ? round : "");
	where->line = r->failed ? 0 : line_at(r->in, r->error_at);
	if (g->game) {
		const Position *start = &g->game->positions[0];
		Color first = variant_rules(position_variant(start))->white_first ? WHITE : BLACK;
		int ply = g->game->ply_count;
		where->ply = ply + 1;
		where->side = game_position(g->game)->side;
		where->move_number = 1 + (ply + (start->side == first ? 0 : 1)) / 2;
	}
}

PdnReadStatus pdn_read_game(FILE *in, PdnGame *out, char *error, size_t error_size)
{
	return pdn_read_game_located(in, out, error, error_size, NULL);
}

PdnReadStatus pdn_read_game_located(FILE *in, PdnGame *out, char *error, size_t error_size,
                                    PdnErrorPlace *where)
{
	Reader r = {in, {0}, {0}, error, error_size, false, -1};
	PdnGame g = {0};
	PdnReadStatus status = PDN_READ_ERROR;
	bool tag, any = false, moves_started = false;

	memset(out, 0, sizeof *out);
	if (!token_init(&r.name) || !token_init(&r.value)) {
		fail(&r, "out of memory");
		goto done;
	}
	for (;;) {
		long at = ftell(in);
		TokenKind kind = next_token(&r, &tag);
		if (kind == TOKEN_END) {
			if (!any) {
				status = PDN_READ_END;
				goto done;
			}
			break;
		}
		if (kind == TOKEN_ERROR)
			goto skip;
		if (kind == TOKEN_TAG) {
			if (moves_started) {
				/* The next game's tags: this one had no result token. */
				if (at < 0 || fseek(in, at, SEEK_SET) != 0) {
					fail(&r, "game without a result token");
					goto skip;
				}
				break;
			}
			any = true;
			if (!add_tag(&g, r.name.data, r.value.data)) {
				fail(&r, "out of memory");
				goto done;
			}
			continue;
		}
		any = true;
		if (kind == TOKEN_COMMENT) {
			if (!add_comment(&g, r.value.data)) {
				fail(&r, "out of memory");
				goto done;
			}
			continue;
		}
		moves_started = true;
		int end = read_word(&r, &g, r.value.data);
		if (end < 0)
			goto skip;
		if (end > 0)
			break;
	}
	if (r.failed || !start_moves(&r, &g))
		goto done;
	*out = g;
	free(r.name.data);
	free(r.value.data);
	return PDN_READ_OK;
skip:
	skip_game(&r);
done:
	if (r.failed)
		status = PDN_READ_FAILED;
	if (status != PDN_READ_END)
		locate_error(&r, &g, where);
	pdn_game_free(&g);
	free(r.name.data);
	free(r.value.data);
	return status;
}
