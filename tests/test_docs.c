/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The documents' figures checked so that they cannot drift: doc/PROTOCOL.md's transcripts and the README's
 * options, bench counts and links against the real binary and the tree, its standing against
 * doc/experiments.md.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TEXT_MAX = 1 << 17, NAMES_MAX = 32, TABLE_ROWS = 64, TABLE_COLUMNS = 12, CELL_MAX = 256 };

static char engine[1024];

/* The whole of a file, or of a command's output; NULL-free text. */
static char *read_all(FILE *f)
{
	char *text = malloc(TEXT_MAX);
	assert_non_null(text);
	size_t n = fread(text, 1, TEXT_MAX - 1, f);
	text[n] = '\0';
	return text;
}

static char *read_doc(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s (run from the top of the tree, as make test does)", path);
	char *text = read_all(f);
	fclose(f);
	return text;
}

/* What `command` prints; it must exit 0. */
static char *command_output(const char *command)
{
	FILE *f = popen(command, "r");
	assert_non_null(f);
	char *text = read_all(f);
	if (pclose(f) != 0)
		fail_msg("'%s' failed", command);
	return text;
}

/* What the engine, given `arguments`, answers to `lines` (sent through a shell printf). */
static char *engine_session(const char *arguments, const char *lines)
{
	char command[2048];
	snprintf(command, sizeof command, "printf '%s' | %s %s", lines, engine, arguments);
	return command_output(command);
}

static char *engine_output(const char *lines)
{
	return engine_session("", lines);
}

/* What the engine's subcommand `arguments` prints. */
static char *engine_command(const char *arguments)
{
	char command[2048];
	snprintf(command, sizeof command, "%s %s", engine, arguments);
	return command_output(command);
}

/* A Markdown table: its header names and its rows, each cell trimmed. */
typedef struct Table {
	int columns, rows;
	char header[TABLE_COLUMNS][CELL_MAX];
	char cell[TABLE_ROWS][TABLE_COLUMNS][CELL_MAX];
} Table;

/* Splits one `| a | b |` line into cells; returns how many. */
static int split_row(const char *line, const char *end, char cells[TABLE_COLUMNS][CELL_MAX])
{
	int count = 0;
	const char *s = line + 1;
	while (s < end) {
		const char *bar = memchr(s, '|', (size_t)(end - s));
		if (!bar)
			break;
		const char *a = s, *b = bar;
		while (a < b && *a == ' ')
			a++;
		while (b > a && b[-1] == ' ')
			b--;
		assert_true(count < TABLE_COLUMNS);
		assert_true((size_t)(b - a) < CELL_MAX);
		memcpy(cells[count], a, (size_t)(b - a));
		cells[count++][b - a] = '\0';
		s = bar + 1;
	}
	return count;
}

/* The first table after the line `heading` of `text` (named `doc` in messages). */
static Table *table_after(const char *text, const char *heading, const char *doc)
{
	char line[64];
	snprintf(line, sizeof line, "\n%s\n", heading);
	const char *s = strstr(text, line);
	if (!s)
		fail_msg("%s has no heading '%s'", doc, heading);
	s = strstr(s, "\n|");
	if (!s)
		fail_msg("%s has no table under '%s'", doc, heading);
	Table *t = calloc(1, sizeof *t);
	assert_non_null(t);
	for (int n = 0; s && s[1] == '|'; n++) {
		const char *start = s + 1, *end = strchr(start, '\n');
		if (!end)
			end = start + strlen(start);
		if (n == 0)
			t->columns = split_row(start, end, t->header);
		else if (n > 1) {
			assert_true(t->rows < TABLE_ROWS);
			if (split_row(start, end, t->cell[t->rows]) != t->columns)
				fail_msg("%s, '%s': row %d has not %d cells", doc, heading, t->rows + 1,
				         t->columns);
			t->rows++;
		}
		s = *end ? end : NULL;
	}
	return t;
}

/* The index of the column named `name`; fails naming the table when it has none. */
static int table_column(const Table *t, const char *name, const char *doc)
{
	for (int i = 0; i < t->columns; i++)
		if (!strcmp(t->header[i], name))
			return i;
	fail_msg("%s: a table lacks the column '%s'", doc, name);
	return -1;
}

/* `text` without its backquotes. */
static void unquote(const char *text, char *out, size_t size)
{
	size_t n = 0;
	for (; *text && n + 1 < size; text++)
		if (*text != '`')
			out[n++] = *text;
	out[n] = '\0';
}

/* The names of the `param name=X` lines of text from `from` on, up to the
 * first `wait`. */
static int param_names(const char *text, const char *prefix, char names[][32])
{
	int count = 0;
	char pattern[64];
	snprintf(pattern, sizeof pattern, "%sparam name=", prefix);
	const char *end = strstr(text, "wait");
	for (const char *s = text; (s = strstr(s, pattern)) && (!end || s < end) && count < NAMES_MAX; s++) {
		const char *name = s + strlen(pattern);
		size_t n = strcspn(name, " \n");
		assert_true(n < 32);
		memcpy(names[count], name, n);
		names[count++][n] = '\0';
	}
	return count;
}

/* The handshake shown for a GUI declares the options the engine declares,
 * in its order (it once lacked egdb-path). */
static void test_handshake_params_match(void **state)
{
	(void)state;
	char *doc = read_doc("doc/PROTOCOL.md");
	const char *block = strstr(doc, "### A GUI's handshake and one move");
	assert_non_null(block);
	char shown[NAMES_MAX][32], real[NAMES_MAX][32];
	int shown_count = param_names(block, "< ", shown);
	char *out = engine_output("hub\\nquit\\n");
	int real_count = param_names(out, "", real);
	assert_true(real_count > 0);
	if (shown_count != real_count)
		fail_msg("doc/PROTOCOL.md shows %d param lines, the engine sends %d:\n%s", shown_count,
		         real_count, out);
	for (int i = 0; i < real_count; i++)
		if (strcmp(shown[i], real[i]))
			fail_msg("param %d: the doc shows %s, the engine sends %s", i + 1, shown[i], real[i]);
	free(out);
	free(doc);
}

/* The node count of `bench position=N` in text, or -1. */
static long bench_position_nodes(const char *text, const char *prefix, int position)
{
	char pattern[64];
	snprintf(pattern, sizeof pattern, "%sbench position=%d nodes=", prefix, position);
	const char *s = strstr(text, pattern);
	return s ? strtol(s + strlen(pattern), NULL, 10) : -1;
}

/* The bench example: every position shown, the total, and the sentence
 * about `poolshark bench 4` give the binary's figures. */
static void test_bench_example_matches(void **state)
{
	(void)state;
	char *doc = read_doc("doc/PROTOCOL.md");
	char *out = engine_output("bench depth=4\\nquit\\n");
	int shown = 0;
	for (int position = 1; position <= 64; position++) {
		long documented = bench_position_nodes(doc, "< ", position);
		if (documented < 0)
			continue;
		shown++;
		long real = bench_position_nodes(out, "", position);
		if (real != documented)
			fail_msg("bench position %d: the doc shows %ld nodes, the engine searches %ld",
			         position, documented, real);
	}
	assert_true(shown >= 2);
	const char *total_doc = strstr(doc, "< bench depth=4 nodes="),
	           *total_real = strstr(out, "bench depth=4 nodes=");
	assert_non_null(total_doc);
	assert_non_null(total_real);
	long documented = strtol(total_doc + strlen("< bench depth=4 nodes="), NULL, 10);
	long real = strtol(total_real + strlen("bench depth=4 nodes="), NULL, 10);
	if (documented != real)
		fail_msg("bench depth=4: the doc shows %ld nodes, the engine searches %ld", documented, real);
	const char *same = strstr(doc, "(`poolshark bench 4` prints the same ");
	assert_non_null(same);
	assert_int_equal(strtol(same + strlen("(`poolshark bench 4` prints the same "), NULL, 10), real);
	free(out);
	free(doc);
}

/* The README's current standing gives, for each rule set, the newest row of
 * doc/experiments.md's table against the same build and control, field for
 * field, and leaves out no rule set that the ledger measured against it. */
static void test_standing_matches_ledger(void **state)
{
	(void)state;
	char *readme = read_doc("README.md"), *ledger = read_doc("doc/experiments.md");
	Table *shown = table_after(readme, "## Strength", "README.md");
	Table *rows = table_after(ledger, "## Where the engine stands", "doc/experiments.md");
	static const char *const keys[] = {"rule set", "against", "control"};
	static const char *const fields[] = {"games", "result", "Elo", "date"};
	assert_true(shown->rows > 0);
	for (int r = 0; r < shown->rows; r++) {
		const char *rule_set = shown->cell[r][table_column(shown, "rule set", "README.md")];
		int match = -1;
		for (int l = 0; l < rows->rows && match < 0; l++) {
			match = l;
			for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
				if (strcmp(shown->cell[r][table_column(shown, keys[k], "README.md")],
				           rows->cell[l][table_column(rows, keys[k], "doc/experiments.md")]))
					match = -1;
		}
		if (match < 0)
			fail_msg("README's standing for %s has no row of the same opponent and control in "
			         "doc/experiments.md",
			         rule_set);
		for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
			const char *a = shown->cell[r][table_column(shown, fields[f], "README.md")];
			const char *b =
			    rows->cell[match][table_column(rows, fields[f], "doc/experiments.md")];
			if (strcmp(a, b))
				fail_msg(
				    "%s, %s: the README says '%s', doc/experiments.md's newest row says '%s'",
				    rule_set, fields[f], a, b);
		}
		const char *build = shown->cell[r][table_column(shown, "build", "README.md")];
		const char *row_build = rows->cell[match][table_column(rows, "build", "doc/experiments.md")];
		if (!*build || strncmp(build, row_build, strlen(build)))
			fail_msg("%s, build: the README says '%s', doc/experiments.md's newest row says '%s'",
			         rule_set, build, row_build);
		for (int other = 0; other < r; other++)
			if (!strcmp(shown->cell[other][table_column(shown, "rule set", "README.md")],
			            rule_set))
				fail_msg("the README's standing gives %s twice", rule_set);
	}
	const char *against = shown->cell[0][table_column(shown, "against", "README.md")];
	for (int l = 0; l < rows->rows; l++) {
		if (strcmp(rows->cell[l][table_column(rows, "against", "doc/experiments.md")], against))
			continue;
		const char *rule_set = rows->cell[l][table_column(rows, "rule set", "doc/experiments.md")];
		bool found = false;
		for (int r = 0; r < shown->rows; r++)
			found |=
			    !strcmp(shown->cell[r][table_column(shown, "rule set", "README.md")], rule_set);
		if (!found)
			fail_msg("doc/experiments.md measures %s against %s; the README's standing lacks it",
			         rule_set, against);
	}
	free(rows);
	free(shown);
	free(ledger);
	free(readme);
}

/* The value of `key=` in the `param` line `line` (quoted or not), or "". */
static void param_value(const char *line, const char *key, char *out, size_t size)
{
	char pattern[32];
	snprintf(pattern, sizeof pattern, " %s=", key);
	const char *end = strchr(line, '\n'), *s = strstr(line, pattern);
	out[0] = '\0';
	if (!s || (end && s > end))
		return;
	s += strlen(pattern);
	size_t n = *s == '"' ? strcspn(++s, "\"") : strcspn(s, " \n");
	assert_true(n < size);
	memcpy(out, s, n);
	out[n] = '\0';
}

/* An int option's range as the README writes it: "MIN-MAX", or "A to B per
 * core" (B a core, as the engine counts them); fails naming the option. */
static void check_range(const char *name, const char *cell, const char *line)
{
	char min[32], max[32];
	param_value(line, "min", min, sizeof min);
	param_value(line, "max", max, sizeof max);
	char *end;
	long low = strtol(cell, &end, 10), high;
	if (strstr(cell, "per core")) {
		assert_non_null(strstr(end, " to "));
		long cores = sysconf(_SC_NPROCESSORS_ONLN);
		high = strtol(strstr(end, " to ") + 4, NULL, 10) * (cores > 0 ? cores : 1);
	} else {
		if (*end != '-')
			fail_msg("README, option %s: the values '%s' are not MIN-MAX", name, cell);
		high = strtol(end + 1, NULL, 10);
	}
	if (low != strtol(min, NULL, 10) || high != strtol(max, NULL, 10))
		fail_msg("README, option %s: the values '%s' give %ld-%ld, the engine declares min=%s max=%s",
		         name, cell, low, high, min, max);
}

/* The README's options table lists every option the Hub handshake declares,
 * no other, each with the engine's default, range or values. The database
 * directory is `none` for the check: by default the engine takes
 * databases/ beside it when there is one, which the table's row says. */
static void test_options_table_matches_handshake(void **state)
{
	(void)state;
	char *readme = read_doc("README.md");
	Table *t = table_after(readme, "## Options", "README.md");
	int name_column = table_column(t, "option", "README.md"),
	    default_column = table_column(t, "default", "README.md"),
	    values_column = table_column(t, "values", "README.md");
	char *out = engine_session("--egdb none", "hub\\nquit\\n");
	bool listed[TABLE_ROWS] = {false};
	int declared = 0;
	for (const char *line = out; (line = strstr(line, "param name=")); line++) {
		char name[64], value[CELL_MAX], type[32];
		param_value(line, "name", name, sizeof name);
		param_value(line, "value", value, sizeof value);
		param_value(line, "type", type, sizeof type);
		declared++;
		int row = -1;
		for (int r = 0; r < t->rows; r++) {
			char shown[CELL_MAX];
			unquote(t->cell[r][name_column], shown, sizeof shown);
			if (!strcmp(shown, name))
				row = r;
		}
		if (row < 0)
			fail_msg("the engine declares the option %s; the README's options table lacks it",
			         name);
		listed[row] = true;
		char shown_default[CELL_MAX], shown_values[CELL_MAX];
		unquote(t->cell[row][default_column], shown_default, sizeof shown_default);
		unquote(t->cell[row][values_column], shown_values, sizeof shown_values);
		if (strcmp(shown_default, value))
			fail_msg("option %s: the README's default is '%s', the engine's '%s'", name,
			         shown_default, value);
		if (!strcmp(type, "int"))
			check_range(name, shown_values, line);
		else if (!strcmp(type, "enum")) {
			char values[CELL_MAX], words[CELL_MAX] = "";
			param_value(line, "values", values, sizeof values);
			for (const char *w = shown_values; *w;) {
				size_t n = strcspn(w, ", ");
				if (n)
					snprintf(words + strlen(words), sizeof words - strlen(words),
					         "%s%.*s", *words ? " " : "", (int)n, w);
				w += n + (w[n] != '\0');
			}
			if (strcmp(words, values))
				fail_msg("option %s: the README's values are '%s', the engine's '%s'", name,
				         words, values);
		} else if (!strcmp(type, "bool")) {
			if (strcmp(shown_values, "true, false"))
				fail_msg("option %s: a bool's values are 'true, false', the README says '%s'",
				         name, shown_values);
		}
	}
	assert_true(declared > 0);
	for (int r = 0; r < t->rows; r++)
		if (!listed[r])
			fail_msg("the README lists the option %s, which the engine does not declare",
			         t->cell[r][name_column]);
	free(out);
	free(t);
	free(readme);
}

/* The number that follows `after` in text; fails naming the doc when absent. */
static long number_after(const char *text, const char *after, const char *doc)
{
	const char *s = strstr(text, after);
	if (!s)
		fail_msg("%s does not say '%s'", doc, after);
	return strtol(s + strlen(after), NULL, 10);
}

/* The README's bench node counts, under both evaluations, are the binary's. */
static void test_readme_bench_counts(void **state)
{
	(void)state;
	char *readme = read_doc("README.md");
	static const struct {
		const char *arguments, *readme_says;
	} runs[] = {
	    {"bench", "ends with \"Nodes searched: "},
	    {"bench --eval classic", "the hand-written evaluation: "},
	};
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		long documented = number_after(readme, runs[i].readme_says, "README.md");
		char *out = engine_command(runs[i].arguments);
		long real = number_after(out, "Nodes searched: ", runs[i].arguments);
		if (documented != real)
			fail_msg("poolshark %s: the README says %ld nodes, the engine searches %ld",
			         runs[i].arguments, documented, real);
		free(out);
	}
	free(readme);
}

/* Every relative link of the README names a file of the tree. */
static void test_readme_links_resolve(void **state)
{
	(void)state;
	char *readme = read_doc("README.md");
	int links = 0;
	for (const char *s = readme; (s = strstr(s, "](")); s++) {
		const char *target = s + 2;
		size_t n = strcspn(target, ")#");
		if (n == 0 || !strncmp(target, "http://", 7) || !strncmp(target, "https://", 8))
			continue;
		char path[512];
		assert_true(n < sizeof path);
		memcpy(path, target, n);
		path[n] = '\0';
		links++;
		if (access(path, F_OK))
			fail_msg("the README links %s, which is not in the tree", path);
	}
	assert_true(links >= 10);
	free(readme);
}

int main(void)
{
	const char *bin = getenv("POOLSHARK_BIN");
	snprintf(engine, sizeof engine, "%s", bin ? bin : "./poolshark");
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_handshake_params_match),
	    cmocka_unit_test(test_bench_example_matches),
	    cmocka_unit_test(test_standing_matches_ledger),
	    cmocka_unit_test(test_options_table_matches_handshake),
	    cmocka_unit_test(test_readme_bench_counts),
	    cmocka_unit_test(test_readme_links_resolve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
