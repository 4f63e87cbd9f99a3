/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Openings files: one FEN a line, read for a rule set, and random starts played from them. */
#include "openings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "poolshark/notation.h"
#include "poolshark/random.h"
#include "poolshark/textfile.h"
#include "poolshark/version.h"

/* An openings file is a few thousand lines; this bound only stops a file
 * without end (/dev/zero, a pipe that never closes). */
enum { OPENINGS_MAX_BYTES = 64 << 20 };

const char *openings_default_path(Variant v)
{
	switch (v) {
	case VARIANT_RUSSIAN: return "tools/data/openings-russian.fen";
	case VARIANT_BRAZILIAN: return "tools/data/openings-brazilian.fen";
	/* Each its own, never pool's starts read under other rules and
	 * numbers. */
	case VARIANT_ENGLISH: return "tools/data/openings-english.fen";
	case VARIANT_ITALIAN: return "tools/data/openings-italian.fen";
	case VARIANT_SPANISH: return "tools/data/openings-spanish.fen";
	case VARIANT_CZECH: return "tools/data/openings-czech.fen";
	default: return "tools/data/openings.fen";
	}
}

/* Writes DIR/repository to path[size] when that file can be read, DIR being
 * the directory that holds the running program, its parent or the parent's
 * parent: the source tree of ./pool-match, build/pool-match and
 * build/bin/pool-match, run from any working directory. */
static bool find_in_program_tree(const char *repository, char *path, size_t size)
{
#ifdef __linux__
	char dir[OPENINGS_PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
	if (n <= 0)
		return false;
	dir[n] = '\0';
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			return false;
		*slash = '\0';
		char candidate[2 * OPENINGS_PATH_MAX];
		int m = snprintf(candidate, sizeof candidate, "%s/%s", dir, repository);
		if (m > 0 && (size_t)m < size && access(candidate, R_OK) == 0) {
			snprintf(path, size, "%s", candidate);
			return true;
		}
	}
#else
	(void)repository, (void)path, (void)size;
#endif
	return false;
}

const char *openings_find_default(Variant v, char *path, size_t size)
{
	const char *repository = openings_default_path(v);
	snprintf(path, size, "%s", repository);
	if (access(repository, R_OK) == 0 || find_in_program_tree(repository, path, size))
		return path;
	const char *egdb = poolshark_installed_egdb_dir, *slash = strrchr(egdb, '/');
	if (!slash)
		return path;
	char installed[OPENINGS_PATH_MAX];
	int n = snprintf(installed, sizeof installed, "%.*s/%s", (int)(slash - egdb), egdb,
	                 strrchr(repository, '/') + 1);
	if (n > 0 && (size_t)n < sizeof installed && access(installed, R_OK) == 0)
		snprintf(path, size, "%s", installed);
	return path;
}

bool openings_read(const char *path, Variant v, volatile const sig_atomic_t *interrupted, Openings *out,
                   char *err, size_t err_size)
{
	*out = (Openings){0, NULL};
	TextFile f;
	if (!textfile_open(&f, path, OPENINGS_MAX_BYTES, err, err_size))
		return false;
	char line[512], why[NOTATION_ERROR_MAX];
	int capacity = 0;
	bool ok = true;
	TextRead r = TEXT_END;
	while (!(interrupted && *interrupted) &&
	       (r = textfile_read_line(&f, line, sizeof line, err, err_size)) == TEXT_LINE) {
		char *text = line + strspn(line, " \t");
		if (*text == '\0' || *text == '#')
			continue;
		if (out->count == capacity) {
			capacity = capacity ? 2 * capacity : 256;
			Position *grown = realloc(out->positions, (size_t)capacity * sizeof *grown);
			if (!grown) {
				snprintf(err, err_size, "%s: out of memory", path);
				ok = false;
				break;
			}
			out->positions = grown;
		}
		if (!notation_parse_fen(text, v, &out->positions[out->count], why, sizeof why)) {
			snprintf(err, err_size, "%s:%lld: %s", path, f.line, why);
			ok = false;
			break;
		}
		out->count++;
	}
	textfile_close(&f);
	if (interrupted && *interrupted) {
		snprintf(err, err_size, "%s: interrupted", path);
		ok = false;
	} else if (r == TEXT_ERROR) {
		ok = false;
	} else if (ok && out->count == 0) {
		snprintf(err, err_size, "%s: no openings", path);
		ok = false;
	}
	if (!ok)
		openings_free(out);
	return ok;
}

void openings_free(Openings *o)
{
	free(o->positions);
	*o = (Openings){0, NULL};
}

void openings_random_start(uint64_t *rng, const Position *opening, int min_plies, int max_plies, Game *g)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		int span = max_plies - min_plies;
		int plies = min_plies + (span > 0 ? (int)random_below(rng, (uint64_t)span + 1) : 0);
		if (game_random_level_start(g, opening, plies, rng))
			return;
	}
	game_init(g, opening);
}
