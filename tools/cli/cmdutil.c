/* cmdutil: what the commands share (see cmdutil.h). */
#include "tools/cli/cmdutil.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "node/core/util.h"

int hg_cmd_exit(int rc) {
  if (rc == 0) return HG_CLI_EXIT_OK;
  return rc == -EINVAL ? HG_CLI_EXIT_USAGE : HG_CLI_EXIT_ERROR;
}

int hg_cmd_write_all(int fd, const void *data, size_t len) {
  const char *p = data;
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) { /* someone made the fd non-blocking */
      struct pollfd pfd = {.fd = fd, .events = POLLOUT};
      poll(&pfd, 1, -1);
      continue;
    }
    if (n < 0) return -errno;
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

static void copy_id(char out[HG_CLI_ID_MAX], const char *id) {
  snprintf(out, HG_CLI_ID_MAX, "%s", id);
}

static bool id_matches(const char *id, const char *typed) {
  size_t n = strlen(typed);
  if (strncmp(id, typed, n) == 0) return true;
  return strncmp(id, "sb-", 3) == 0 && strncmp(id + 3, typed, n) == 0;
}

static void print_ambiguous(const char *typed, const json_t *list) {
  fprintf(stderr, "hangar: '%s' matches more than one sandbox:", typed);
  size_t i, shown = 0;
  json_t *sb;
  json_array_foreach(list, i, sb) {
    const char *id = hg_json_str(sb, "id");
    if (id && id_matches(id, typed) && shown++ < 5) fprintf(stderr, " %s", id);
  }
  fprintf(stderr, "%s\n", shown > 5 ? " …" : "");
}

int hg_cmd_sandbox_id(hg_client *c, const char *arg, char out[HG_CLI_ID_MAX]) {
  if (!hg_cli_id_ok(arg)) {
    fprintf(stderr, "hangar: '%s' is not a sandbox id\n", arg);
    return -EINVAL;
  }
  if (hg_id_valid("sb", arg)) {
    copy_id(out, arg);
    return 0;
  }
  /* Short prefixes are what people type. A key that may not list (a
   * sandbox token) gets the id passed on as typed. */
  long status;
  json_t *j = NULL;
  int rc = hg_client_try_json(c, "GET", "/v1/sandboxes", NULL, &status, &j);
  if (rc < 0) return rc;
  const json_t *list = json_object_get(j, "sandboxes");
  const char *found = NULL;
  size_t i, hits = 0;
  json_t *sb;
  json_array_foreach(list, i, sb) {
    const char *id = hg_json_str(sb, "id");
    if (id && hg_cli_id_ok(id) && id_matches(id, arg) && hits++ == 0) found = id;
  }
  if (hits > 1) {
    print_ambiguous(arg, list);
    rc = -EINVAL;
  } else {
    copy_id(out, hits == 1 ? found : arg);
  }
  json_decref(j);
  return rc;
}

int hg_cmd_sandbox_get(hg_client *c, const char *arg, const char *suffix, json_t **out) {
  char id[HG_CLI_ID_MAX], path[160];
  int rc = hg_cmd_sandbox_id(c, arg, id);
  if (rc == 0) rc = hg_path(path, sizeof path, "/v1/sandboxes/%s%s", id, suffix);
  if (rc == 0) rc = hg_client_json(c, "GET", path, NULL, out);
  return rc;
}

json_t *hg_cmd_kv_object(const char *const *kvs, size_t n) {
  json_t *o = json_object();
  for (size_t i = 0; o && i < n; i++) {
    char key[256];
    const char *val;
    if (hg_cli_split_kv(kvs[i], key, sizeof key, &val) < 0 ||
        json_object_set_new(o, key, json_string(val)) < 0) {
      fprintf(stderr, "hangar: '%s' is not KEY=VALUE in UTF-8\n", kvs[i]);
      json_decref(o);
      o = NULL;
    }
  }
  return o;
}
