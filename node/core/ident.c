#include "node/core/ident.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "node/core/parse.h"
#include "node/core/util.h"

bool hg_node_id_valid(const char *id) {
  size_t n = id ? strlen(id) : 0;
  if (n == 0 || n >= HG_NODE_ID_MAX) return false;
  for (size_t i = 0; i < n; i++) {
    char ch = id[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-'))
      return false;
  }
  return true;
}

static bool port_valid(const char *p) {
  uint64_t v;
  size_t n = strlen(p);
  return n <= 5 && hg_parse_uint_n(p, n, 65535, &v) == 0 && v >= 1;
}

bool hg_addr_valid(const char *addr) {
  size_t n = addr ? strlen(addr) : 0;
  if (n < 3 || n >= HG_ADDR_MAX) return false;
  const char *colon;
  if (addr[0] == '[') { /* [v6]:port */
    const char *close = strchr(addr, ']');
    if (!close || close == addr + 1 || close[1] != ':') return false;
    for (const char *p = addr + 1; p < close; p++)
      if (!strchr("0123456789abcdefABCDEF:.", *p)) return false;
    colon = close + 1;
  } else {
    colon = strrchr(addr, ':');
    if (!colon || colon == addr) return false;
    for (const char *p = addr; p < colon; p++)
      if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || *p == '.' || *p == '-'))
        return false;
  }
  return port_valid(colon + 1);
}

bool hg_name_valid(const char *name, size_t max) {
  size_t n = name ? strnlen(name, max) : 0;
  if (n == 0 || n >= max) return false;
  if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) return false;
  for (size_t i = 0; i < n; i++) {
    char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          c == '.' || c == '_' || c == '-'))
      return false;
  }
  return true;
}

/* 1*DIGIT without a leading zero, in [1, max]. */
static bool positive_decimal(const char *s, size_t n, uint64_t max, uint64_t *out) {
  return n > 0 && s[0] != '0' && hg_parse_uint_n(s, n, max, out) == 0;
}

int hg_orphan_name_split(const char *name, char *id, uint64_t *epoch) {
  size_t n = name ? strnlen(name, HG_ORPHAN_NAME_MAX) : 0;
  const char *slash = n < HG_ORPHAN_NAME_MAX ? memchr(name, '/', n) : NULL;
  if (!slash || (size_t)(slash - name) >= HG_ID_MAX) return -EINVAL;
  char sb[HG_ID_MAX];
  memcpy(sb, name, (size_t)(slash - name));
  sb[slash - name] = '\0';
  const char *e = slash + 1, *dot = strchr(e, '.');
  size_t elen = dot ? (size_t)(dot - e) : strlen(e);
  uint64_t v, dup;
  if (!hg_id_valid("sb", sb) || !positive_decimal(e, elen, UINT64_MAX, &v)) return -EINVAL;
  if (dot && !positive_decimal(dot + 1, strlen(dot + 1), HG_ORPHAN_DUP_MAX, &dup))
    return -EINVAL;
  memcpy(id, sb, (size_t)(slash - name) + 1);
  *epoch = v;
  return 0;
}

bool hg_orphan_name_valid(const char *name) {
  char id[HG_ORPHAN_NAME_MAX];
  uint64_t epoch;
  return hg_orphan_name_split(name, id, &epoch) == 0;
}
