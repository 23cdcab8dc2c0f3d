/* test_fwdsign: signing and checking forwarded requests (api/fwdsign.h).
 * Each attack a forward could carry, one at a time: a changed method,
 * target, body, time or identity, a replayed nonce, a stale or future
 * time, no signature, another cluster's key; plus rotation, the nonce
 * cache's bound, and the decoder's edges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "api/fwdsign.h"
#include "node/core/util.h"

#define KA "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
#define KB "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"
#define NOW 1780000000000LL /* wall ms */

static hg_fwdsign *signer, *checker;

static int setup(void **state) {
  if (hg_fwdsign_new(KA, "prod", 0, 0, &signer) < 0) return -1;
  return hg_fwdsign_new(KA, "prod", 0, 0, &checker);
}

static int teardown(void **state) {
  hg_fwdsign_free(signer);
  hg_fwdsign_free(checker);
  return 0;
}

/* One signed request as the forwarder sends it. */
typedef struct fwd {
  char method[16], target[256], node[64], ident[HG_FWDSIGN_IDENT_MAX];
  char body[64];
  hg_fwdsign_hdrs h;
} fwd;

static void sign(const hg_fwdsign *s, fwd *f, const char *method, const char *target,
                 const char *ident, const char *body, int64_t at) {
  memset(f, 0, sizeof *f);
  snprintf(f->method, sizeof f->method, "%s", method);
  snprintf(f->target, sizeof f->target, "%s", target);
  snprintf(f->node, sizeof f->node, "n-a");
  snprintf(f->ident, sizeof f->ident, "%s", ident);
  snprintf(f->body, sizeof f->body, "%s", body);
  assert_int_equal(hg_fwdsign_sign(s, method, target, "n-a", ident, body, strlen(body), at, &f->h),
                   0);
}

static int check(hg_fwdsign *s, const fwd *f, int64_t now) {
  hg_fwdsign_req r = {.method = f->method,
                      .target = f->target,
                      .node = f->node,
                      .identity = f->ident[0] ? f->ident : NULL,
                      .digest = f->h.digest,
                      .sig = f->h.sig};
  int rc = hg_fwdsign_check(s, &r, now);
  if (rc == 0) rc = hg_fwdsign_check_body(f->h.digest, f->body, strlen(f->body));
  return rc;
}

static void good_signature_checks_once(void **state) {
  fwd f;
  sign(signer, &f, "PUT", "/v1/sandboxes/sb-1/files?path=/x", "admin", "hello", NOW);
  assert_int_equal(strlen(f.h.digest), 64);
  assert_int_equal(strncmp(f.h.sig, "v1 1780000000000 ", 17), 0);
  assert_int_equal(check(checker, &f, NOW + 1000), 0);
  /* the same bytes again: a replay */
  assert_int_equal(check(checker, &f, NOW + 2000), -EALREADY);
  /* a fresh signature of the same request is another request */
  sign(signer, &f, "PUT", "/v1/sandboxes/sb-1/files?path=/x", "admin", "hello", NOW);
  assert_int_equal(check(checker, &f, NOW), 0);
  hg_fwdsign_stats st;
  hg_fwdsign_get_stats(checker, &st);
  assert_int_equal(st.ok, 2);
  assert_int_equal(st.replayed, 1);
  assert_int_equal(st.nonces, 2);
}

static void every_covered_field_is_covered(void **state) {
  fwd f;
  /* method */
  sign(signer, &f, "GET", "/v1/sandboxes/sb-1", "bearer tok", "", NOW);
  snprintf(f.method, sizeof f.method, "DELETE");
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  /* target: path, and query */
  sign(signer, &f, "GET", "/v1/sandboxes/sb-1?wait=1", "bearer tok", "", NOW);
  snprintf(f.target, sizeof f.target, "/v1/sandboxes/sb-2?wait=1");
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  sign(signer, &f, "GET", "/v1/sandboxes/sb-1?wait=1", "bearer tok", "", NOW);
  snprintf(f.target, sizeof f.target, "/v1/sandboxes/sb-1?wait=2");
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  /* identity: raised to admin, dropped, another token */
  sign(signer, &f, "GET", "/v1/sandboxes/sb-1", "bearer tok", "", NOW);
  snprintf(f.ident, sizeof f.ident, "admin");
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  sign(signer, &f, "GET", "/v1/sandboxes/sb-1", "bearer tok", "", NOW);
  f.ident[0] = '\0';
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  sign(signer, &f, "GET", "/v1/sandboxes/sb-1", "admin", "", NOW);
  f.ident[0] = '\0';
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  /* the forwarding node */
  sign(signer, &f, "GET", "/v1/sandboxes/sb-1", "admin", "", NOW);
  snprintf(f.node, sizeof f.node, "n-b");
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  /* the time in the signature (its MAC is over the old one) */
  sign(signer, &f, "GET", "/v1/sandboxes/sb-1", "admin", "", NOW);
  f.h.sig[3 + 12] = f.h.sig[3 + 12] == '9' ? '8' : '9';
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  /* the nonce */
  sign(signer, &f, "GET", "/v1/sandboxes/sb-1", "admin", "", NOW);
  char *nonce = strchr(f.h.sig + 3, ' ') + 1;
  nonce[0] = nonce[0] == 'a' ? 'b' : 'a';
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  /* the MAC itself */
  sign(signer, &f, "GET", "/v1/sandboxes/sb-1", "admin", "", NOW);
  size_t n = strlen(f.h.sig);
  f.h.sig[n - 1] = f.h.sig[n - 1] == '0' ? '1' : '0';
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  /* the body: another body under the signed digest */
  sign(signer, &f, "PUT", "/v1/sandboxes/sb-1/files?path=/x", "admin", "signed", NOW);
  snprintf(f.body, sizeof f.body, "swaped");
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  /* ... and a digest changed to match the new body: the MAC covers it */
  sign(signer, &f, "PUT", "/v1/sandboxes/sb-1/files?path=/y", "admin", "signed", NOW);
  fwd other;
  sign(signer, &other, "PUT", "/v1/sandboxes/sb-1/files?path=/y", "admin", "swaped", NOW);
  memcpy(f.h.digest, other.h.digest, sizeof f.h.digest);
  snprintf(f.body, sizeof f.body, "swaped");
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  hg_fwdsign_stats st;
  hg_fwdsign_get_stats(checker, &st);
  assert_int_equal(st.ok, 1); /* only the body swap got past the head */
  assert_int_equal(st.nonces, 1);
}

static void time_window_both_ways(void **state) {
  fwd f;
  sign(signer, &f, "GET", "/v1/x", "admin", "", NOW);
  assert_int_equal(check(checker, &f, NOW + HG_FWDSIGN_WINDOW_MS + 1), -ESTALE);
  assert_int_equal(check(checker, &f, NOW - HG_FWDSIGN_WINDOW_MS - 1), -ESTALE);
  assert_int_equal(check(checker, &f, NOW + HG_FWDSIGN_WINDOW_MS), 0); /* the edge is in */
  /* a stale replay is refused as stale, a fresh one as seen */
  assert_int_equal(check(checker, &f, NOW + 10 * HG_FWDSIGN_WINDOW_MS), -ESTALE);
  assert_int_equal(check(checker, &f, NOW), -EALREADY);
  sign(signer, &f, "GET", "/v1/x", "admin", "", NOW - HG_FWDSIGN_WINDOW_MS);
  assert_int_equal(check(checker, &f, NOW), 0);
  hg_fwdsign_stats st;
  hg_fwdsign_get_stats(checker, &st);
  assert_int_equal(st.stale, 3);
}

static void missing_or_malformed_headers(void **state) {
  fwd f;
  sign(signer, &f, "GET", "/v1/x", "admin", "", NOW);
  hg_fwdsign_req r = {.method = f.method, .target = f.target, .node = f.node,
                      .identity = f.ident, .digest = f.h.digest, .sig = NULL};
  assert_int_equal(hg_fwdsign_check(checker, &r, NOW), -ENOKEY);
  assert_int_equal(hg_fwdsign_check(NULL, &r, NOW), -ENOKEY); /* no cluster key here */
  r.sig = f.h.sig;
  r.digest = NULL;
  assert_int_equal(hg_fwdsign_check(checker, &r, NOW), -EBADMSG);
  r.digest = f.h.digest;
  r.node = NULL;
  assert_int_equal(hg_fwdsign_check(checker, &r, NOW), -EBADMSG);
  r.node = f.node;
  r.sig = "v1 1 00 00";
  assert_int_equal(hg_fwdsign_check(checker, &r, NOW), -EBADMSG);
  r.sig = f.h.sig;
  assert_int_equal(hg_fwdsign_check(checker, &r, NOW), 0);
}

static void another_key_or_cluster_fails_rotation_works(void **state) {
  hg_fwdsign *other, *other_name, *rotated;
  assert_int_equal(hg_fwdsign_new(KB, "prod", 0, 0, &other), 0);
  assert_int_equal(hg_fwdsign_new(KA, "test", 0, 0, &other_name), 0);
  assert_int_equal(hg_fwdsign_new(KB "," KA, "prod", 0, 0, &rotated), 0);
  fwd f;
  sign(other, &f, "GET", "/v1/x", "admin", "", NOW);
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  sign(other_name, &f, "GET", "/v1/x", "admin", "", NOW);
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  /* mid-rotation: a node with the new key first signs with it; one that has
   * both accepts either; one with only the old key does not know the new */
  sign(rotated, &f, "GET", "/v1/x", "admin", "", NOW);
  assert_int_equal(check(checker, &f, NOW), -EBADMSG);
  assert_int_equal(check(other, &f, NOW), 0);
  sign(signer, &f, "GET", "/v1/x", "admin", "", NOW);
  assert_int_equal(check(rotated, &f, NOW), 0);
  hg_fwdsign_free(other);
  hg_fwdsign_free(other_name);
  hg_fwdsign_free(rotated);
  /* and a key list that is not one */
  hg_fwdsign *bad = NULL;
  assert_int_equal(hg_fwdsign_new("nothex", "prod", 0, 0, &bad), -EINVAL);
  assert_int_equal(hg_fwdsign_new(NULL, "prod", 0, 0, &bad), -EINVAL);
  assert_int_equal(hg_fwdsign_new(KA, "", 0, 0, &bad), -EINVAL);
  assert_null(bad);
}

/* Full of nonces still in the window: refused, never forgotten (a
 * forgotten one could be replayed); room again as they leave the window. */
static void nonce_cache_is_bounded(void **state) {
  hg_fwdsign *small;
  assert_int_equal(hg_fwdsign_new(KA, "prod", 4, 1000, &small), 0);
  fwd f[6];
  for (int i = 0; i < 4; i++) {
    sign(signer, &f[i], "GET", "/v1/x", "admin", "", NOW + i);
    assert_int_equal(check(small, &f[i], NOW + i), 0);
  }
  sign(signer, &f[4], "GET", "/v1/x", "admin", "", NOW + 4);
  assert_int_equal(check(small, &f[4], NOW + 4), -EBUSY);
  for (int i = 0; i < 4; i++) assert_int_equal(check(small, &f[i], NOW + 5), -EALREADY);
  /* 1 s on, the first has left the window: its room is taken, and a
   * replay of it is stale */
  assert_int_equal(check(small, &f[4], NOW + 1001), 0);
  assert_int_equal(check(small, &f[0], NOW + 1001), -ESTALE);
  hg_fwdsign_stats st;
  hg_fwdsign_get_stats(small, &st);
  assert_int_equal(st.busy, 1);
  assert_int_equal(st.nonces, 4);
  hg_fwdsign_free(small);
}

static void signing_refuses_what_could_split_fields(void **state) {
  hg_fwdsign_hdrs h;
  assert_int_equal(hg_fwdsign_sign(signer, "GET", "/v1/x\nadmin", "n-a", "", "", 0, NOW, &h),
                   -EINVAL);
  assert_int_equal(hg_fwdsign_sign(signer, "GET", "/v1/x", "n-a", "bearer a\nb", "", 0, NOW, &h),
                   -EINVAL);
  assert_int_equal(hg_fwdsign_sign(NULL, "GET", "/v1/x", "n-a", "", "", 0, NOW, &h), -ENOKEY);
}

static void decoders(void **state) {
  hg_fwdsig s;
  char mac[65];
  memset(mac, 'a', 64);
  mac[64] = '\0';
  char ok[160];
  snprintf(ok, sizeof ok, "v1 123 0123456789abcdef0123456789abcdef %s", mac);
  assert_int_equal(hg_fwdsign_parse(ok, &s), 0);
  assert_int_equal(s.ms, 123);
  assert_string_equal(s.nonce, "0123456789abcdef0123456789abcdef");
  const char *bad[] = {
      "", "v1", "v1 ", "v2 123 0123456789abcdef0123456789abcdef aa",
      "v1 0123 0123456789abcdef0123456789abcdef " /* leading zero */,
      "v1 -1 0123456789abcdef0123456789abcdef ",
      "v1 1234567890123456 0123456789abcdef0123456789abcdef " /* 16 digits */,
      "v1 123 0123456789ABCDEF0123456789abcdef ",
      "v1 123  0123456789abcdef0123456789abcdef ",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char b[200];
    snprintf(b, sizeof b, "%s%s", bad[i], strlen(bad[i]) > 20 ? mac : "");
    assert_int_equal(hg_fwdsign_parse(b, &s), -EBADMSG);
  }
  snprintf(ok, sizeof ok, "v1 123 0123456789abcdef0123456789abcdef %s0", mac);
  assert_int_equal(hg_fwdsign_parse(ok, &s), -EBADMSG); /* too long */
  bool admin;
  char cred[HG_FWDSIGN_IDENT_MAX];
  assert_int_equal(hg_fwdsign_identity("admin", &admin, cred, sizeof cred), 0);
  assert_true(admin);
  assert_int_equal(hg_fwdsign_identity("bearer abc", &admin, cred, sizeof cred), 0);
  assert_false(admin);
  assert_string_equal(cred, "abc");
  const char *bad_id[] = {"Admin", "bearer ", "bearer a b", "bearer\tx", "root", "admin "};
  for (size_t i = 0; i < sizeof bad_id / sizeof bad_id[0]; i++)
    assert_int_equal(hg_fwdsign_identity(bad_id[i], &admin, cred, sizeof cred), -EBADMSG);
  char longid[300] = "bearer ";
  memset(longid + 7, 'x', 257);
  longid[7 + 257] = '\0';
  assert_int_equal(hg_fwdsign_identity(longid, &admin, cred, sizeof cred), -EBADMSG);
  assert_int_equal(hg_fwdsign_check_body(NULL, "", 0), -EBADMSG);
  assert_int_equal(
      hg_fwdsign_check_body("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "", 0),
      0);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(good_signature_checks_once),
      T(every_covered_field_is_covered),
      T(time_window_both_ways),
      T(missing_or_malformed_headers),
      T(another_key_or_cluster_fails_rotation_works),
      T(nonce_cache_is_bounded),
      T(signing_refuses_what_could_split_fields),
      T(decoders),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
