/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Text files in and out: bounded line reading, and writes that are checked before exit. */
#ifndef POOLSHARK_TEXTFILE_H
#define POOLSHARK_TEXTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { TEXTFILE_ERROR_MAX = 320 };

/*
 * A text file read one line at a time, within two bounds: no line longer
 * than the caller's buffer and no more than max_bytes in all. A file
 * without end (/dev/zero, a pipe from `yes`) therefore fails soon, with an
 * error that names the file and the bound, instead of running for ever.
 */
typedef struct TextFile {
	FILE *file;
	const char *path; /* borrowed: must outlive the TextFile */
	long long line;   /* number of the last line read (1-based) */
	long long bytes;  /* bytes read so far */
	long long max_bytes;
} TextFile;

typedef enum TextRead {
	TEXT_LINE, /* a line was stored, without its "\n" or "\r\n" */
	TEXT_END,  /* the file ended cleanly */
	TEXT_ERROR /* read error, NUL byte, a line or the file too long: see the message */
} TextRead;

/* Opens `path` for reading. False with "PATH: reason" in error when it
 * cannot be opened. */
bool textfile_open(TextFile *f, const char *path, long long max_bytes, char *error, size_t error_size);

/*
 * Reads the next line into line[size] (size >= 2). Errors say
 * "PATH:LINE: ..." (which bound, and its value); after TEXT_ERROR or
 * TEXT_END, only textfile_close() is meaningful. A last line without a
 * newline is a line.
 */
TextRead textfile_read_line(TextFile *f, char *line, size_t size, char *error, size_t error_size);

/* Closes the file (safe after a failed open). */
void textfile_close(TextFile *f);

/*
 * Finishes a file written with stdio: flushes and closes it, and returns
 * false with "writing PATH failed: reason" in error when that or any
 * earlier write to it failed (a full disk, /dev/full, a closed pipe). The
 * FILE is closed either way.
 */
bool textfile_finish(FILE *out, const char *path, char *error, size_t error_size);

/*
 * The end of a program that writes its results on standard output: closes
 * stdout and, when anything written to it was lost, prints
 * "PROGRAM: writing standard output failed: reason" on stderr and returns
 * `status`, or 1 when status was 0. Otherwise returns `status`. Call it
 * once, as the program's last act (`return textfile_exit("tune", status)`).
 */
int textfile_exit(const char *program, int status);

#endif
