/* test_envd_token_routing: E2B's envdAccessToken names its sandbox
 * ("<id>.<sandbox token>"), so an envd request carrying only X-Access-Token
 * (SDKs 2.7-2.14 send /files so) is routed to that sandbox by any node; the
 * credential is the secret alone, and only when the token names the
 * sandbox the request is for: one sandbox's token is nobody's for another. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/api_internal.h"

#define SB_A "sb-0123456789abcdef"
#define SB_B "sb-fedcba9876543210"
#define SECRET "aa11bb22cc33dd44ee55ff6600112233445566778899aabbccddeeff00112233"

static hg_http_req req_with(const char *sandbox_id, const char *token) {
  hg_http_req r = {.method = "GET", .target = "/files?path=/x", .path = "/files",
                   .query = "path=/x"};
  if (sandbox_id) r.headers[r.nheaders++] = (hg_http_header){"e2b-sandbox-id", sandbox_id};
  if (token) r.headers[r.nheaders++] = (hg_http_header){"x-access-token", token};
  return r;
}

/* The route, the sandbox and the credential as a node's head sees them. */
static void route(const hg_http_req *r, hg_match *m, char cred[HG_API_TOKEN_MAX + 1]) {
  assert_int_equal(hg__api_route_find(r->method, r->path, m), 0);
  hg__api_envd_params(r, m);
  hg__api_cred_parse(r, m->rt, &m->p, cred);
}

static void token_alone_names_its_sandbox(void **state) {
  hg_match m;
  char cred[HG_API_TOKEN_MAX + 1];
  hg_http_req r = req_with(NULL, SB_A "." SECRET);
  route(&r, &m, cred);
  assert_string_equal(m.p.id, SB_A);
  assert_true(hg__api_route_names_sandbox(m.rt, &m.p)); /* forwarded to its owner */
  assert_string_equal(cred, SECRET);
  /* with E2b-Sandbox-Id as well (SDK 2.15 on): the same */
  r = req_with(SB_A, SB_A "." SECRET);
  route(&r, &m, cred);
  assert_string_equal(m.p.id, SB_A);
  assert_string_equal(cred, SECRET);
  /* a token of the old form, with the header: unchanged */
  r = req_with(SB_A, SECRET);
  route(&r, &m, cred);
  assert_string_equal(m.p.id, SB_A);
  assert_string_equal(cred, SECRET);
}

static void token_of_another_sandbox_is_no_credential(void **state) {
  hg_match m;
  char cred[HG_API_TOKEN_MAX + 1];
  hg_http_req r = req_with(SB_B, SB_A "." SECRET);
  route(&r, &m, cred);
  assert_string_equal(m.p.id, SB_B); /* the header decides the sandbox */
  assert_string_not_equal(cred, SECRET); /* and A's secret is not B's credential */
  assert_string_equal(cred, SB_A "." SECRET);
}

static void malformed_tokens_name_nothing(void **state) {
  static const char *const bad[] = {
      "sb-0123456789abcdef.",       SECRET,
      ".x",                         "sb-0123456789ABCDEF." SECRET,
      "sb-0123456789abcde." SECRET, "sb-0123456789abcdef0." SECRET,
      "op-0123456789abcdef." SECRET, "sb-0123456789abcdef" SECRET,
      "sb-0123456789abcdefsb-0123456789abcdefsb-0123456789abcdef." SECRET, ""};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    char id[HG_ID_MAX];
    const char *secret;
    assert_int_equal(hg__api_envd_token_split(bad[i], id, &secret), -EINVAL);
    hg_match m;
    char cred[HG_API_TOKEN_MAX + 1];
    hg_http_req r = req_with(NULL, bad[i]);
    route(&r, &m, cred);
    assert_string_equal(m.p.id, "");
    assert_false(hg__api_route_names_sandbox(m.rt, &m.p));
  }
  char id[HG_ID_MAX];
  const char *secret;
  assert_int_equal(hg__api_envd_token_split(NULL, id, &secret), -EINVAL);
}

static void issued_token_round_trips(void **state) {
  json_t *t = hg__api_envd_token(SB_A, SECRET);
  char id[HG_ID_MAX];
  const char *secret;
  assert_int_equal(hg__api_envd_token_split(json_string_value(t), id, &secret), 0);
  assert_string_equal(id, SB_A);
  assert_string_equal(secret, SECRET);
  json_decref(t);
  t = hg__api_envd_token(SB_A, "");
  assert_true(json_is_null(t));
  json_decref(t);
}

/* hangar's own routes never read X-Access-Token, whatever it names. */
static void hangar_routes_ignore_the_token(void **state) {
  hg_match m;
  char cred[HG_API_TOKEN_MAX + 1];
  hg_http_req r = req_with(NULL, SB_A "." SECRET);
  r.path = "/v1/sandboxes/" SB_B;
  assert_int_equal(hg__api_route_find("GET", r.path, &m), 0);
  hg__api_envd_params(&r, &m);
  hg__api_cred_parse(&r, m.rt, &m.p, cred);
  assert_string_equal(m.p.id, SB_B);
  assert_string_equal(cred, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(token_alone_names_its_sandbox),
      cmocka_unit_test(token_of_another_sandbox_is_no_credential),
      cmocka_unit_test(malformed_tokens_name_nothing),
      cmocka_unit_test(issued_token_round_trips),
      cmocka_unit_test(hangar_routes_ignore_the_token),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
