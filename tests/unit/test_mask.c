/* test_mask: the streaming secret matcher (gateway/mask.h). Every split
 * of a stream into two and three pieces gives the same masked output as
 * one piece, and no secret form survives. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gateway/mask.h"
#include "node/core/buf.h"

typedef struct sink {
  hg_buf b;
  size_t calls;
  int fail_at; /* a call number that fails, 0: none */
} sink;

static int sink_out(void *ud, const char *p, size_t n) {
  sink *s = ud;
  s->calls++;
  if (s->fail_at && (int)s->calls == s->fail_at) return -EPIPE;
  return hg_buf_append(&s->b, p, n);
}

static void sink_init(sink *s) {
  memset(s, 0, sizeof(*s));
  hg_buf_init(&s->b, 1 << 24);
}

/* text fed in the pieces cut at the offsets in cuts[0..ncuts), then
 * flushed; what came out, NUL-terminated (malloc'd). */
static char *run(hg_mask *m, const char *text, size_t len, const size_t *cuts,
                 size_t ncuts) {
  sink s;
  sink_init(&s);
  size_t at = 0;
  for (size_t i = 0; i <= ncuts; i++) {
    size_t end = i < ncuts ? cuts[i] : len;
    assert_int_equal(hg_mask_feed(m, text + at, end - at, sink_out, &s), 0);
    at = end;
  }
  assert_int_equal(hg_mask_flush(m, sink_out, &s), 0);
  assert_int_equal(hg_mask_held(m), 0);
  assert_int_equal(s.b.len, len); /* same length: framing holds */
  char *r = malloc(len + 1);
  memcpy(r, s.b.data ? s.b.data : "", len);
  r[len] = '\0';
  hg_buf_free(&s.b);
  return r;
}

static char *stars(const char *text, const char *const *hide, size_t nhide) {
  char *r = strdup(text);
  for (size_t k = 0; k < nhide; k++)
    for (char *p = r; (p = strstr(p, hide[k])) != NULL;) memset(p, '*', strlen(hide[k]));
  return r;
}

/* The stream cut at every point, and at every pair of points: each gives
 * want. */
static void every_split(hg_mask *m, const char *text, const char *want) {
  size_t len = strlen(text);
  char *one = run(m, text, len, NULL, 0);
  assert_string_equal(one, want);
  free(one);
  for (size_t i = 0; i <= len; i++) {
    char *r = run(m, text, len, &i, 1);
    if (strcmp(r, want) != 0) fail_msg("cut at %zu: got [%s] want [%s]", i, r, want);
    free(r);
    for (size_t j = i; j <= len; j++) {
      size_t cuts[2] = {i, j};
      r = run(m, text, len, cuts, 2);
      if (strcmp(r, want) != 0)
        fail_msg("cuts at %zu,%zu: got [%s] want [%s]", i, j, r, want);
      free(r);
    }
  }
}

#define SECRET "sk-live-42/ab+cd=\"x"

static void raw_secret_masked_at_every_split(void **state) {
  hg_mask m;
  hg_mask_init(&m);
  assert_int_equal(hg_mask_add(&m, SECRET, strlen(SECRET)), 0);
  const char *text = "head " SECRET " mid sk-live-4 " SECRET SECRET " tail sk-li";
  const char *hide[] = {SECRET};
  char *want = stars(text, hide, 1);
  every_split(&m, text, want);
  free(want);
  hg_mask_reset(&m);
}

/* The forms an echo endpoint reflects a secret in. */
static void escaped_forms_masked_at_every_split(void **state) {
  static const char *const forms[] = {
      "sk-live-42/ab+cd=\\\"x",      /* JSON */
      "sk-live-42\\/ab+cd=\\\"x",    /* JSON, \/ */
      "sk-live-42%2Fab%2Bcd%3D%22x", /* percent, upper */
      "sk-live-42%2fab%2bcd%3d%22x", /* percent, lower */
  };
  hg_mask m;
  hg_mask_init(&m);
  assert_int_equal(hg_mask_add(&m, SECRET, strlen(SECRET)), 0);
  for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
    char text[256];
    snprintf(text, sizeof(text), "{\"h\":\"%s\",\"q\":\"%s\"}", forms[f], forms[f]);
    const char *hide[] = {forms[f]};
    char *want = stars(text, hide, 1);
    assert_null(strstr(want, "42"));
    every_split(&m, text, want);
    free(want);
  }
  hg_mask_reset(&m);
}

static void go_json_and_form_encoding(void **state) {
  hg_mask m;
  hg_mask_init(&m);
  const char *s = "a<b>&c d";
  assert_int_equal(hg_mask_add(&m, s, strlen(s)), 0);
  const char *text =
      "x\"a\\u003cb\\u003e\\u0026c d\" y=a%3Cb%3E%26c+d&z=a%3cb%3e%26c%20d";
  const char *hide[] = {"a\\u003cb\\u003e\\u0026c d", "a%3Cb%3E%26c+d",
                        "a%3cb%3e%26c%20d"};
  char *want = stars(text, hide, 3);
  every_split(&m, text, want);
  free(want);
  hg_mask_reset(&m);
}

/* Two secrets that overlap in the text ("abcd" and "cdef" in "abcdef"):
 * both are hidden, whole; and a secret inside another. */
static void overlapping_secrets_both_masked(void **state) {
  hg_mask m;
  hg_mask_init(&m);
  assert_int_equal(hg_mask_add(&m, "abcd", 4), 0);
  assert_int_equal(hg_mask_add(&m, "cdef", 4), 0);
  assert_int_equal(hg_mask_add(&m, "xyzzy", 5), 0);
  assert_int_equal(hg_mask_add(&m, "yzz", 3), 0);
  every_split(&m, "1abcdef2 abcdcdef xyzzy yzz xyzz", "1******2 ******** ***** *** x***");
  hg_mask_reset(&m);
}

/* A pattern whose own prefix repeats (KMP failure links used). */
static void self_overlapping_secret(void **state) {
  hg_mask m;
  hg_mask_init(&m);
  assert_int_equal(hg_mask_add(&m, "aabaab", 6), 0);
  every_split(&m, "aabaabaab aaabaab aabaa", "********* a****** aabaa");
  hg_mask_reset(&m);
}

/* What is held is never more than the longest form minus one, and bytes
 * that cannot begin a match go on at once. */
static void holds_only_a_possible_start(void **state) {
  hg_mask m;
  sink s;
  hg_mask_init(&m);
  sink_init(&s);
  assert_int_equal(hg_mask_add(&m, "token", 5), 0);
  assert_int_equal(hg_mask_feed(&m, "hello world", 11, sink_out, &s), 0);
  assert_int_equal(s.b.len, 11);
  assert_int_equal(hg_mask_feed(&m, "...tok", 6, sink_out, &s), 0);
  assert_int_equal(hg_mask_held(&m), 3);
  assert_int_equal(hg_mask_feed(&m, "e", 1, sink_out, &s), 0);
  assert_int_equal(hg_mask_held(&m), 4);
  assert_int_equal(hg_mask_feed(&m, "x", 1, sink_out, &s), 0);
  assert_int_equal(hg_mask_held(&m), 0);
  assert_int_equal(hg_mask_feed(&m, "token", 5, sink_out, &s), 0);
  assert_int_equal(hg_mask_held(&m), 0);
  assert_memory_equal(s.b.data, "hello world...tokex*****", 24);
  hg_buf_free(&s.b);
  hg_mask_reset(&m);
}

/* A long stream in odd pieces (across HG_MASK_PIECE steps): every one of
 * the secrets planted in it is hidden. */
static void long_stream_in_odd_pieces(void **state) {
  const char *secret = "Bearer-0123456789abcdef";
  size_t sl = strlen(secret), len = 3 * HG_MASK_PIECE + 1234;
  char *text = malloc(len + 1);
  for (size_t i = 0; i < len; i++) text[i] = (char)('a' + (i * 7) % 26);
  size_t planted = 0;
  for (size_t at = 100; at + sl < len; at += 9973, planted++)
    memcpy(text + at, secret, sl);
  text[len] = '\0';
  hg_mask m;
  hg_mask_init(&m);
  assert_int_equal(hg_mask_add(&m, secret, sl), 0);
  size_t cuts[64], n = 0;
  for (size_t at = 1; at < len && n < 64; at += 4099 + n * 1031) cuts[n++] = at;
  char *r = run(&m, text, len, cuts, n);
  assert_null(strstr(r, secret));
  size_t masked = 0;
  for (char *p = r; (p = strstr(p, "***********************")) != NULL; p += sl) masked++;
  assert_int_equal(masked, planted);
  free(r);
  free(text);
  hg_mask_reset(&m);
}

static void apply_masks_a_whole_buffer(void **state) {
  hg_mask m;
  hg_mask_init(&m);
  assert_int_equal(hg_mask_add(&m, "s3cr/t", 6), 0);
  char t[] = "a s3cr/t b s3cr\\/t c s3cr%2Ft d s3cr";
  hg_mask_apply(&m, t, strlen(t));
  assert_string_equal(t, "a ****** b ******* c ******** d s3cr");
  /* a fresh state each time: the partial "s3cr" above is not carried */
  char u[] = "/t";
  hg_mask_apply(&m, u, 2);
  assert_string_equal(u, "/t");
  hg_mask_reset(&m);
}

static void limits_and_errors(void **state) {
  hg_mask m;
  sink s;
  hg_mask_init(&m);
  sink_init(&s);
  /* no secrets: bytes pass as they are */
  assert_int_equal(hg_mask_feed(&m, "abc", 3, sink_out, &s), 0);
  assert_int_equal(s.b.len, 3);
  assert_int_equal(hg_mask_add(&m, "", 0), 0);
  assert_false(hg_mask_active(&m));
  char big[HG_GW_SECRET_MAX + 1];
  memset(big, 'k', sizeof(big));
  assert_int_equal(hg_mask_add(&m, big, HG_GW_SECRET_MAX), -EINVAL);
  /* the same secret twice: one set of patterns */
  assert_int_equal(hg_mask_add(&m, "dup/x", 5), 0);
  size_t n = m.npats;
  assert_int_equal(hg_mask_add(&m, "dup/x", 5), 0);
  assert_int_equal(m.npats, n);
  /* plain tokens have one form: no duplicate patterns */
  assert_int_equal(hg_mask_add(&m, "plain", 5), 0);
  assert_int_equal(m.npats, n + 1);
  /* the longest secret in its longest form fits the hold */
  memset(big, '<', sizeof(big));
  assert_int_equal(hg_mask_add(&m, big, HG_GW_SECRET_MAX - 1), 0);
  /* an error from out is returned */
  s.fail_at = (int)s.calls + 1;
  assert_int_equal(hg_mask_feed(&m, "zzzz", 4, sink_out, &s), -EPIPE);
  hg_mask_reset(&m);
  /* the table fills */
  hg_mask_init(&m);
  char sec[32];
  int rc = 0;
  for (int i = 0; i < 1000 && rc == 0; i++) {
    snprintf(sec, sizeof(sec), "s<%d>/ &\"", i);
    rc = hg_mask_add(&m, sec, strlen(sec));
  }
  assert_int_equal(rc, -ENOBUFS);
  assert_int_equal(m.npats, HG_MASK_PATTERNS);
  hg_mask_reset(&m);
  hg_buf_free(&s.b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(raw_secret_masked_at_every_split),
      cmocka_unit_test(escaped_forms_masked_at_every_split),
      cmocka_unit_test(go_json_and_form_encoding),
      cmocka_unit_test(overlapping_secrets_both_masked),
      cmocka_unit_test(self_overlapping_secret),
      cmocka_unit_test(holds_only_a_possible_start),
      cmocka_unit_test(long_stream_in_odd_pieces),
      cmocka_unit_test(apply_masks_a_whole_buffer),
      cmocka_unit_test(limits_and_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
