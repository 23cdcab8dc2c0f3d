/* sendstream: the btrfs send stream checker (see sendstream.h). */
#include "replication/sendstream.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SS_MAGIC "btrfs-stream"
#define SS_HEADER 17  /* magic with its NUL, u32 version */
#define SS_CMD_HDR 10 /* u32 len, u16 cmd, u32 crc */
#define SS_VERSION 1
#define SS_TLV_HDR 4   /* u16 type, u16 len */
#define SS_TIMESPEC 12 /* le64 sec, le32 nsec */

/* kernel fs/btrfs/send.h, version 1 */
enum {
  C_SUBVOL = 1,
  C_SNAPSHOT,
  C_MKFILE,
  C_MKDIR,
  C_MKNOD,
  C_MKFIFO,
  C_MKSOCK,
  C_SYMLINK,
  C_RENAME,
  C_LINK,
  C_UNLINK,
  C_RMDIR,
  C_SET_XATTR,
  C_REMOVE_XATTR,
  C_WRITE,
  C_CLONE,
  C_TRUNCATE,
  C_CHMOD,
  C_CHOWN,
  C_UTIMES,
  C_END,
  C_UPDATE_EXTENT,
  C_MAX = C_UPDATE_EXTENT
};
enum {
  A_UUID = 1,
  A_CTRANSID,
  A_INO,
  A_SIZE,
  A_MODE,
  A_UID,
  A_GID,
  A_RDEV,
  A_CTIME,
  A_MTIME,
  A_ATIME,
  A_OTIME,
  A_XATTR_NAME,
  A_XATTR_DATA,
  A_PATH,
  A_PATH_TO,
  A_PATH_LINK,
  A_FILE_OFFSET,
  A_DATA,
  A_CLONE_UUID,
  A_CLONE_CTRANSID,
  A_CLONE_PATH,
  A_CLONE_OFFSET,
  A_CLONE_LEN,
  A_MAX = A_CLONE_LEN
};

/* What btrfs receive reads of each command (btrfs-progs
 * common/send-stream.c), with the size it insists on (0: any). */
typedef struct need {
  uint8_t attr, size;
} need;
#define U64 8
#define UUID HG_SENDSTREAM_UUID
#define TS SS_TIMESPEC
static const need needs[C_MAX + 1][8] = {
    [C_SUBVOL] = {{A_PATH, 0}, {A_UUID, UUID}, {A_CTRANSID, U64}},
    [C_SNAPSHOT] = {{A_PATH, 0},
                    {A_UUID, UUID},
                    {A_CTRANSID, U64},
                    {A_CLONE_UUID, UUID},
                    {A_CLONE_CTRANSID, U64}},
    [C_MKFILE] = {{A_PATH, 0}, {A_INO, U64}},
    [C_MKDIR] = {{A_PATH, 0}, {A_INO, U64}},
    [C_MKNOD] = {{A_PATH, 0}, {A_INO, U64}, {A_MODE, U64}, {A_RDEV, U64}},
    [C_MKFIFO] = {{A_PATH, 0}, {A_INO, U64}},
    [C_MKSOCK] = {{A_PATH, 0}, {A_INO, U64}},
    [C_SYMLINK] = {{A_PATH, 0}, {A_INO, U64}, {A_PATH_LINK, 0}},
    [C_RENAME] = {{A_PATH, 0}, {A_PATH_TO, 0}},
    [C_LINK] = {{A_PATH, 0}, {A_PATH_LINK, 0}},
    [C_UNLINK] = {{A_PATH, 0}},
    [C_RMDIR] = {{A_PATH, 0}},
    [C_SET_XATTR] = {{A_PATH, 0}, {A_XATTR_NAME, 0}, {A_XATTR_DATA, 0}},
    [C_REMOVE_XATTR] = {{A_PATH, 0}, {A_XATTR_NAME, 0}},
    [C_WRITE] = {{A_PATH, 0}, {A_FILE_OFFSET, U64}, {A_DATA, 0}},
    [C_CLONE] = {{A_PATH, 0},
                 {A_FILE_OFFSET, U64},
                 {A_CLONE_LEN, U64},
                 {A_CLONE_UUID, UUID},
                 {A_CLONE_CTRANSID, U64},
                 {A_CLONE_PATH, 0},
                 {A_CLONE_OFFSET, U64}},
    [C_TRUNCATE] = {{A_PATH, 0}, {A_SIZE, U64}},
    [C_CHMOD] = {{A_PATH, 0}, {A_MODE, U64}},
    [C_CHOWN] = {{A_PATH, 0}, {A_UID, U64}, {A_GID, U64}},
    [C_UTIMES] = {{A_PATH, 0}, {A_ATIME, TS}, {A_MTIME, TS}, {A_CTIME, TS}},
    [C_END] = {{0, 0}},
    [C_UPDATE_EXTENT] = {{A_PATH, 0}, {A_FILE_OFFSET, U64}, {A_SIZE, U64}},
};
static const char *const cmd_names[C_MAX + 1] = {
    "UNSPEC", "SUBVOL",    "SNAPSHOT",     "MKFILE", "MKDIR",        "MKNOD",
    "MKFIFO", "MKSOCK",    "SYMLINK",      "RENAME", "LINK",         "UNLINK",
    "RMDIR",  "SET_XATTR", "REMOVE_XATTR", "WRITE",  "CLONE",        "TRUNCATE",
    "CHMOD",  "CHOWN",     "UTIMES",       "END",    "UPDATE_EXTENT"};

/* One command's attributes, pointing into the command buffer. */
typedef struct attr {
  const uint8_t *p;
  uint16_t len;
  bool set;
} attr;

typedef struct cmd {
  int code;
  const char *name;
  attr a[A_MAX + 1];
} cmd;

/* A tracked path: a symlink the stream made, or a dir holding some. */
typedef struct tracked {
  hg_strmap_node node;
  size_t refs; /* dirs: symlinks below */
  char key[];
} tracked;

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p) {
  return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

__attribute__((format(printf, 2, 3))) static int bad(hg_sendstream_check *c,
                                                     const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, sizeof c->err, fmt, ap);
  va_end(ap);
  return -EPROTO;
}

/* Stream bytes end up in err, and err in logs and JSON: printable only. */
static void printable(const attr *a, char *out, size_t cap) {
  size_t w = 0;
  for (size_t i = 0; i < a->len && w + 4 < cap; i++) {
    unsigned char ch = a->p[i];
    out[w++] =
        ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\'' && ch != '\\' ? (char)ch : '?';
  }
  if (a->len > 0 && w + 4 >= cap) out[w++] = '.', out[w++] = '.', out[w++] = '.';
  out[w] = '\0';
}

static int parse_uuid(const char *s, uint8_t out[HG_SENDSTREAM_UUID]) {
  size_t n = 0;
  for (const char *p = s; *p; p++) {
    if (*p == '-') continue;
    int hi = *p, lo = p[1];
    if (!lo || n == HG_SENDSTREAM_UUID) return -EINVAL;
    int v = 0;
    for (int k = 0; k < 2; k++) {
      int ch = k ? lo : hi;
      int d = ch >= '0' && ch <= '9'   ? ch - '0'
              : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
              : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                       : -1;
      if (d < 0) return -EINVAL;
      v = v << 4 | d;
    }
    out[n++] = (uint8_t)v;
    p++;
  }
  return n == HG_SENDSTREAM_UUID ? 0 : -EINVAL;
}

int hg_sendstream_check_init(hg_sendstream_check *c, const hg_sendstream_policy *policy,
                             hg_sendstream_emit_fn emit, void *ud) {
  memset(c, 0, sizeof *c);
  c->emit = emit;
  c->ud = ud;
  if (!policy) return 0;
  if (policy->name &&
      snprintf(c->name, sizeof c->name, "%s", policy->name) >= (int)sizeof c->name)
    return -EINVAL;
  if (policy->uuid) {
    if (parse_uuid(policy->uuid, c->uuid) < 0) return -EINVAL;
    c->want_uuid = true;
  }
  if (policy->parent_uuid) {
    if (parse_uuid(policy->parent_uuid, c->parent) < 0) return -EINVAL;
    c->have_parent = true;
  }
  return 0;
}

void hg_sendstream_check_free(hg_sendstream_check *c) {
  hg_strmap_free_all(&c->links, offsetof(tracked, node));
  hg_strmap_free_all(&c->dirs, offsetof(tracked, node));
  c->track_bytes = 0;
}

/* ---- symlinks the stream made ------------------------------------------- */

static tracked *track_get(const hg_strmap *m, const char *key) {
  hg_strmap_node *n = hg_strmap_get(m, key);
  return n ? HG_CONTAINER_OF(n, tracked, node) : NULL;
}

static int track_put(hg_sendstream_check *c, hg_strmap *m, const char *key,
                     tracked **out) {
  size_t len = strlen(key);
  if (c->track_bytes + len + sizeof(tracked) > HG_SENDSTREAM_TRACK_BYTES)
    return bad(c, "too many symlinks to follow (%zu bytes of paths)", c->track_bytes);
  tracked *t = calloc(1, sizeof *t + len + 1);
  if (!t) return -ENOMEM;
  memcpy(t->key, key, len + 1);
  t->node.key = t->key;
  int rc = hg_strmap_put(m, &t->node);
  if (rc < 0) {
    free(t);
    return rc;
  }
  c->track_bytes += len + sizeof(tracked);
  *out = t;
  return 0;
}

static void track_del(hg_sendstream_check *c, hg_strmap *m, tracked *t) {
  hg_strmap_del(m, &t->node);
  c->track_bytes -= strlen(t->key) + sizeof(tracked);
  free(t);
}

/* Counts path's parent dirs up (+1) or down (-1). */
static int dirs_count(hg_sendstream_check *c, char *path, int delta) {
  for (char *s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
    *s = '\0';
    tracked *d = track_get(&c->dirs, path);
    int rc = 0;
    if (!d && delta > 0) rc = track_put(c, &c->dirs, path, &d);
    *s = '/';
    if (rc < 0) return rc;
    if (!d) continue;
    if (delta > 0) {
      d->refs++;
    } else if (--d->refs == 0) {
      track_del(c, &c->dirs, d);
    }
  }
  return 0;
}

static int link_add(hg_sendstream_check *c, const char *path) {
  char copy[PATH_MAX];
  tracked *t;
  if (track_get(&c->links, path)) return 0;
  if (c->links.count >= HG_SENDSTREAM_MAX_LINKS)
    return bad(c, "more than %u symlinks", HG_SENDSTREAM_MAX_LINKS);
  int rc = track_put(c, &c->links, path, &t);
  snprintf(copy, sizeof copy, "%s", path);
  if (rc == 0) rc = dirs_count(c, copy, +1);
  return rc;
}

static void link_del(hg_sendstream_check *c, tracked *t) {
  char copy[PATH_MAX];
  snprintf(copy, sizeof copy, "%s", t->key);
  (void)dirs_count(c, copy, -1);
  track_del(c, &c->links, t);
}

/* path (of an attribute, checked) goes through a symlink the stream made:
 * true, and hit names it. */
static bool through_link(hg_sendstream_check *c, const char *path, char hit[PATH_MAX]) {
  if (c->links.count == 0) return false;
  snprintf(hit, PATH_MAX, "%s", path);
  for (char *s = strchr(hit, '/'); s; s = strchr(s + 1, '/')) {
    *s = '\0';
    if (track_get(&c->links, hit)) return true;
    *s = '/';
  }
  return false;
}

/* A checked path, made printable for err (it may hold control bytes). */
static const char *show(const char *path, char out[96]) {
  attr a = {(const uint8_t *)path, (uint16_t)strnlen(path, PATH_MAX), true};
  printable(&a, out, 96);
  return out;
}

/* RENAME from -> to: the symlinks at or below from move with it. */
static int links_rename(hg_sendstream_check *c, const char *from, const char *to) {
  tracked *t = track_get(&c->links, to);
  if (t) link_del(c, t); /* replaced */
  char shown[96];
  if (track_get(&c->dirs, to))
    return bad(c, "RENAME over %s, a dir holding symlinks", show(to, shown));
  int rc = 0;
  if ((t = track_get(&c->links, from))) {
    link_del(c, t);
    rc = link_add(c, to);
  }
  if (rc < 0 || !track_get(&c->dirs, from)) return rc;
  /* A dir holding symlinks: collect their new names, then move them (no
   * put while iterating). */
  size_t flen = strlen(from), n = 0, cursor = 0;
  char **moved = calloc(c->links.count, sizeof *moved);
  if (!moved) return -ENOMEM;
  for (hg_strmap_node *p = hg_strmap_next(&c->links, &cursor, NULL); p;
       p = hg_strmap_next(&c->links, &cursor, p)) {
    if (strncmp(p->key, from, flen) != 0 || p->key[flen] != '/') continue;
    char next[PATH_MAX];
    if (snprintf(next, sizeof next, "%s%s", to, p->key + flen) >= (int)sizeof next) {
      rc = -ENAMETOOLONG;
      break;
    }
    /* "old\0new\0" */
    size_t olen = strlen(p->key) + 1, nlen = strlen(next) + 1;
    if (!(moved[n] = malloc(olen + nlen))) {
      rc = -ENOMEM;
      break;
    }
    memcpy(moved[n], p->key, olen);
    memcpy(moved[n] + olen, next, nlen);
    n++;
  }
  for (size_t i = 0; i < n; i++) {
    if (rc == 0 && (t = track_get(&c->links, moved[i]))) link_del(c, t);
    if (rc == 0) rc = link_add(c, moved[i] + strlen(moved[i]) + 1);
    free(moved[i]);
  }
  free(moved);
  if (rc == -ENAMETOOLONG)
    rc = bad(c, "RENAME %s: a symlink's path grows too long", show(from, shown));
  return rc;
}

/* ---- one command ------------------------------------------------------- */

/* A path inside the subvolume: relative, every component a real name. */
static int path_ok(hg_sendstream_check *c, const cmd *k, int which, bool empty_ok,
                   char out[PATH_MAX]) {
  const attr *a = &k->a[which];
  char shown[96];
  static const char *const what[A_MAX + 1] = {[A_PATH] = "path",
                                              [A_PATH_TO] = "target",
                                              [A_PATH_LINK] = "link path",
                                              [A_CLONE_PATH] = "clone source path"};
  printable(a, shown, sizeof shown);
  if (a->len >= PATH_MAX) return bad(c, "%s %s too long", k->name, what[which]);
  if (memchr(a->p, '\0', a->len))
    return bad(c, "%s %s '%s' holds a NUL byte", k->name, what[which], shown);
  memcpy(out, a->p, a->len);
  out[a->len] = '\0';
  if (a->len == 0)
    return empty_ok ? 0 : bad(c, "%s with an empty %s", k->name, what[which]);
  if (out[0] == '/') return bad(c, "%s %s '%s' is absolute", k->name, what[which], shown);
  for (const char *s = out;;) {
    const char *e = strchr(s, '/');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
      return bad(c, "%s %s '%s' has a%s component", k->name, what[which], shown,
                 n == 0   ? "n empty"
                 : n == 1 ? " '.'"
                          : " '..'");
    if (!e) break;
    s = e + 1;
  }
  return 0;
}

static int not_through_link(hg_sendstream_check *c, const cmd *k, const char *path,
                            bool follows) {
  char via[PATH_MAX], a[96], b[96];
  if (through_link(c, path, via))
    return bad(c, "%s %s goes through symlink %s made by the stream", k->name,
               show(path, a), show(via, b));
  if (follows && track_get(&c->links, path))
    return bad(c, "%s on %s would follow the symlink the stream made there", k->name,
               show(path, a));
  return 0;
}

static void uuid_text(const uint8_t *u, char out[37]) {
  static const int dash[] = {4, 6, 8, 10};
  size_t w = 0;
  for (int i = 0, d = 0; i < HG_SENDSTREAM_UUID; i++) {
    if (d < 4 && i == dash[d]) out[w++] = '-', d++;
    w += (size_t)snprintf(out + w, 3, "%02x", u[i]);
  }
  out[w] = '\0';
}

static int subvol_begin(hg_sendstream_check *c, const cmd *k) {
  const attr *p = &k->a[A_PATH];
  char name[256], shown[96], u[37], want[37];
  printable(p, shown, sizeof shown);
  if (c->subvols++ > 0) return bad(c, "a second subvolume (%s %s)", k->name, shown);
  if (p->len == 0 || p->len >= sizeof name || memchr(p->p, '\0', p->len) ||
      memchr(p->p, '/', p->len) || (p->len == 1 && p->p[0] == '.') ||
      (p->len == 2 && p->p[0] == '.' && p->p[1] == '.'))
    return bad(c, "%s name '%s' is not a plain name", k->name, shown);
  memcpy(name, p->p, p->len);
  name[p->len] = '\0';
  if (c->name[0] && strcmp(name, c->name) != 0)
    return bad(c, "%s makes %s, not %s", k->name, shown, c->name);
  memcpy(c->self, k->a[A_UUID].p, UUID);
  c->self_ctransid = le64(k->a[A_CTRANSID].p);
  if (c->want_uuid && memcmp(c->self, c->uuid, UUID) != 0) {
    uuid_text(c->self, u);
    uuid_text(c->uuid, want);
    return bad(c, "%s uuid %s is not the offered %s", k->name, u, want);
  }
  if (k->code != C_SNAPSHOT) return 0;
  uuid_text(k->a[A_CLONE_UUID].p, u);
  if (!c->have_parent)
    return bad(c, "SNAPSHOT of %s, but no parent was agreed (a full stream)", u);
  if (memcmp(k->a[A_CLONE_UUID].p, c->parent, UUID) != 0) {
    uuid_text(c->parent, want);
    return bad(c, "SNAPSHOT of %s, not of the agreed parent %s", u, want);
  }
  c->parent_ctransid = le64(k->a[A_CLONE_CTRANSID].p);
  c->from_parent = true;
  return 0;
}

/* A clone source is the stream's own subvolume or the parent its SNAPSHOT
 * named, with the ctransid it was announced with. */
static int clone_source_ok(hg_sendstream_check *c, const cmd *k) {
  const uint8_t *u = k->a[A_CLONE_UUID].p;
  uint64_t t = le64(k->a[A_CLONE_CTRANSID].p);
  char text[37];
  if (memcmp(u, c->self, UUID) == 0 && t == c->self_ctransid) return 0;
  if (c->from_parent && memcmp(u, c->parent, UUID) == 0 && t == c->parent_ctransid)
    return 0;
  uuid_text(u, text);
  return bad(
      c, "CLONE from %s (ctransid %llu): neither this subvolume nor the agreed parent",
      text, (unsigned long long)t);
}

/* The paths of one command: well formed, not through a symlink made here;
 * then what the command does to the symlinks followed. */
static int paths_check(hg_sendstream_check *c, const cmd *k) {
  char path[PATH_MAX], other[PATH_MAX];
  int code = k->code;
  bool meta = code == C_CHMOD || code == C_CHOWN || code == C_UTIMES ||
              code == C_SET_XATTR || code == C_REMOVE_XATTR;
  /* open(), truncate(), chmod() follow a final symlink; lchown,
   * utimensat(NOFOLLOW), l*xattr, rename, link, unlink do not. */
  bool follows = code == C_WRITE || code == C_CLONE || code == C_TRUNCATE ||
                 code == C_CHMOD || code == C_UPDATE_EXTENT;
  int rc = path_ok(c, k, A_PATH, meta, path);
  if (rc == 0) rc = not_through_link(c, k, path, follows);
  if (rc < 0) return rc;
  switch (code) {
    case C_SYMLINK:
      if ((rc = path_ok(c, k, A_PATH_LINK, false, other)) < 0) {
        char shown[96], at[96];
        printable(&k->a[A_PATH_LINK], shown, sizeof shown);
        return bad(c, "SYMLINK %s -> '%s' points outside the subvolume", show(path, at),
                   shown);
      }
      return link_add(c, path);
    case C_RENAME:
      if ((rc = path_ok(c, k, A_PATH_TO, false, other)) < 0 ||
          (rc = not_through_link(c, k, other, false)) < 0)
        return rc;
      return links_rename(c, path, other);
    case C_LINK:
      if ((rc = path_ok(c, k, A_PATH_LINK, false, other)) < 0 ||
          (rc = not_through_link(c, k, other, false)) < 0)
        return rc;
      return track_get(&c->links, other) ? link_add(c, path) : 0;
    case C_UNLINK: {
      tracked *t = track_get(&c->links, path);
      if (t) link_del(c, t);
      return 0;
    }
    case C_CLONE:
      if ((rc = path_ok(c, k, A_CLONE_PATH, false, other)) < 0 ||
          (rc = not_through_link(c, k, other, true)) < 0)
        return rc;
      return clone_source_ok(c, k);
    default:
      return 0;
  }
}

/* TLVs: each known, once, within the payload; then what the command
 * needs, with the sizes btrfs receive insists on. */
static int parse_tlvs(hg_sendstream_check *c, cmd *k, const uint8_t *p, uint32_t len) {
  uint32_t at = 0;
  while (at < len) {
    if (len - at < SS_TLV_HDR) return bad(c, "%s: truncated attribute", k->name);
    uint16_t type = (uint16_t)(p[at] | p[at + 1] << 8);
    uint16_t alen = (uint16_t)(p[at + 2] | p[at + 3] << 8);
    at += SS_TLV_HDR;
    if (type == 0 || type > A_MAX)
      return bad(c, "%s: unknown attribute %u", k->name, type);
    if (alen > len - at)
      return bad(c, "%s: attribute %u overruns the command", k->name, type);
    if (k->a[type].set) return bad(c, "%s: attribute %u twice", k->name, type);
    k->a[type] = (attr){p + at, alen, true};
    at += alen;
  }
  for (const need *n = needs[k->code]; n->attr; n++) {
    const attr *a = &k->a[n->attr];
    if (!a->set) return bad(c, "%s without attribute %u", k->name, n->attr);
    if (n->size && a->len != n->size)
      return bad(c, "%s: attribute %u is %u bytes, not %u", k->name, n->attr, a->len,
                 n->size);
  }
  return 0;
}

/* buf holds one whole command: its crc, its TLVs, then the rules. */
static int command_check(hg_sendstream_check *c) {
  uint32_t len = le32(c->buf);
  uint16_t code = (uint16_t)(c->buf[4] | c->buf[5] << 8);
  uint32_t want = le32(c->buf + 6);
  uint8_t saved[4];
  /* The crc covers the header with its crc field zeroed; btrfs receive
   * checks it again, so the field is put back before the command goes on. */
  memcpy(saved, c->buf + 6, 4);
  memset(c->buf + 6, 0, 4);
  uint32_t crc = hg_crc32c(0, c->buf, SS_CMD_HDR + len);
  memcpy(c->buf + 6, saved, 4);
  if (crc != want)
    return bad(c, "crc32c mismatch in command %llu", (unsigned long long)c->commands);
  if (code == 0 || code > C_MAX) return bad(c, "unknown command %u", code);
  if (code == C_MKNOD) return bad(c, "MKNOD: device nodes are not part of a sandbox");
  cmd k;
  memset(&k, 0, sizeof k);
  k.code = code;
  k.name = cmd_names[code];
  int rc = parse_tlvs(c, &k, c->buf + SS_CMD_HDR, len);
  if (rc < 0) return rc;
  if (code == C_SUBVOL || code == C_SNAPSHOT) return subvol_begin(c, &k);
  if (c->subvols == 0) return bad(c, "%s before SUBVOL or SNAPSHOT", k.name);
  if (code == C_END) {
    c->ended = true;
    return 0;
  }
  return paths_check(c, &k);
}

static int header_check(hg_sendstream_check *c) {
  uint32_t version = le32(c->buf + sizeof SS_MAGIC);
  if (memcmp(c->buf, SS_MAGIC, sizeof SS_MAGIC) != 0)
    return bad(c, "not a btrfs send stream");
  if (version != SS_VERSION)
    return bad(c, "send stream version %u is not accepted (only %d)", version,
               SS_VERSION);
  c->header_done = true;
  return 0;
}

/* buf is whole (the header or one command): checked, then let through. */
static int whole(hg_sendstream_check *c) {
  bool is_header = !c->header_done;
  int rc = is_header ? header_check(c) : command_check(c);
  if (rc < 0) {
    if (!c->err[0]) bad(c, "%s", rc == -ENOMEM ? "out of memory" : "internal error");
    return -EPROTO;
  }
  if (!is_header) c->commands++;
  rc = c->emit ? c->emit(c->ud, c->buf, c->have) : 0;
  c->have = 0;
  if (rc < 0) snprintf(c->err, sizeof c->err, "the receiver stopped (%d)", rc);
  return rc;
}

int hg_sendstream_check_feed(hg_sendstream_check *c, const void *data, size_t len) {
  const uint8_t *p = data;
  if (c->err[0]) return -EPROTO;
  while (len) {
    if (c->ended) return bad(c, "data after the END command");
    size_t want = !c->header_done ? SS_HEADER : SS_CMD_HDR;
    if (c->header_done && c->have >= SS_CMD_HDR) {
      uint32_t plen = le32(c->buf);
      if (plen > HG_SENDSTREAM_CMD_MAX)
        return bad(c, "command %llu is %u bytes long", (unsigned long long)c->commands,
                   plen);
      want = SS_CMD_HDR + plen;
    }
    size_t n = want - c->have < len ? want - c->have : len;
    memcpy(c->buf + c->have, p, n);
    c->have += n;
    p += n;
    len -= n;
    if (c->have < want) continue;
    if (c->header_done && c->have == SS_CMD_HDR && le32(c->buf) > 0) continue;
    int rc = whole(c);
    if (rc < 0) return rc;
  }
  return 0;
}

int hg_sendstream_check_end(hg_sendstream_check *c) {
  if (c->err[0]) return -EPROTO;
  if (!c->ended || c->have) return bad(c, "send stream truncated");
  return 0;
}
