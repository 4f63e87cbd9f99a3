/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: the Hub line tokenizer; what it reads, the writer writes back to the same values. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/hubline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	char text[4097], out[16384], again[16384];
	memcpy(text, data, size);
	text[size] = '\0';
	HubLine line, back;
	if (!hubline_parse(text, &line, NULL, 0) || !line.command)
		return 0;
	HubWriter w;
	hubwriter_init(&w, out, sizeof out, line.command);
	for (int i = 0; i < line.count; i++) {
		if (line.tokens[i].value)
			hubwriter_add(&w, line.tokens[i].key, line.tokens[i].value);
		else
			hubwriter_word(&w, line.tokens[i].key);
	}
	if (w.truncated)
		abort();
	memcpy(again, out, w.length + 1);
	if (!hubline_parse(again, &back, NULL, 0) || strcmp(back.command, line.command) ||
	    back.count != line.count)
		abort();
	for (int i = 0; i < line.count; i++) {
		if (strcmp(back.tokens[i].key, line.tokens[i].key))
			abort();
		if (!line.tokens[i].value != !back.tokens[i].value)
			abort();
		if (line.tokens[i].value && strcmp(back.tokens[i].value, line.tokens[i].value))
			abort();
	}
	return 0;
}
