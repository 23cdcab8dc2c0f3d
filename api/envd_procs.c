/* envd's processes (E2B's process.Process service): the table from the pid
 * E2B's clients name a command by to hangar's own command id, filled by
 * Start, read by Connect, List, SendSignal, SendInput and CloseStdin; and
 * the decoders of their requests. Pure: no loop, no agent (unit-tested in
 * test_envd_procs, fuzzed in fuzz_envd_body). The table lives on the loop
 * thread of the node that owns the sandbox. */
#include "api/api_internal.h"

/* ---- the table: bounded in entries and in the bytes of their configs -------- */

int hg__envd_procs_init(hg_envd_procs *t, int cap, size_t max_bytes) {
  memset(t, 0, sizeof *t);
  t->v = calloc((size_t)cap, sizeof *t->v);
  if (!t->v) return -ENOMEM;
  t->cap = cap;
  t->max_bytes = max_bytes;
  return 0;
}

static void slot_clear(hg_envd_procs *t, hg_envd_proc *e) {
  if (!e->seq) return;
  t->bytes -= strlen(e->config);
  free(e->config);
  memset(e, 0, sizeof *e);
  t->n--;
}

void hg__envd_procs_free(hg_envd_procs *t) {
  for (int i = 0; t->v && i < t->cap; i++) slot_clear(t, &t->v[i]);
  free(t->v);
  memset(t, 0, sizeof *t);
}

static hg_envd_proc *oldest(hg_envd_procs *t) {
  hg_envd_proc *o = NULL;
  for (int i = 0; i < t->cap; i++)
    if (t->v[i].seq && (!o || t->v[i].seq < o->seq)) o = &t->v[i];
  return o;
}

hg_envd_proc *hg__envd_procs_find(hg_envd_procs *t, const char *sandbox, uint32_t pid,
                                  const char *tag) {
  hg_envd_proc *best = NULL;
  for (int i = 0; i < t->cap; i++) {
    hg_envd_proc *e = &t->v[i];
    if (!e->seq || strcmp(e->sandbox, sandbox)) continue;
    if (pid ? e->pid != pid : !tag || !e->tag[0] || strcmp(e->tag, tag)) continue;
    if (!best || e->seq > best->seq) best = e; /* a tag: its newest command */
  }
  return best;
}

/* config: compact JSON, copied. A pid the sandbox reused replaces its old
 * entry; past the bounds the oldest entries go (their commands can still
 * be reached through hangar's own API, not by their E2B pid). */
int hg__envd_procs_put(hg_envd_procs *t, const char *sandbox, uint32_t pid, uint64_t cid,
                       const char *tag, const char *config) {
  size_t len = strlen(config);
  if (strlen(sandbox) >= HG_ID_MAX || (tag && strlen(tag) >= HG_ENVD_TAG_MAX) ||
      len > t->max_bytes || pid == 0)
    return -EINVAL;
  char *copy = strdup(config);
  if (!copy) return -ENOMEM;
  hg_envd_proc *e = hg__envd_procs_find(t, sandbox, pid, NULL);
  if (e) slot_clear(t, e);
  while (t->n >= t->cap || t->bytes + len > t->max_bytes) slot_clear(t, oldest(t));
  e = t->v;
  while (e->seq) e++; /* n < cap: there is a free slot */
  snprintf(e->sandbox, sizeof e->sandbox, "%s", sandbox);
  snprintf(e->tag, sizeof e->tag, "%s", tag ? tag : "");
  e->pid = pid;
  e->cid = cid;
  e->config = copy;
  e->seq = ++t->seq;
  t->bytes += len;
  t->n++;
  return 0;
}

void hg__envd_procs_drop(hg_envd_procs *t, const char *sandbox, uint32_t pid) {
  hg_envd_proc *e = hg__envd_procs_find(t, sandbox, pid, NULL);
  if (e) slot_clear(t, e);
}

void hg__envd_procs_forget_sandbox(hg_envd_procs *t, const char *sandbox) {
  for (int i = 0; t->v && i < t->cap; i++)
    if (t->v[i].seq && !strcmp(t->v[i].sandbox, sandbox)) slot_clear(t, &t->v[i]);
}

/* ---- request decoders ------------------------------------------------------------- */

/* One Connect envelope (u8 flags, u32 big-endian length, JSON): its JSON. */
int hg__api_envd_envelope(const char *body, size_t len, json_t **out, char *msg) {
  const unsigned char *b = (const unsigned char *)body;
  if (len < 5) return hg__api_bad(msg, "not a Connect envelope");
  if (b[0] & 0x01) return hg__api_bad(msg, "compressed envelopes are not supported");
  uint32_t n = (uint32_t)b[1] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 8 | b[4];
  if (n != len - 5) return hg__api_bad(msg, "envelope length %u, body has %zu", n, len - 5);
  return hg__api_body_parse(body + 5, n, out, msg);
}

/* {"process": {"pid": N} | {"tag": "t"}} (proto3 JSON: pid a number or a
 * decimal string). */
int hg__api_envd_selector(const json_t *req, uint32_t *pid, char tag[HG_ENVD_TAG_MAX],
                          char *msg) {
  const json_t *p = json_object_get(req, "process");
  const json_t *jp = json_object_get(p, "pid"), *jt = json_object_get(p, "tag");
  if (!json_is_object(p) || (!jp && !jt))
    return hg__api_bad(msg, "field \"process\": {\"pid\"} or {\"tag\"} required");
  tag[0] = '\0';
  *pid = 0;
  if (jp) {
    uint64_t v = 0;
    const char *s = json_string_value(jp);
    if (json_is_integer(jp) && json_integer_value(jp) > 0 &&
        json_integer_value(jp) <= UINT32_MAX)
      v = (uint64_t)json_integer_value(jp);
    else if (s && hg_parse_uint_n(s, strlen(s), UINT32_MAX, &v) < 0)
      v = 0;
    if (v == 0) return hg__api_bad(msg, "field \"process.pid\": a pid from 1 to 4294967295");
    *pid = (uint32_t)v;
    return 0;
  }
  const char *t = json_string_value(jt);
  if (!t || !*t || strlen(t) >= HG_ENVD_TAG_MAX)
    return hg__api_bad(msg, "field \"process.tag\": a string of 1 to %d bytes",
                       HG_ENVD_TAG_MAX - 1);
  memcpy(tag, t, strlen(t) + 1);
  return 0;
}

/* SendSignal's "signal": E2B's enum, by name or number (SIGTERM, SIGKILL). */
int hg__api_envd_signal(const json_t *req, int *sig, char *msg) {
  const json_t *s = json_object_get(req, "signal");
  const char *name = json_string_value(s);
  int v = json_is_integer(s) ? (int)json_integer_value(s) : 0;
  if (name && !strcmp(name, "SIGNAL_SIGKILL")) v = 9;
  if (name && !strcmp(name, "SIGNAL_SIGTERM")) v = 15;
  if (v != 9 && v != 15)
    return hg__api_bad(msg, "field \"signal\": SIGNAL_SIGTERM or SIGNAL_SIGKILL");
  *sig = v;
  return 0;
}

static int b64_value(unsigned char ch) {
  if (ch >= 'A' && ch <= 'Z') return ch - 'A';
  if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
  if (ch >= '0' && ch <= '9') return ch - '0' + 52;
  if (ch == '+' || ch == '-') return 62; /* proto3 JSON takes both alphabets */
  if (ch == '/' || ch == '_') return 63;
  return -1;
}

/* Standard or URL-safe base64, padded or not, into out (appended). */
int hg__api_base64_decode(const char *s, size_t n, hg_buf *out) {
  while (n && s[n - 1] == '=') n--;
  if (n % 4 == 1) return -EINVAL;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; i++) {
    int v = b64_value((unsigned char)s[i]);
    if (v < 0) return -EINVAL;
    acc = acc << 6 | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      unsigned char byte = (unsigned char)(acc >> bits);
      int rc = hg_buf_append(out, &byte, 1);
      if (rc < 0) return rc;
    }
  }
  return 0;
}

/* SendInput's {"input": {"stdin": "<base64>"}} ("pty" too: hangar's
 * commands have no terminal, the bytes go to stdin alike). */
int hg__api_envd_input(const json_t *req, hg_buf *out, char *msg) {
  const json_t *in = json_object_get(req, "input");
  const json_t *d = json_object_get(in, "stdin");
  if (!d) d = json_object_get(in, "pty");
  if (!json_is_string(d))
    return hg__api_bad(msg, "field \"input\": {\"stdin\": \"<base64>\"} required");
  int rc = hg__api_base64_decode(json_string_value(d), json_string_length(d), out);
  if (rc == -EINVAL) return hg__api_bad(msg, "field \"input.stdin\": not base64");
  return rc;
}
