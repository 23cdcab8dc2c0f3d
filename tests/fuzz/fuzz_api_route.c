/* fuzz_api_route: arbitrary method + path through the API's routing table
 * (api/routes.c: hg__api_route_find and pattern matching, which extract ids from the
 * path). Input: "METHOD PATH" (the first space splits them). Checks that a
 * match only ever yields ids that validate, and that a path-shape miss
 * names the allowed methods.
 *
 *   fuzz_api_route -max_total_time=30 -max_len=4096 corpus/
 */
#include "api/api_internal.h"

#include <assert.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 8192) return 0;
  char buf[8200];
  memcpy(buf, data, size);
  buf[size] = '\0';
  if (strlen(buf) != size) return 0; /* the server never passes a NUL in a path */
  char *space = strchr(buf, ' ');
  if (!space) return 0;
  *space = '\0';
  const char *method = buf, *path = space + 1;
  hg_match m;
  int rc = hg__api_route_find(method, path, &m);
  if (rc == 0) {
    assert(m.rt && (strcmp(m.rt->method, method) == 0 || strcmp(m.rt->method, "*") == 0));
    if (strstr(m.rt->pattern, "{id}")) assert(hg_id_valid("sb", m.p.id));
    if (strstr(m.rt->pattern, "{port}")) assert(m.p.port >= 1);
    if (strstr(m.rt->pattern, "{op}")) assert(hg_id_valid("op", m.p.op));
    assert(hg__api_route_index(m.rt) < HG_NROUTES);
  } else if (rc == HG_API_EMETHOD) {
    assert(m.allow[0] != '\0');
  } else {
    assert(rc == -ENOENT);
  }
  return 0;
}
