/*
 * test_dbusd_hintq.c: cmocka tests of the bounded signal hint queue
 * (dbusd/match.c): a flood never grows it, drops are counted, duplicate
 * unit-changed hints merge, order is kept.  Runs unprivileged.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

/* NOLINTNEXTLINE(bugprone-suspicious-include): the queue is static */
#include "dbusd/match.c"

static struct hint
mk(enum hint_kind kind, unsigned n)
{
	struct hint	h;

	memset(&h, 0, sizeof(h));
	h.kind = kind;
	snprintf(h.unit, sizeof(h.unit),
	    "opencode-pty-%032x.service", n);
	if (kind == HINT_JOB_REMOVED) {
		snprintf(h.job, sizeof(h.job),
		    "/org/freedesktop/systemd1/job/%u", n);
		snprintf(h.result, sizeof(h.result), "done");
	}
	return h;
}

static void
test_flood(void **state)
{
	struct hintq	q = { .head = 0 };
	struct hint	h;
	unsigned	i, n = 0;

	(void)state;
	for (i = 0; i < 10000; i++) {
		h = mk(i % 2 ? HINT_JOB_REMOVED : HINT_UNIT_CHANGED, i);
		hintq_push(&q, &h);
		assert_true(q.depth <= HINTQ_BOUND);
	}
	assert_int_equal(q.depth, HINTQ_BOUND);
	assert_int_equal(q.dropped, 10000 - HINTQ_BOUND);
	/* The survivors are the oldest, in arrival order. */
	while (hintq_pop(&q, &h)) {
		struct hint	want = mk(n % 2 ? HINT_JOB_REMOVED :
				    HINT_UNIT_CHANGED, n);

		assert_int_equal(h.kind, want.kind);
		assert_string_equal(h.unit, want.unit);
		assert_string_equal(h.job, want.job);
		n++;
	}
	assert_int_equal(n, HINTQ_BOUND);
	assert_int_equal(q.depth, 0);
	assert_int_equal(hintq_pop(&q, &h), 0);
}

static void
test_flood_same_unit(void **state)
{
	struct hintq	q = { .head = 0 };
	struct hint	h = mk(HINT_UNIT_CHANGED, 7), out;
	unsigned	i;

	(void)state;
	assert_int_equal(hintq_push(&q, &h), 1);
	for (i = 1; i < 10000; i++)
		assert_int_equal(hintq_push(&q, &h), 0);
	assert_int_equal(q.depth, 1);
	assert_int_equal(q.dropped, 0);
	assert_int_equal(hintq_pop(&q, &out), 1);
	assert_string_equal(out.unit, h.unit);
	/* Once delivered, a new change of the same unit queues again. */
	assert_int_equal(hintq_push(&q, &h), 1);
}

static void
test_no_coalesce_jobs(void **state)
{
	struct hintq	q = { .head = 0 };
	struct hint	h = mk(HINT_JOB_REMOVED, 3);

	(void)state;
	assert_int_equal(hintq_push(&q, &h), 1);
	assert_int_equal(hintq_push(&q, &h), 1);
	assert_int_equal(q.depth, 2);
	/* A change hint does not merge with a job hint of the same unit. */
	h.kind = HINT_UNIT_CHANGED;
	assert_int_equal(hintq_push(&q, &h), 1);
	assert_int_equal(hintq_push(&q, &h), 0);
	assert_int_equal(q.depth, 3);
}

static void
test_full_then_coalesce(void **state)
{
	struct hintq	q = { .head = 0 };
	struct hint	h;
	unsigned	i;

	(void)state;
	for (i = 0; i < HINTQ_BOUND; i++) {
		h = mk(HINT_UNIT_CHANGED, i);
		assert_int_equal(hintq_push(&q, &h), 1);
	}
	h = mk(HINT_UNIT_CHANGED, 5);		/* already queued */
	assert_int_equal(hintq_push(&q, &h), 0);
	h = mk(HINT_UNIT_CHANGED, HINTQ_BOUND);	/* new: no room */
	assert_int_equal(hintq_push(&q, &h), -1);
	assert_int_equal(q.dropped, 1);
	/* Wrap-around: pop one, push one, order kept. */
	assert_int_equal(hintq_pop(&q, &h), 1);
	assert_string_equal(h.unit, mk(HINT_UNIT_CHANGED, 0).unit);
	h = mk(HINT_UNIT_CHANGED, 100);
	assert_int_equal(hintq_push(&q, &h), 1);
	for (i = 1; i < HINTQ_BOUND; i++) {
		assert_int_equal(hintq_pop(&q, &h), 1);
		assert_string_equal(h.unit, mk(HINT_UNIT_CHANGED, i).unit);
	}
	assert_int_equal(hintq_pop(&q, &h), 1);
	assert_string_equal(h.unit, mk(HINT_UNIT_CHANGED, 100).unit);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flood),
		cmocka_unit_test(test_flood_same_unit),
		cmocka_unit_test(test_no_coalesce_jobs),
		cmocka_unit_test(test_full_then_coalesce),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
