/* test_e2b_mapping: the E2B-compatible API's translation without VMs:
 * E2B's request bodies into hangar's (create, process.Process/Start's
 * Connect envelope), multipart uploads, list filtering and paging, and
 * the shapes of errors (control API: {"code": <status>}, envd: Connect's
 * {"code": "<name>"}) on the routes as the routing table finds them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/api_internal.h"
#include "tests/unit/envelope_util.h"

static char msg[HG_API_MSG];

static void create_body_maps_e2b_fields(void **state) {
  json_t *b = json_loads("{\"templateID\":\"base\",\"timeout\":300,\"metadata\":{\"a\":\"1\"},"
                         "\"envVars\":{\"X\":\"y\"},\"autoPause\":false}", 0, NULL), *h = NULL;
  assert_int_equal(hg__api_e2b_create_body(b, &h, msg), 0);
  assert_null(json_object_get(h, "template")); /* "base": the node's default */
  assert_int_equal(json_integer_value(json_object_get(h, "idle_suspend_s")), 300);
  assert_string_equal(json_string_value(json_object_get(json_object_get(h, "env"), "X")), "y");
  assert_string_equal(json_string_value(json_object_get(json_object_get(h, "metadata"), "a")), "1");
  /* E2B kills a sandbox at its timeout unless autoPause */
  assert_string_equal(json_string_value(json_object_get(h, "idle_action")), "delete");
  json_decref(h);
  json_decref(b);
  b = json_loads("{\"templateID\":\"py:1\"}", 0, NULL);
  assert_int_equal(hg__api_e2b_create_body(b, &h, msg), 0);
  assert_string_equal(json_string_value(json_object_get(h, "template")), "py:1");
  assert_null(json_object_get(h, "idle_suspend_s"));
  assert_string_equal(json_string_value(json_object_get(h, "idle_action")), "delete");
  json_decref(h);
  json_decref(b);
  b = json_loads("{\"timeout\":\"soon\"}", 0, NULL);
  assert_int_equal(hg__api_e2b_create_body(b, &h, msg), -EINVAL);
  json_decref(b);
}

/* autoPause: suspended at the timeout; hangar's parser takes the mapping's
 * idle_action, and without one keeps its own default (suspend). */
static void auto_pause_decides_the_timeout(void **state) {
  json_t *b = json_loads("{\"timeout\":30,\"autoPause\":true}", 0, NULL), *h = NULL;
  assert_int_equal(hg__api_e2b_create_body(b, &h, msg), 0);
  assert_string_equal(json_string_value(json_object_get(h, "idle_action")), "suspend");
  hg_sandbox_spec spec;
  assert_int_equal(hg__api_create_parse(h, &spec, msg), 0);
  assert_false(spec.idle_delete);
  json_object_set_new(h, "idle_action", json_string("delete"));
  assert_int_equal(hg__api_create_parse(h, &spec, msg), 0);
  assert_true(spec.idle_delete);
  json_object_set_new(h, "idle_action", json_string("stop"));
  assert_int_equal(hg__api_create_parse(h, &spec, msg), -EINVAL);
  json_object_del(h, "idle_action"); /* hangar's own default: suspend */
  assert_int_equal(hg__api_create_parse(h, &spec, msg), 0);
  assert_false(spec.idle_delete);
  json_decref(h);
  json_decref(b);
  b = json_loads("{\"autoPause\":\"yes\"}", 0, NULL);
  assert_int_equal(hg__api_e2b_create_body(b, &h, msg), -EINVAL);
  json_decref(b);
}

static void start_envelope_becomes_a_command(void **state) {
  char buf[512];
  json_t *h = NULL;
  size_t n = envelope_of(buf, 0, "{\"process\":{\"cmd\":\"/usr/bin/env\",\"args\":[\"-i\"],"
                              "\"envs\":{\"A\":\"b\"},\"cwd\":\"/tmp\"},\"stdin\":false}");
  assert_int_equal(hg__api_envd_start_body(buf, n, &h, NULL, NULL, msg), 0);
  json_t *cmd = json_object_get(h, "cmd");
  assert_int_equal(json_array_size(cmd), 2);
  assert_string_equal(json_string_value(json_array_get(cmd, 0)), "/usr/bin/env");
  assert_string_equal(json_string_value(json_array_get(cmd, 1)), "-i");
  assert_string_equal(json_string_value(json_object_get(h, "cwd")), "/tmp");
  assert_string_equal(json_string_value(json_object_get(json_object_get(h, "env"), "A")), "b");
  json_decref(h);
  /* the SDK's /bin/bash -l -c X: bash when the guest has it, else sh */
  n = envelope_of(buf, 0, "{\"process\":{\"cmd\":\"/bin/bash\",\"args\":[\"-l\",\"-c\",\"echo hi\"]}}");
  assert_int_equal(hg__api_envd_start_body(buf, n, &h, NULL, NULL, msg), 0);
  cmd = json_object_get(h, "cmd");
  assert_string_equal(json_string_value(json_array_get(cmd, 0)), "/bin/sh");
  assert_string_equal(json_string_value(json_array_get(cmd, json_array_size(cmd) - 1)), "echo hi");
  json_decref(h);
  /* a length that is not the body's, compression, no cmd: 400s */
  n = envelope_of(buf, 0, "{\"process\":{}}");
  assert_int_equal(hg__api_envd_start_body(buf, n, &h, NULL, NULL, msg), -EINVAL);
  assert_int_equal(hg__api_envd_start_body(buf, n - 1, &h, NULL, NULL, msg), -EINVAL);
  n = envelope_of(buf, 1, "{\"process\":{\"cmd\":\"x\"}}");
  assert_int_equal(hg__api_envd_start_body(buf, n, &h, NULL, NULL, msg), -EINVAL);
  assert_int_equal(hg__api_envd_start_body(buf, 3, &h, NULL, NULL, msg), -EINVAL);
}

static void multipart_finds_the_file_part(void **state) {
  const char *ct = "multipart/form-data; boundary=----formdata-undici-042";
  const char body[] = "------formdata-undici-042\r\n"
                      "Content-Disposition: form-data; name=\"other\"\r\n\r\nnope\r\n"
                      "------formdata-undici-042\r\n"
                      "Content-Disposition: form-data; name=\"file\"; filename=\"/tmp/a.txt\"\r\n"
                      "Content-Type: application/octet-stream\r\n\r\n"
                      "line\r\nwith crlf\r\n"
                      "------formdata-undici-042--\r\n";
  const char *d = NULL;
  size_t dl = 0;
  char name[64];
  assert_int_equal(hg__api_multipart_file(ct, body, sizeof body - 1, &d, &dl, name, sizeof name), 0);
  assert_int_equal(dl, strlen("line\r\nwith crlf"));
  assert_memory_equal(d, "line\r\nwith crlf", dl);
  assert_string_equal(name, "/tmp/a.txt");
  /* no "file" part, no boundary, a part never closed */
  const char none[] = "------formdata-undici-042\r\nContent-Disposition: form-data; "
                      "name=\"x\"\r\n\r\nv\r\n------formdata-undici-042--\r\n";
  assert_int_equal(hg__api_multipart_file(ct, none, sizeof none - 1, &d, &dl, name, sizeof name),
                   -ENOENT);
  assert_int_equal(hg__api_multipart_file("multipart/form-data", body, sizeof body - 1, &d, &dl,
                                          name, sizeof name), -EINVAL);
  assert_int_equal(hg__api_multipart_file(ct, body, 120, &d, &dl, name, sizeof name), -EINVAL);
}

/* files.write([{path, data}, ...]): every "file" part in order, each
 * filename an absolute path; a relative or missing one is refused. */
static void multipart_walks_every_file_part(void **state) {
  const char *ct = "multipart/form-data; boundary=XX";
  const char body[] =
      "--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"/a\"\r\n\r\n"
      "one\r\n--XX\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nskip\r\n"
      "--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"/b/c\"\r\n\r\n"
      "\r\n--XX--\r\n";
  size_t off = 0, dl = 0;
  const char *d = NULL;
  char name[64];
  assert_int_equal(
      hg__api_multipart_next(ct, body, sizeof body - 1, &off, &d, &dl, name, sizeof name),
      0);
  assert_string_equal(name, "/a");
  assert_memory_equal(d, "one", 3);
  assert_int_equal(dl, 3);
  assert_int_equal(
      hg__api_multipart_next(ct, body, sizeof body - 1, &off, &d, &dl, name, sizeof name),
      0);
  assert_string_equal(name, "/b/c");
  assert_int_equal(dl, 0);
  assert_int_equal(
      hg__api_multipart_next(ct, body, sizeof body - 1, &off, &d, &dl, name, sizeof name),
      -ENOENT);
  assert_int_equal(hg__api_envd_parts_check(ct, body, sizeof body - 1, msg), 0);
  const char rel[] =
      "--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\n"
      "v\r\n--XX--\r\n";
  assert_int_equal(hg__api_envd_parts_check(ct, rel, sizeof rel - 1, msg), -EINVAL);
  assert_non_null(strstr(msg, "absolute"));
  const char nofn[] =
      "--XX\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n"
      "v\r\n--XX--\r\n";
  assert_int_equal(hg__api_envd_parts_check(ct, nofn, sizeof nofn - 1, msg), -EINVAL);
  const char none[] = "--XX--\r\n";
  assert_int_equal(hg__api_envd_parts_check(ct, none, sizeof none - 1, msg), -EINVAL);
  assert_int_equal(hg__api_envd_parts_check(ct, body, 40, msg), -EINVAL); /* cut short */
}

static json_t *sb(const char *id, const char *state, const char *k, const char *v) {
  return json_pack("{s:s,s:s,s:{s:s}}", "sandboxID", id, "state", state, "metadata", k, v);
}

static void list_filters_and_pages(void **state) {
  json_t *all = json_array(), *page = NULL;
  json_array_append_new(all, sb("sb-3", "running", "t", "a"));
  json_array_append_new(all, sb("sb-1", "paused", "t", "a"));
  json_array_append_new(all, sb("sb-2", "running", "t", "b"));
  uint64_t next = 9;
  assert_int_equal(hg__api_e2b_list_page(all, "", "", 2, 0, &page, &next), 0);
  assert_int_equal(json_array_size(page), 2);
  assert_string_equal(json_string_value(json_object_get(json_array_get(page, 0), "sandboxID")),
                      "sb-1"); /* sorted: pages stay stable */
  assert_int_equal(next, 2);
  json_decref(page);
  assert_int_equal(hg__api_e2b_list_page(all, "", "", 2, next, &page, &next), 0);
  assert_int_equal(json_array_size(page), 1);
  assert_int_equal(next, 0); /* the last page: no X-Next-Token */
  json_decref(page);
  assert_int_equal(hg__api_e2b_list_page(all, "running", "t=a", 100, 0, &page, &next), 0);
  assert_int_equal(json_array_size(page), 1);
  assert_string_equal(json_string_value(json_object_get(json_array_get(page, 0), "sandboxID")),
                      "sb-3");
  json_decref(page);
  assert_int_equal(hg__api_e2b_list_page(all, "running,paused", "t=a&u=1", 100, 0, &page, &next), 0);
  assert_int_equal(json_array_size(page), 0);
  json_decref(page);
  json_decref(all);
}

/* The xform the routing table gives a route, on hangar's error body. */
static json_t *error_as(const char *method, const char *path, int status, int *out_status) {
  hg_match m;
  assert_int_equal(hg__api_route_find(method, path, &m), 0);
  hg_xform_fn fn = hg__api_e2b_xform_of(m.rt);
  assert_non_null(fn);
  hg_call c;
  memset(&c, 0, sizeof c);
  c.rt = m.rt;
  json_t *obj = hg__api_error_body(-ENOENT, "sb-0123456789abcdef: no such sandbox");
  char hdrs[64] = "";
  *out_status = status;
  fn(&c, out_status, &obj, hdrs, sizeof hdrs);
  return obj;
}

static void errors_have_e2b_shapes(void **state) {
  int st;
  json_t *e = error_as("GET", "/sandboxes/sb-0123456789abcdef", 404, &st);
  assert_int_equal(st, 404);
  assert_int_equal(json_integer_value(json_object_get(e, "code")), 404);
  assert_string_equal(json_string_value(json_object_get(e, "message")),
                      "sb-0123456789abcdef: no such sandbox");
  json_decref(e);
  e = error_as("DELETE", "/sandboxes/sb-0123456789abcdef", 401, &st);
  assert_int_equal(json_integer_value(json_object_get(e, "code")), 401);
  json_decref(e);
  e = error_as("GET", "/files", 404, &st); /* envd: Connect's code names */
  assert_string_equal(json_string_value(json_object_get(e, "code")), "not_found");
  json_decref(e);
  /* streams: a 200 whose end-of-stream envelope carries the error (a
   * Connect client reads any other status as its HTTP code: 404 would be
   * "unimplemented", not "not_found") */
  e = error_as("POST", "/process.Process/Start", 400, &st);
  assert_int_equal(st, 200);
  assert_string_equal(json_string_value(json_object_get(json_object_get(e, "error"), "code")),
                      "invalid_argument");
  json_decref(e);
  e = error_as("POST", "/process.Process/Connect", 404, &st);
  assert_int_equal(st, 200);
  assert_string_equal(json_string_value(json_object_get(json_object_get(e, "error"), "code")),
                      "not_found");
  json_decref(e);
  /* unary: the status, and Connect's code name in the body */
  e = error_as("POST", "/process.Process/SendSignal", 404, &st);
  assert_int_equal(st, 404);
  assert_string_equal(json_string_value(json_object_get(e, "code")), "not_found");
  json_decref(e);
  /* hangar's own routes keep hangar's shape */
  hg_match m;
  assert_int_equal(hg__api_route_find("GET", "/v1/sandboxes/sb-0123456789abcdef", &m), 0);
  assert_null(hg__api_e2b_xform_of(m.rt));
}

/* envd's process RPCs are envd routes: the sandbox named by E2b-Sandbox-Id,
 * so a node that does not own it forwards them to the owner, whose table
 * holds the pids. */
static void process_rpcs_are_routed_by_header(void **state) {
  static const char *const paths[] = {
      "/process.Process/Start", "/process.Process/Connect", "/process.Process/List",
      "/process.Process/SendSignal", "/process.Process/SendInput",
      "/process.Process/CloseStdin"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(paths); i++) {
    hg_match m;
    assert_int_equal(hg__api_route_find("POST", paths[i], &m), 0);
    assert_true(hg__api_route_envd(m.rt));
    hg_params p = {.id = "sb-0123456789abcdef"};
    assert_true(hg__api_route_names_sandbox(m.rt, &p));
  }
  hg_match m;
  assert_int_equal(hg__api_route_find("POST", "/process.Process/StreamInput", &m), -ENOENT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(create_body_maps_e2b_fields),
      cmocka_unit_test(auto_pause_decides_the_timeout),
      cmocka_unit_test(start_envelope_becomes_a_command),
      cmocka_unit_test(multipart_finds_the_file_part),
      cmocka_unit_test(multipart_walks_every_file_part),
      cmocka_unit_test(list_filters_and_pages),
      cmocka_unit_test(errors_have_e2b_shapes),
      cmocka_unit_test(process_rpcs_are_routed_by_header),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
