#include "node/core/ident.h"

#include <stdint.h>
#include <string.h>

#include "node/core/parse.h"

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
