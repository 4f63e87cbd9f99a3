/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: CheckerBoard's enginecommand (lines of bytes, reply buffers of any size) and getmove
 * boards. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/cbengine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_LINES = 32, BOARD_BYTES = 33 };

/* One adapter for the whole run: creating one per input (hash table) would dominate the time. */
static CbEngine *adapter(void)
{
	static CbEngine *cb;
	if (!cb) {
		char reply[CB_REPLY_SIZE];
		cb = cbengine_create();
		if (!cb || !cbengine_command(cb, "set hash 1", reply, sizeof reply))
			abort();
	}
	return cb;
}

/* A command into a reply buffer of exactly `reply_size` bytes, so that the
 * sanitizer sees any write past it; the reply must be a terminated string. */
static void command(CbEngine *cb, const char *text, size_t reply_size)
{
	if (strstr(text, "hash")) /* a table of gigabytes is not what is being tested */
		return;
	char *reply = malloc(reply_size);
	if (!reply)
		abort();
	cbengine_command(cb, text, reply, reply_size);
	if (!memchr(reply, '\0', reply_size))
		abort();
	free(reply);
}

/* A board from 33 bytes (a piece code per dark square, then the colour), searched for a millisecond. */
static void board(CbEngine *cb, const uint8_t *bytes)
{
	static const int codes[8] = {CB_FREE,
	                             CB_FREE,
	                             CB_FREE,
	                             CB_BLACK | CB_MAN,
	                             CB_WHITE | CB_MAN,
	                             CB_BLACK | CB_KING,
	                             CB_WHITE | CB_KING,
	                             7};
	int b[8][8] = {{0}}, before[8][8], playnow = 0;
	for (int s = 1; s <= 32; s++) {
		CbCoor c = cbengine_square_coor(s);
		b[c.x][c.y] = codes[bytes[s - 1] & 7];
	}
	int color = bytes[32] & 3;
	memcpy(before, b, sizeof b);
	char status[CB_STATUS_SIZE];
	CbMove move;
	int r = cbengine_getmove(cb, b, color, 0.001, status, &playnow, 0, 0, &move);
	if (!memchr(status, '\0', sizeof status) || r < CB_DRAW || r > CB_UNKNOWN)
		abort();
	if (memcmp(before, b, sizeof b) != 0) {
		/* A move was made: the new board is a position the rules accept. */
		Position p;
		if (!cbengine_read_board((const int(*)[8])b, color == CB_BLACK ? CB_WHITE : CB_BLACK, &p,
		                         NULL, 0))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	CbEngine *cb = adapter();
	if (size == 0)
		return 0;
	if (data[0] == 'G' && size > BOARD_BYTES) {
		board(cb, data + 1);
		return 0;
	}
	/* The first byte picks the reply size: 1..256, or CheckerBoard's 1024. */
	size_t reply_size = data[0] == 0xff ? CB_REPLY_SIZE : (size_t)data[0] + 1;
	const char *s = (const char *)data + 1, *end = (const char *)data + size;
	for (int lines = 0; s < end && lines < MAX_LINES; lines++) {
		const char *newline = memchr(s, '\n', (size_t)(end - s));
		size_t n = newline ? (size_t)(newline - s) : (size_t)(end - s);
		char *text = malloc(n + 1);
		if (!text)
			abort();
		memcpy(text, s, n);
		text[n] = '\0';
		command(cb, text, reply_size);
		free(text);
		s += n + 1;
	}
	return 0;
}
