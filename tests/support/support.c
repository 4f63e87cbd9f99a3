/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test helpers shared by every suite (no main here: linked into each test). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "support.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "poolshark/clock.h"
#include "poolshark/movegen.h"
#include "poolshark/random.h"

uint64_t rng_next(Rng *r)
{
	return random_next(&r->state);
}

int rng_below(Rng *r, int n)
{
	return (int)(rng_next(r) % (uint64_t)n);
}

static void support_die(const char *what, const char *text)
{
	fprintf(stderr, "test support: %s in \"%s\"\n", what, text);
	abort();
}

Position support_position(const char *text)
{
	Bitboard sets[2] = {0, 0}, kings = 0;
	const char *t = text;
	Color side;
	if (*t == 'B')
		side = BLACK;
	else if (*t == 'W')
		side = WHITE;
	else
		support_die("bad turn letter", text);
	t++;
	for (int list = 0; list < 2; list++) {
		if (*t != ':')
			support_die("expected ':'", text);
		t++;
		Color c;
		if (*t == 'B')
			c = BLACK;
		else if (*t == 'W')
			c = WHITE;
		else
			support_die("bad colour letter", text);
		t++;
		while (*t && *t != ':') {
			bool king = false;
			if (*t == 'K') {
				king = true;
				t++;
			}
			char *end;
			long n = strtol(t, &end, 10);
			if (end == t || n < 1 || n > 32)
				support_die("bad square", text);
			Bitboard bit = (Bitboard)1u << (n - 1);
			if ((sets[0] | sets[1]) & bit)
				support_die("square twice", text);
			sets[c] |= bit;
			if (king)
				kings |= bit;
			t = end;
			if (*t == ',')
				t++;
		}
	}
	if (*t)
		support_die("trailing text", text);
	Position p;
	position_set(&p, sets[BLACK], sets[WHITE], kings, side);
	return p;
}

static size_t append(char *out, size_t size, size_t at, const char *text)
{
	size_t n = strlen(text);
	if (at + n + 1 > size)
		return at;
	memcpy(out + at, text, n + 1);
	return at + n;
}

void support_describe(const Position *p, char *out, size_t size)
{
	char buf[8];
	size_t at = 0;
	out[0] = '\0';
	at = append(out, size, at, p->side == WHITE ? "W" : "B");
	static const Color order[2] = {WHITE, BLACK};
	for (int i = 0; i < 2; i++) {
		Color c = order[i];
		at = append(out, size, at, c == WHITE ? ":W" : ":B");
		bool first = true;
		for (int s = 0; s < 32; s++) {
			if (!(p->pieces[c] & bb_square(s)))
				continue;
			snprintf(buf, sizeof buf, "%s%s%d", first ? "" : ",",
			         (p->kings & bb_square(s)) ? "K" : "", s + 1);
			at = append(out, size, at, buf);
			first = false;
		}
	}
}

Move support_move(int from, int to, uint32_t captured)
{
	Move m = {captured, (uint8_t)(from - 1), (uint8_t)(to - 1), 0};
	return m;
}

int support_parse_moves(const char *text, Move *out, int capacity)
{
	int count = 0;
	const char *t = text;
	while (*t) {
		while (*t == ' ')
			t++;
		if (!*t)
			break;
		int squares[16], n = 0;
		char separator = 0;
		for (;;) {
			char *end;
			long v = strtol(t, &end, 10);
			if (end == t || v < 1 || v > 32 || n == 16)
				support_die("bad move", text);
			squares[n++] = (int)v;
			t = end;
			if (*t != '-' && *t != 'x')
				break;
			if (separator && *t != separator)
				support_die("mixed separators", text);
			separator = *t++;
		}
		if (n < 2 || (separator == '-' && n != 2) || count == capacity)
			support_die("bad move", text);
		uint32_t captured = 0;
		for (int i = 2; i < n; i++)
			captured |= 1u << (squares[i] - 1);
		if (separator == 'x' && n < 3)
			support_die("capture without captured squares", text);
		out[count++] = support_move(squares[0], squares[1], captured);
	}
	return count;
}

void support_format_move(Move m, char *out, size_t size)
{
	char buf[8];
	size_t at = 0;
	out[0] = '\0';
	snprintf(buf, sizeof buf, "%d%c%d", m.from + 1, m.captured ? 'x' : '-', m.to + 1);
	at = append(out, size, at, buf);
	for (int s = 0; s < 32; s++)
		if (m.captured & bb_square(s)) {
			snprintf(buf, sizeof buf, "x%d", s + 1);
			at = append(out, size, at, buf);
		}
}

static int compare_moves(const void *a, const void *b)
{
	const Move *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->captured != y->captured)
		return x->captured < y->captured ? -1 : 1;
	return 0;
}

void support_sort_moves(Move *moves, int count)
{
	qsort(moves, (size_t)count, sizeof *moves, compare_moves);
}

void support_format_moves(const Move *moves, int count, char *out, size_t size)
{
	Move *sorted = malloc(sizeof *sorted * (size_t)(count > 0 ? count : 1));
	if (!sorted)
		abort();
	memcpy(sorted, moves, sizeof *sorted * (size_t)count);
	support_sort_moves(sorted, count);
	size_t at = 0;
	out[0] = '\0';
	for (int i = 0; i < count; i++) {
		char buf[80];
		support_format_move(sorted[i], buf, sizeof buf);
		if (i)
			at = append(out, size, at, " ");
		at = append(out, size, at, buf);
	}
	free(sorted);
}

bool support_same_moves(const Move *a, int a_count, const Move *b, int b_count)
{
	if (a_count != b_count)
		return false;
	size_t bytes = sizeof(Move) * (size_t)(a_count > 0 ? a_count : 1);
	Move *x = malloc(bytes), *y = malloc(bytes);
	if (!x || !y)
		abort();
	memcpy(x, a, sizeof(Move) * (size_t)a_count);
	memcpy(y, b, sizeof(Move) * (size_t)b_count);
	support_sort_moves(x, a_count);
	support_sort_moves(y, b_count);
	bool same = true;
	for (int i = 0; i < a_count && same; i++) {
		if (!move_equal(x[i], y[i]))
			same = false;
		if (i > 0 && (move_equal(x[i], x[i - 1]) || move_equal(y[i], y[i - 1])))
			same = false; /* a duplicate breaks rule 2.11 */
	}
	free(x);
	free(y);
	return same;
}

/* The reference's name for each rule set. */
static const RefRules reference_rules_of[VARIANT_COUNT] = {
    [VARIANT_POOL] = REF_POOL,       [VARIANT_RUSSIAN] = REF_RUSSIAN, [VARIANT_BRAZILIAN] = REF_BRAZILIAN,
    [VARIANT_ENGLISH] = REF_ENGLISH, [VARIANT_ITALIAN] = REF_ITALIAN, [VARIANT_SPANISH] = REF_SPANISH,
    [VARIANT_CZECH] = REF_CZECH,
};

void support_to_reference(const Position *p, RefBoard *out)
{
	out->squares[0] = ' ';
	for (int s = 0; s < 32; s++) {
		Bitboard bit = bb_square(s);
		char c = '.';
		if (p->pieces[BLACK] & bit)
			c = (p->kings & bit) ? 'B' : 'b';
		else if (p->pieces[WHITE] & bit)
			c = (p->kings & bit) ? 'W' : 'w';
		out->squares[s + 1] = c;
	}
	out->side = p->side == WHITE ? 'W' : 'B';
	out->rules = reference_rules_of[p->variant < VARIANT_COUNT ? p->variant : VARIANT_POOL];
}

void support_from_reference(const RefBoard *b, Position *out)
{
	Bitboard black = 0, white = 0, kings = 0;
	for (int n = 1; n <= 32; n++) {
		Bitboard bit = bb_square(n - 1);
		switch (b->squares[n]) {
		case 'B': kings |= bit; /* fall through */
		case 'b': black |= bit; break;
		case 'W': kings |= bit; /* fall through */
		case 'w': white |= bit; break;
		default: break;
		}
	}
	position_set(out, black, white, kings, b->side == 'W' ? WHITE : BLACK);
	out->variant = VARIANT_POOL;
	for (int v = 0; v < VARIANT_COUNT; v++)
		if (reference_rules_of[v] == b->rules)
			out->variant = (uint8_t)v;
}

int support_reference_moves(const Position *p, Move *out, int capacity)
{
	RefBoard b;
	static RefMove moves[REF_MAX_MOVES]; /* large; tests are single-threaded */
	support_to_reference(p, &b);
	int n = reference_generate(&b, moves, REF_MAX_MOVES);
	if (n > REF_MAX_MOVES || n > capacity)
		abort();
	for (int i = 0; i < n; i++) {
		out[i] = support_move(moves[i].from, moves[i].to, moves[i].captured);
		out[i].crowned = (uint8_t)moves[i].crowned;
	}
	return n;
}

/* Every move of a that crowns during its capture does so in b too (the
 * flag is not part of a move's identity, so support_same_moves() skips it). */
static bool same_crowning(const Move *a, int a_count, const Move *b, int b_count)
{
	for (int i = 0; i < a_count; i++)
		for (int j = 0; j < b_count; j++)
			if (move_equal(a[i], b[j]) && a[i].crowned != b[j].crowned)
				return false;
	return true;
}

bool support_check_against_reference(const Position *p, const char *label)
{
	MoveList list;
	Move ref[REF_MAX_MOVES];
	int n = movegen_generate(p, &list);
	int m = support_reference_moves(p, ref, REF_MAX_MOVES);
	if (n == list.count && support_same_moves(list.moves, n, ref, m) &&
	    same_crowning(list.moves, n, ref, m))
		return true;
	static char text[REF_MAX_MOVES * 48];
	char fen[160];
	support_describe(p, fen, sizeof fen);
	fprintf(stderr, "%s: movegen and reference disagree on %s\n", label, fen);
	support_format_moves(list.moves, list.count, text, sizeof text);
	fprintf(stderr, "  movegen   (%d, returned %d): %s\n", list.count, n, text);
	support_format_moves(ref, m, text, sizeof text);
	fprintf(stderr, "  reference (%d): %s\n", m, text);
	return false;
}

bool support_check_moves(const char *fen, const char *expected)
{
	Position p = support_position(fen);
	MoveList list;
	Move want[REF_MAX_MOVES], ref[REF_MAX_MOVES];
	static char text[REF_MAX_MOVES * 48];
	int n = movegen_generate(&p, &list);
	int w = support_parse_moves(expected, want, REF_MAX_MOVES);
	int r = support_reference_moves(&p, ref, REF_MAX_MOVES);
	bool ok = true;
	if (n != list.count || !support_same_moves(list.moves, list.count, want, w)) {
		support_format_moves(list.moves, list.count, text, sizeof text);
		fprintf(stderr, "%s: movegen lists %d moves: %s\n", fen, list.count, text);
		ok = false;
	}
	if (!support_same_moves(ref, r, want, w)) {
		support_format_moves(ref, r, text, sizeof text);
		fprintf(stderr, "%s: reference lists %d moves: %s\n", fen, r, text);
		ok = false;
	}
	if (!ok) {
		support_format_moves(want, w, text, sizeof text);
		fprintf(stderr, "%s: expected %d moves: %s\n", fen, w, text);
	}
	bool captures = w > 0 && move_is_capture(want[0]);
	if (movegen_count(&p) != w || movegen_has_capture(&p) != captures ||
	    movegen_has_moves(&p) != (w > 0)) {
		fprintf(stderr, "%s: count %d, has_capture %d, has_moves %d; expected %d, %d, %d\n", fen,
		        movegen_count(&p), movegen_has_capture(&p), movegen_has_moves(&p), w, captures,
		        w > 0);
		ok = false;
	}
	return ok;
}

void support_random_position(Rng *r, int max_men, int max_kings, Position *out)
{
	Bitboard sets[2] = {0, 0}, kings = 0;
	for (int c = 0; c < 2; c++) {
		int men = rng_below(r, max_men + 1), k = rng_below(r, max_kings + 1);
		if (men + k == 0)
			k = 1;
		if (men + k > 12)
			men = 12 - k;
		Bitboard forbidden = position_crown_row((Color)c);
		for (int placed = 0; placed < men + k;) {
			int s = rng_below(r, 32);
			Bitboard bit = bb_square(s);
			if ((sets[0] | sets[1]) & bit)
				continue;
			bool king = placed >= men;
			if (!king && (bit & forbidden))
				continue;
			sets[c] |= bit;
			if (king)
				kings |= bit;
			placed++;
		}
	}
	position_set(out, sets[BLACK], sets[WHITE], kings, rng_below(r, 2) ? WHITE : BLACK);
}

int support_random_walk(Rng *r, const Position *start, int plies, Position *out)
{
	Position p = *start;
	MoveList list;
	int played = 0;
	for (; played < plies; played++) {
		if (movegen_generate(&p, &list) == 0)
			break;
		position_make(&p, list.moves[rng_below(r, list.count)], &p);
	}
	*out = p;
	return played;
}

bool support_is_legal(const Position *p, Move m)
{
	MoveList list;
	movegen_generate(p, &list);
	for (int i = 0; i < list.count; i++)
		if (move_equal(list.moves[i], m))
			return true;
	return false;
}

bool support_scratch_dir(const char *suite, char *dir, size_t size)
{
	int n = snprintf(dir, size, "/tmp/%s.XXXXXX", suite);
	if (n > 0 && (size_t)n < size && mkdtemp(dir))
		return true;
	fprintf(stderr, "%s: cannot make a scratch directory: %s\n", suite, strerror(errno));
	return false;
}

int support_remove_dir(const char *dir)
{
	char command[600];
	if (snprintf(command, sizeof command, "rm -rf '%s'", dir) >= (int)sizeof command)
		return -1;
	return system(command) == 0 ? 0 : -1;
}

int support_teardown_dir(void **state)
{
	return support_remove_dir(*state);
}

const char *support_path(const char *dir, const char *name)
{
	static char paths[4][1024]; /* tests are single-threaded */
	static int next;
	char *out = paths[next++ % 4];
	int n = snprintf(out, sizeof paths[0], "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= sizeof paths[0])
		fail_msg("the path %s/%s is longer than %zu bytes", dir, name, sizeof paths[0] - 1);
	return out;
}

void support_write_file(const char *dir, const char *name, const void *bytes, size_t size)
{
	const char *path = dir ? support_path(dir, name) : name;
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(bytes, 1, size, f) != size || fclose(f) != 0)
		fail_msg("cannot write %s: %s", path, strerror(errno));
}

void support_write_text(const char *dir, const char *name, const char *text)
{
	support_write_file(dir, name, text, strlen(text));
}

const char *support_engine(void)
{
	const char *bin = getenv("POOLSHARK_BIN");
	return bin ? bin : "./poolshark";
}

/* The absolute path of program `name` in the directory that the
 * environment variable `variable` names. */
static bool program_path(const char *suite, const char *variable, const char *name, char *out, size_t size)
{
	const char *dir = getenv(variable);
	char cwd[512];
	if (!dir) {
		fprintf(stderr, "%s: %s must be set (make test does)\n", suite, variable);
		return false;
	}
	if (dir[0] != '/' && !getcwd(cwd, sizeof cwd))
		return false;
	int n = dir[0] == '/' ? snprintf(out, size, "%s/%s", dir, name)
	                      : snprintf(out, size, "%s/%s/%s", cwd, dir, name);
	if (n < 0 || (size_t)n >= size) {
		fprintf(stderr, "%s: the path of %s is too long\n", suite, name);
		return false;
	}
	return true;
}

bool support_tool_path(const char *suite, const char *name, char *out, size_t size)
{
	return program_path(suite, "TOOL_DIR", name, out, size);
}

bool support_helper_path(const char *suite, const char *name, char *out, size_t size)
{
	return program_path(suite, "HELPER_DIR", name, out, size);
}

/* Appends what is readable on fd to buf[*used]; false at its end. */
static bool drain(int fd, char *buf, size_t *used)
{
	char chunk[4096];
	ssize_t n = read(fd, chunk, sizeof chunk);
	if (n < 0 && errno == EINTR)
		return true;
	if (n <= 0)
		return false;
	size_t room = SUPPORT_OUTPUT_MAX - 1 - *used, take = (size_t)n < room ? (size_t)n : room;
	memcpy(buf + *used, chunk, take);
	*used += take;
	buf[*used] = '\0';
	return true;
}

void support_exec(SupportExec *r, const char *const *args, int timeout_seconds)
{
	const char *bin = support_engine();
	const char *argv[32] = {bin};
	int argc = 1;
	for (; args[argc - 1] && argc < 31; argc++)
		argv[argc] = args[argc - 1];
	argv[argc] = NULL;
	int out[2], err[2];
	assert_int_equal(pipe(out), 0);
	assert_int_equal(pipe(err), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		close(out[0]);
		close(out[1]);
		close(err[0]);
		close(err[1]);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	size_t err_used = 0;
	r->out_length = 0;
	r->out[0] = r->err[0] = '\0';
	bool out_open = true, err_open = true, killed = false;
	int64_t deadline = clock_now_ms() + 1000 * (int64_t)timeout_seconds;
	while (out_open || err_open) {
		struct pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
		int64_t left = deadline - clock_now_ms();
		if (left <= 0) {
			kill(pid, SIGKILL);
			killed = true;
			break;
		}
		if (poll(fds, 2, (int)left) < 0)
			continue;
		if (out_open && fds[0].revents)
			out_open = drain(out[0], r->out, &r->out_length);
		if (err_open && fds[1].revents)
			err_open = drain(err[0], r->err, &err_used);
	}
	close(out[0]);
	close(err[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	r->status = !killed && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (killed)
		fprintf(stderr, "%s %s: killed after %d s\n", bin, args[0] ? args[0] : "", timeout_seconds);
}

int support_shell(const char *dir, const char *format, ...)
{
	char body[3500], command[4096];
	va_list args;
	va_start(args, format);
	vsnprintf(body, sizeof body, format, args);
	va_end(args);
	if (dir)
		snprintf(command, sizeof command, "cd '%s' && %s", dir, body);
	else
		snprintf(command, sizeof command, "%s", body);
	int status = system(command);
	assert_true(status != -1);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void support_run(SupportRun *r, const char *format, ...)
{
	char command[4096];
	va_list args;
	va_start(args, format);
	vsnprintf(command, sizeof command, format, args);
	va_end(args);
	strncat(command, " 2>&1", sizeof command - strlen(command) - 1);
	r->status = -1;
	r->text[0] = '\0';
	FILE *f = popen(command, "r");
	if (!f)
		return;
	size_t n = fread(r->text, 1, sizeof r->text - 1, f);
	r->text[n] = '\0';
	int status = pclose(f);
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void support_random_three_kings_against_one(Rng *r, Bitboard *kings, Bitboard *lone)
{
	*kings = 0;
	*lone = 0;
	while (bb_count(*kings) < 3)
		*kings |= bb_square(rng_below(r, 32));
	while (!*lone) {
		Bitboard sq = bb_square(rng_below(r, 32));
		*lone = sq & *kings ? 0 : sq;
	}
}
