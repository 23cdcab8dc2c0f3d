/* checkpoint: interval check, retention plan and the generation's record
 * (see checkpoint.h). */
#include "node/checkpoint.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node/core/util.h"

#define CKPT_JSON_MAX (1024 * 1024) /* a sandbox.json; the manager's own bound */

int hg_ckpt_interval_check(int64_t s, char msg[128]) {
  if (s == 0 || (s >= HG_CKPT_MIN_S && s <= HG_CKPT_MAX_S)) return 0;
  snprintf(msg, 128, "must be 0 (off) or %d to %d seconds, not %" PRId64,
           HG_CKPT_MIN_S, HG_CKPT_MAX_S, s);
  return -EINVAL;
}

static bool pinned_has(const uint64_t *pinned, size_t n, uint64_t gen) {
  for (size_t i = 0; i < n; i++)
    if (pinned[i] == gen) return true;
  return false;
}

size_t hg_gen_retain_plan(const hg_gen_ref *gens, size_t n, unsigned keep,
                          const uint64_t *pinned, size_t npinned, uint64_t *drop,
                          size_t cap) {
  if (keep == 0) keep = 1;
  size_t out = 0;
  for (size_t i = 0; i < n && out < cap; i++) {
    if (!gens[i].checkpoint || pinned_has(pinned, npinned, gens[i].gen)) continue;
    /* Newer checkpoints than this one: it goes when keep of them exist. */
    unsigned newer = 0;
    for (size_t k = 0; k < n; k++)
      if (gens[k].checkpoint && gens[k].gen > gens[i].gen) newer++;
    if (newer >= keep) drop[out++] = gens[i].gen;
  }
  return out;
}

/* The record's entry for its own generation says how it was taken. */
static bool entry_running(json_t *j, uint64_t gen) {
  json_t *gens = json_object_get(j, "generations"), *g;
  size_t i;
  json_array_foreach(gens, i, g) {
    json_t *n = json_object_get(g, "gen");
    if (json_is_integer(n) && (uint64_t)json_integer_value(n) == gen)
      return json_is_true(json_object_get(g, "running"));
  }
  return false;
}

int hg_sandbox_gen_running(hg_store *store, const char *gen_rel, bool *running) {
  char path[4096], *text = NULL;
  size_t len = 0;
  int rc = hg_store_abs(store, gen_rel, path, sizeof path);
  if (rc == 0 && !hg_store_is_subvol(store, gen_rel)) rc = -ENOENT;
  if (rc == 0) rc = hg_path(path + strlen(path), sizeof path - strlen(path), "/sandbox.json");
  if (rc == 0) rc = hg_read_file(path, CKPT_JSON_MAX, &text, &len);
  if (rc < 0) return rc == -EFBIG ? -EPROTO : rc;
  json_t *j = json_loadb(text, len, 0, NULL);
  free(text);
  json_t *gen = json_object_get(j, "gen"), *state = json_object_get(j, "state");
  if (!json_is_integer(gen) || json_integer_value(gen) < 1 || !json_is_string(state)) {
    json_decref(j);
    return -EPROTO;
  }
  *running = !strcmp(json_string_value(state), "running") &&
             entry_running(j, (uint64_t)json_integer_value(gen));
  json_decref(j);
  return 0;
}
