/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Hub protocol lines: a bounded line reader, a tokenizer and a quoting writer. */
#include "poolshark/hubline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "poolshark/text.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Reads a quoted value starting at the opening quote *s; writes its end. */
static bool read_quoted(char **cursor, const char **value, char *error, size_t error_size)
{
	char *s = *cursor + 1;
	char *close = strchr(s, '"');
	if (!close) {
		text_set_error(error, error_size, "a quote never closes");
		return false;
	}
	*close = '\0';
	*value = s;
	s = close + 1;
	if (*s && !is_blank(*s)) {
		text_set_error(error, error_size, "text right after a closing quote");
		return false;
	}
	*cursor = s;
	return true;
}

bool hubline_parse(char *text, HubLine *out, char *error, size_t error_size)
{
	char *s = text;
	out->command = NULL;
	out->count = 0;
	for (;;) {
		while (is_blank(*s))
			*s++ = '\0';
		if (!*s)
			return true;
		const char *key = s, *value = NULL;
		if (*s == '"') {
			if (!read_quoted(&s, &key, error, error_size))
				return false;
		} else {
			while (*s && !is_blank(*s) && *s != '=' && *s != '"')
				s++;
			if (*s == '"') {
				text_set_error(error, error_size, "a quote inside a word");
				return false;
			}
			if (*s == '=') {
				if (s == key) {
					text_set_error(error, error_size, "a value without a key");
					return false;
				}
				*s++ = '\0';
				if (*s == '"') {
					if (!read_quoted(&s, &value, error, error_size))
						return false;
				} else {
					value = s;
					while (*s && !is_blank(*s) && *s != '"')
						s++;
					if (*s == '"') {
						text_set_error(error, error_size, "a quote inside a value");
						return false;
					}
				}
			}
		}
		if (!out->command) {
			if (value) {
				text_set_error(error, error_size, "a line must start with a command word");
				return false;
			}
			out->command = key;
			continue;
		}
		if (out->count == HUBLINE_MAX_TOKENS) {
			text_set_error(error, error_size, "too many arguments");
			return false;
		}
		out->tokens[out->count].key = key;
		out->tokens[out->count].value = value;
		out->count++;
	}
}

const char *hubline_value(const HubLine *line, const char *key)
{
	for (int i = 0; i < line->count; i++)
		if (line->tokens[i].value && !strcmp(line->tokens[i].key, key))
			return line->tokens[i].value;
	return NULL;
}

bool hubline_has_word(const HubLine *line, const char *word)
{
	for (int i = 0; i < line->count; i++)
		if (!line->tokens[i].value && !strcmp(line->tokens[i].key, word))
			return true;
	return false;
}

const char *hubline_word(const HubLine *line, int index)
{
	for (int i = 0; i < line->count; i++)
		if (!line->tokens[i].value && index-- == 0)
			return line->tokens[i].key;
	return NULL;
}

bool hubline_check_bytes(const char *text, size_t length, char *error, size_t error_size)
{
	for (size_t i = 0; i < length; i++) {
		unsigned char c = (unsigned char)text[i];
		char message[64];
		if (c == 0) {
			text_set_error(error, error_size, "line contains a NUL byte");
			return false;
		}
		if (c >= 0x80) {
			snprintf(message, sizeof message, "line contains a non-ASCII byte (0x%02x)", c);
			text_set_error(error, error_size, "%s", message);
			return false;
		}
		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			snprintf(message, sizeof message, "line contains a control character (0x%02x)", c);
			text_set_error(error, error_size, "%s", message);
			return false;
		}
	}
	return true;
}

bool hubline_needs_quotes(const char *value)
{
	if (!*value)
		return true;
	for (const char *s = value; *s; s++)
		if (is_blank(*s) || *s == '=' || *s == '"')
			return true;
	return false;
}

void hubwriter_init(HubWriter *w, char *buffer, size_t size, const char *command)
{
	w->buffer = buffer;
	w->size = size;
	w->length = 0;
	w->truncated = false;
	buffer[0] = '\0';
	hubwriter_word(w, command);
}

/* Appends n bytes or, when they don't fit, nothing. */
static bool append(HubWriter *w, const char *text, size_t n)
{
	if (w->truncated || w->length + n + 1 > w->size) {
		w->truncated = true;
		return false;
	}
	memcpy(w->buffer + w->length, text, n);
	w->length += n;
	w->buffer[w->length] = '\0';
	return true;
}

/* Appends a value, in quotes when it needs them ('"' is written as '\''). */
static bool append_value(HubWriter *w, const char *value)
{
	bool quote = hubline_needs_quotes(value);
	bool ok = !quote || append(w, "\"", 1);
	for (const char *s = value; ok && *s; s++)
		ok = append(w, *s == '"' ? "'" : s, 1);
	return ok && (!quote || append(w, "\"", 1));
}

/* Takes back a half-written argument, so that a line never ends in one. */
static void cut_back(HubWriter *w, size_t start)
{
	w->length = start;
	w->buffer[start] = '\0';
}

void hubwriter_word(HubWriter *w, const char *word)
{
	size_t start = w->length;
	if (!((!start || append(w, " ", 1)) && append_value(w, word)))
		cut_back(w, start);
}

void hubwriter_add(HubWriter *w, const char *key, const char *value)
{
	size_t start = w->length;
	if (!(append(w, " ", 1) && append(w, key, strlen(key)) && append(w, "=", 1) &&
	      append_value(w, value)))
		cut_back(w, start);
}

void hubwriter_addf(HubWriter *w, const char *key, const char *format, ...)
{
	char value[512];
	va_list args;
	va_start(args, format);
	vsnprintf(value, sizeof value, format, args);
	va_end(args);
	hubwriter_add(w, key, value);
}

bool linereader_init(LineReader *r, int fd)
{
	r->fd = fd;
	r->line = malloc(HUBLINE_MAX_LENGTH + 2); /* the text, a '\r', the NUL */
	r->length = 0;
	r->discarding = false;
	r->eof = false;
	r->chunk_start = r->chunk_end = 0;
	return r->line != NULL;
}

void linereader_free(LineReader *r)
{
	free(r->line);
	r->line = NULL;
}

/* Hands out the collected line (without a trailing '\r') and resets. */
static LineStatus finish_line(LineReader *r, const char **line, size_t *length)
{
	if (r->discarding) {
		r->discarding = false;
		r->length = 0;
		return LINE_TOO_LONG;
	}
	size_t n = r->length;
	if (n && r->line[n - 1] == '\r')
		n--;
	if (n > HUBLINE_MAX_LENGTH) { /* the limit does not count the line ending */
		r->length = 0;
		return LINE_TOO_LONG;
	}
	r->line[n] = '\0';
	*line = r->line;
	*length = n;
	r->length = 0;
	return LINE_OK;
}

LineStatus linereader_next(LineReader *r, const char **line, size_t *length)
{
	for (;;) {
		while (r->chunk_start < r->chunk_end) {
			const char *start = r->chunk + r->chunk_start;
			size_t avail = r->chunk_end - r->chunk_start;
			const char *newline = memchr(start, '\n', avail);
			size_t take = newline ? (size_t)(newline - start) : avail;
			if (!r->discarding) {
				if (r->length + take > HUBLINE_MAX_LENGTH + 1) {
					r->discarding = true;
				} else {
					memcpy(r->line + r->length, start, take);
					r->length += take;
				}
			}
			r->chunk_start += take + (newline ? 1 : 0);
			if (newline)
				return finish_line(r, line, length);
		}
		if (r->eof) {
			if (r->length || r->discarding)
				return finish_line(r, line, length);
			return LINE_EOF;
		}
		ssize_t got = read(r->fd, r->chunk, sizeof r->chunk);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return LINE_READ_ERROR;
		}
		r->chunk_start = 0;
		r->chunk_end = (size_t)got;
		if (got == 0)
			r->eof = true;
	}
}
