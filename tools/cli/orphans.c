/* orphans: list and delete a node's orphans (see orphans.h). A name goes
 * into the URL path as it is, slash included, so it is checked here with
 * the server's own grammar first (hg_orphan_name_valid): a typo is a
 * usage error, not a request. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "node/core/ident.h"
#include "node/core/util.h"
#include "tools/cli/cmdutil.h"
#include "tools/cli/orphans.h"
#include "tools/cli/table.h"

int hg_orphans_render(const json_t *answer, hg_buf *out) {
  const char *const head[] = {"NAME", "WAS", "TEMPLATE", "AGE", "REASON"};
  hg_table *t = hg_table_new(HG_ARRAY_SIZE(head), head);
  if (!t) return -ENOMEM;
  hg_table_right(t, 3);
  const json_t *list = json_object_get(answer, "orphans"), *o;
  size_t i;
  int rc = 0;
  json_array_foreach(list, i, o) {
    char age[32];
    int64_t at = hg_json_time_ms(o, "orphaned_at");
    hg_cli_fmt_age(at < 0 ? -1 : (hg_wall_ns() / 1000000 - at) / 1000, age, sizeof age);
    const char *row[] = {hg_json_str(o, "name"), hg_json_str(o, "state"),
                         hg_json_str(o, "template"), age, hg_json_str(o, "reason")};
    if ((rc = hg_table_add(t, row)) < 0) break;
  }
  if (rc == 0) rc = hg_table_render(t, out);
  hg_table_free(t);
  return rc;
}

static int orphans_list(hg_client *c) {
  json_t *j = NULL;
  int rc = hg_client_json(c, "GET", "/v1/orphans", NULL, &j);
  if (rc == 0 && c->json) {
    rc = hg_json_print(j);
  } else if (rc == 0 && json_array_size(json_object_get(j, "orphans")) == 0) {
    fprintf(stderr, "no orphans on this node\n");
  } else if (rc == 0) {
    hg_buf b;
    hg_buf_init(&b, 64u << 20);
    rc = hg_orphans_render(j, &b);
    if (rc == 0 && b.len && fwrite(b.data, 1, b.len, stdout) != b.len) rc = -EIO;
    if (rc < 0) fprintf(stderr, "hangar: cannot print the table: %s\n", strerror(-rc));
    hg_buf_free(&b);
  }
  json_decref(j);
  return rc;
}

/* Every name is checked before the first one is deleted. */
static int orphans_rm(hg_client *c, char **names, int n) {
  if (n == 0) {
    fprintf(stderr, "hangar: orphans rm: which? (NAME as `hangar orphans` lists it)\n");
    return -EINVAL;
  }
  for (int i = 0; i < n; i++)
    if (!hg_orphan_name_valid(names[i])) {
      fprintf(
          stderr,
          "hangar: orphans rm: not an orphan name (want <sandbox id>/<epoch>[.<n>]): ");
      char shown[HG_ORPHAN_NAME_MAX + 8];
      snprintf(shown, sizeof shown, "%s", names[i]);
      hg_cli_sanitize(shown);
      fprintf(stderr, "%s\n", shown);
      return -EINVAL;
    }
  int rc = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    char path[sizeof "/v1/orphans/" + HG_ORPHAN_NAME_MAX];
    snprintf(path, sizeof path, "/v1/orphans/%s", names[i]);
    rc = hg_client_json(c, "DELETE", path, NULL, NULL);
    if (rc == 0) printf("%s\n", names[i]);
  }
  return rc;
}

int hg_cmd_orphans(hg_client *c, const hg_cli_args *a) {
  int rc;
  if (a->n_args == 0) {
    rc = orphans_list(c);
  } else if (strcmp(a->args[0], "rm") == 0 || strcmp(a->args[0], "delete") == 0) {
    rc = orphans_rm(c, a->args + 1, a->n_args - 1);
  } else {
    fprintf(stderr,
            "hangar: orphans: unknown subcommand (want: hangar orphans [rm NAME...])\n");
    rc = -EINVAL;
  }
  return hg_cmd_exit(rc);
}
