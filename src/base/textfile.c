/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bounded line reading and checked writing of text files (textfile.h). */
#include "poolshark/textfile.h"

#include <errno.h>
#include <string.h>

bool textfile_open(TextFile *f, const char *path, long long max_bytes, char *error, size_t error_size)
{
	*f = (TextFile){.path = path, .max_bytes = max_bytes};
	f->file = fopen(path, "r");
	if (!f->file) {
		snprintf(error, error_size, "%.200s: %s", path, strerror(errno));
		return false;
	}
	return true;
}

TextRead textfile_read_line(TextFile *f, char *line, size_t size, char *error, size_t error_size)
{
	size_t used = 0;
	int c;
	if (!f->file) {
		snprintf(error, error_size, "%.200s: not open", f->path);
		return TEXT_ERROR;
	}
	f->line++;
	while ((c = getc(f->file)) != EOF) {
		if (++f->bytes > f->max_bytes) {
			snprintf(error, error_size,
			         "%.200s:%lld: the file is larger than %lld bytes, the limit", f->path,
			         f->line, f->max_bytes);
			return TEXT_ERROR;
		}
		if (c == '\n')
			break;
		if (c == '\0') {
			snprintf(error, error_size, "%.200s:%lld: a NUL byte (not a text file?)", f->path,
			         f->line);
			return TEXT_ERROR;
		}
		if (used == size - 1) {
			snprintf(error, error_size, "%.200s:%lld: a line longer than %zu bytes, the limit",
			         f->path, f->line, size - 2);
			return TEXT_ERROR;
		}
		line[used++] = (char)c;
	}
	if (c == EOF && ferror(f->file)) {
		snprintf(error, error_size, "%.200s:%lld: %s", f->path, f->line, strerror(errno));
		return TEXT_ERROR;
	}
	if (c == EOF && used == 0)
		return TEXT_END;
	if (used > 0 && line[used - 1] == '\r')
		used--;
	line[used] = '\0';
	return TEXT_LINE;
}

void textfile_close(TextFile *f)
{
	if (f->file)
		fclose(f->file);
	f->file = NULL;
}

bool textfile_finish(FILE *out, const char *path, char *error, size_t error_size)
{
	errno = 0;
	bool failed = fflush(out) != 0 || ferror(out);
	int saved = errno;
	if (fclose(out) != 0 && !failed) {
		failed = true;
		saved = errno;
	}
	if (failed)
		snprintf(error, error_size, "writing %.200s failed: %s", path,
		         saved ? strerror(saved) : "an earlier write failed");
	return !failed;
}

int textfile_exit(const char *program, int status)
{
	char error[TEXTFILE_ERROR_MAX];
	if (textfile_finish(stdout, "standard output", error, sizeof error))
		return status;
	fprintf(stderr, "%s: %s\n", program, error);
	return status ? status : 1;
}
