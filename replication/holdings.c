/* repl holdings: the generations this node holds of a sandbox, in
 * snapshots/ (its own) and replicas/ (received), their epochs, retention,
 * and the replicas listed and dropped for the replicator. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "node/checkpoint.h"
#include "replication/repl_internal.h"

/* ---- holdings -------------------------------------------------------------- */

/* A generation directory name: decimal, no sign, no leading zero. */
static bool parse_gen(const char *s, uint64_t *out) {
  if (s[0] < '1' || s[0] > '9') return false;
  uint64_t v = 0;
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9') return false;
    unsigned d = (unsigned)(*p - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

const char *hg__repl_identity(const hg_subvol_info *i) {
  return i->received_uuid[0] ? i->received_uuid : i->uuid;
}

/* btrfs receive finds a parent by received_uuid, then by uuid: either
 * one naming the hg__repl_identity is the same content. */
bool hg__repl_same_identity(const hg_subvol_info *i, const char *uuid) {
  return uuid[0] && (strcmp(i->received_uuid, uuid) == 0 || strcmp(i->uuid, uuid) == 0);
}

static int push_gen(gen_entry **a, size_t *n, size_t *cap, const gen_entry *e) {
  if (*n == *cap) {
    size_t ncap = *cap ? *cap * 2 : 16;
    gen_entry *na = realloc(*a, ncap * sizeof *na);
    if (!na) return -ENOMEM;
    *a = na;
    *cap = ncap;
  }
  (*a)[(*n)++] = *e;
  return 0;
}

/* Appends the read-only generation subvolumes of dir_rel ("snapshots/<id>"),
 * skipping user snapshots (named, not numbered) and anything else. */
static int scan_dir(hg_repl *r, const char *dir_rel, bool owned, gen_entry **a, size_t *n,
                    size_t *cap) {
  char abs[PATH_MAX];
  int rc = hg_store_abs(r->store, dir_rel, abs, sizeof abs);
  if (rc < 0) return rc;
  DIR *d = opendir(abs);
  if (!d) return errno == ENOENT ? 0 : -errno;
  struct dirent *de;
  size_t seen = 0;
  while (rc == 0 && seen < HG_REPL_SCAN_MAX && (de = readdir(d))) {
    gen_entry e;
    char rel[HG_REPL_REL_MAX];
    memset(&e, 0, sizeof e);
    if (!parse_gen(de->d_name, &e.gen)) continue;
    seen++;
    e.owned = owned;
    /* Checked first: subvol_info logs an error for a plain directory. */
    if (hg_path(rel, sizeof rel, "%s/%s", dir_rel, de->d_name) < 0 ||
        !hg_store_is_subvol(r->store, rel) ||
        hg_store_subvol_info(r->store, rel, &e.info) < 0 || !e.info.readonly)
      continue;
    rc = push_gen(a, n, cap, &e);
  }
  closedir(d);
  return rc;
}

static int cmp_gen_desc(const void *a, const void *b) {
  const gen_entry *x = a, *y = b;
  if (x->gen != y->gen) return x->gen < y->gen ? 1 : -1;
  return (int)y->owned - (int)x->owned;
}

/* The generations held of sandbox, newest first, one per gen (our own
 * snapshot before a replica). replicas_only: replicas/ alone (retention). */
int hg__repl_gens_list(hg_repl *r, const char *sandbox, bool replicas_only,
                       gen_entry **out, size_t *n) {
  gen_entry *a = NULL;
  size_t len = 0, cap = 0;
  char dir[HG_REPL_REL_MAX];
  int rc = 0;
  if (!replicas_only && (rc = hg_path(dir, sizeof dir, "snapshots/%s", sandbox)) == 0)
    rc = scan_dir(r, dir, true, &a, &len, &cap);
  if (rc == 0 && (rc = hg_path(dir, sizeof dir, "replicas/%s", sandbox)) == 0)
    rc = scan_dir(r, dir, false, &a, &len, &cap);
  if (rc < 0) {
    free(a);
    return rc;
  }
  if (len) qsort(a, len, sizeof *a, cmp_gen_desc);
  size_t w = 0;
  for (size_t i = 0; i < len; i++)
    if (w == 0 || a[w - 1].gen != a[i].gen) a[w++] = a[i];
  *out = a;
  *n = w;
  return 0;
}

int hg__repl_gen_rel(const char *sandbox, const gen_entry *e, char *out, size_t cap) {
  return hg_path(out, cap, "%s/%s/%" PRIu64, e->owned ? "snapshots" : "replicas", sandbox,
                 e->gen);
}

/* du of a directory tree (st_blocks, so holes and shared extents count as
 * they are allocated to this tree's files): a cheap size estimate. */
static uint64_t du_fd(int dfd, int depth) {
  DIR *d = fdopendir(dfd);
  if (!d) {
    close(dfd);
    return 0;
  }
  uint64_t sum = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    struct stat st;
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
    if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) continue;
    sum += (uint64_t)st.st_blocks * 512;
    if (S_ISDIR(st.st_mode) && depth < 8) {
      int fd =
          openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd >= 0) sum += du_fd(fd, depth + 1);
    }
  }
  closedir(d);
  return sum;
}

static uint64_t subvol_bytes(hg_repl *r, const char *rel) {
  char abs[PATH_MAX];
  if (hg_store_abs(r->store, rel, abs, sizeof abs) < 0) return 0;
  int fd = open(abs, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  return fd < 0 ? 0 : du_fd(fd, 0);
}

/* replicas/<id>/epoch: the highest epoch this node accepted a stream of
 * the sandbox at; 0 when none. */
uint64_t hg__repl_epoch_read(hg_repl *r, const char *sandbox) {
  char rel[HG_REPL_REL_MAX], abs[PATH_MAX], *text = NULL;
  if (hg_path(rel, sizeof rel, "replicas/%s/epoch", sandbox) < 0 ||
      hg_store_abs(r->store, rel, abs, sizeof abs) < 0 ||
      hg_read_file(abs, 64, &text, NULL) < 0)
    return 0;
  uint64_t v = strtoull(text, NULL, 10);
  free(text);
  return v;
}

int hg__repl_epoch_write(hg_repl *r, const char *sandbox, uint64_t epoch) {
  char rel[HG_REPL_REL_MAX], abs[PATH_MAX], text[32];
  int rc = hg_path(rel, sizeof rel, "replicas/%s", sandbox);
  if (rc == 0) rc = hg_store_abs(r->store, rel, abs, sizeof abs);
  if (rc == 0) rc = hg_mkdir_p(abs, 0700);
  if (rc == 0) rc = hg_path(abs + strlen(abs), sizeof abs - strlen(abs), "/epoch");
  int n = snprintf(text, sizeof text, "%" PRIu64 "\n", epoch);
  if (rc == 0) rc = hg_write_file_atomic(abs, text, (size_t)n);
  if (rc < 0)
    hg_log_error("repl.epoch", "sandbox=%s epoch=%" PRIu64 " err=\"%s\"", sandbox, epoch,
                 hg_err_str(rc));
  return rc;
}

static void holdings_fill(hg_repl *r, const char *sandbox, const gen_entry *g, size_t n,
                          hg_repl_holdings *h) {
  memset(h, 0, sizeof *h);
  snprintf(h->sandbox, sizeof h->sandbox, "%s", sandbox);
  h->epoch = hg__repl_epoch_read(r, sandbox);
  for (size_t i = 0; i < n && h->n < HG_REPL_HOLDINGS; i++) {
    hg_repl_holding *x = &h->h[h->n++];
    char rel[HG_REPL_REL_MAX];
    x->gen = g[i].gen;
    x->created_ms = g[i].info.otime * 1000;
    snprintf(x->uuid, sizeof x->uuid, "%s", hg__repl_identity(&g[i].info));
    if (hg__repl_gen_rel(sandbox, &g[i], rel, sizeof rel) == 0)
      x->bytes = subvol_bytes(r, rel);
  }
}

int hg__repl_holdings_of(hg_repl *r, const char *sandbox, hg_repl_holdings *h) {
  gen_entry *g;
  size_t n;
  int rc = hg__repl_gens_list(r, sandbox, false, &g, &n);
  if (rc < 0) return rc;
  holdings_fill(r, sandbox, g, n, h);
  free(g);
  return 0;
}

int hg_repl_newest(hg_repl *r, const char *sandbox, uint64_t *gen, char *rel,
                   size_t cap) {
  gen_entry *g;
  size_t n;
  if (!hg__repl_sandbox_ok(sandbox)) return -EINVAL;
  int rc = hg__repl_gens_list(r, sandbox, false, &g, &n);
  if (rc < 0) return rc;
  rc = n ? hg__repl_gen_rel(sandbox, &g[0], rel, cap) : -ENOENT;
  if (rc == 0) *gen = g[0].gen;
  free(g);
  return rc;
}

/* Keeps the newest r->keep generations in replicas/<sandbox>: the owner's
 * retention of its checkpoints (hg_gen_retain_plan) with every replica
 * counted. keep >= 1, so the newest is never deleted. */
void hg__repl_retain(hg_repl *r, const char *sandbox) {
  gen_entry *g;
  size_t n;
  if (hg__repl_gens_list(r, sandbox, true, &g, &n) < 0) return;
  hg_gen_ref *refs = calloc(n ? n : 1, sizeof *refs);
  uint64_t *drop = calloc(n ? n : 1, sizeof *drop);
  for (size_t i = 0; refs && i < n; i++) refs[i] = (hg_gen_ref){.gen = g[i].gen, .checkpoint = true};
  size_t nd = refs && drop ? hg_gen_retain_plan(refs, n, r->keep, NULL, 0, drop, n) : 0;
  for (size_t i = 0; i < n; i++) {
    bool go = false;
    for (size_t k = 0; k < nd; k++) go |= drop[k] == g[i].gen;
    char rel[HG_REPL_REL_MAX];
    if (!go || hg__repl_gen_rel(sandbox, &g[i], rel, sizeof rel) < 0) continue;
    int rc = hg_store_subvol_delete(r->store, rel);
    if (rc == 0)
      hg_log_info("repl.retention", "sandbox=%s gen=%" PRIu64 " keep=%u", sandbox,
                  g[i].gen, r->keep);
  }
  free(refs);
  free(drop);
  free(g);
}

/* A read-only subvolume at rel, with its hg__repl_identity. */
int hg__repl_local_subvol(hg_repl *r, const char *rel, hg_subvol_info *info) {
  if (!hg_store_is_subvol(r->store, rel)) return -ENOENT;
  int rc = hg_store_subvol_info(r->store, rel, info);
  if (rc == 0 && !info->readonly) rc = -EINVAL;
  return rc;
}

/* Our holding of (sandbox, gen): our own snapshot, else a replica. */
int hg__repl_local_gen(hg_repl *r, const char *sandbox, uint64_t gen,
                       char rel[HG_REPL_REL_MAX], hg_subvol_info *info) {
  int rc = hg_path(rel, HG_REPL_REL_MAX, "snapshots/%s/%" PRIu64, sandbox, gen);
  if (rc == 0) rc = hg__repl_local_subvol(r, rel, info);
  if (rc != -ENOENT) return rc;
  rc = hg_path(rel, HG_REPL_REL_MAX, "replicas/%s/%" PRIu64, sandbox, gen);
  return rc < 0 ? rc : hg__repl_local_subvol(r, rel, info);
}

int hg_repl_local(hg_repl *r, const char *sandbox, hg_repl_holdings *out) {
  if (!hg__repl_sandbox_ok(sandbox)) return -EINVAL;
  hg_repl_holdings *h = calloc(1, sizeof *h);
  if (!h) return -ENOMEM;
  int rc = hg__repl_holdings_of(r, sandbox, h);
  if (rc == 0) memcpy(out, h, sizeof *out);
  free(h);
  return rc;
}

/* The key a receive of the sandbox holds (receive.c serve_offer). */
static void sandbox_key(const char *sandbox, char key[HG_REPL_NAME_MAX + 2]) {
  snprintf(key, HG_REPL_NAME_MAX + 2, "s/%s", sandbox);
}

/* The receive key first, then the sends: a receive takes no send gate,
 * and a send no key, so neither wait closes a cycle. */
int hg_repl_hold(hg_repl *r, const char *sandbox) {
  char key[HG_REPL_NAME_MAX + 2];
  if (!r) return 0;
  if (!hg__repl_sandbox_ok(sandbox)) return -EINVAL;
  sandbox_key(sandbox, key);
  int rc = hg_keylock_take(&r->locks, key, true);
  if (rc < 0) return rc;
  if (hg__repl_sends_stop(r, sandbox)) return 0;
  hg_keylock_release(&r->locks, key);
  return -ENOMEM;
}

void hg_repl_unhold(hg_repl *r, const char *sandbox) {
  char key[HG_REPL_NAME_MAX + 2];
  if (!r) return;
  sandbox_key(sandbox, key);
  hg__repl_sends_resume(r, sandbox);
  hg_keylock_release(&r->locks, key);
}

int hg_repl_drop(hg_repl *r, const char *sandbox) {
  if (!hg__repl_sandbox_ok(sandbox)) return -EINVAL;
  char rel[HG_REPL_REL_MAX], abs[PATH_MAX];
  int rc = hg_path(rel, sizeof rel, "replicas/%s", sandbox);
  if (rc == 0) rc = hg_store_abs(r->store, rel, abs, sizeof abs);
  if (rc < 0) return rc;
  /* Waits for a receive of the sandbox in progress, which would
   * otherwise bring the directory back. */
  if ((rc = hg_repl_hold(r, sandbox)) < 0) return rc;
  bool had = access(abs, F_OK) == 0;
  rc = had ? hg_store_subvol_delete(r->store, rel) : 0;
  hg_repl_unhold(r, sandbox);
  if (had && rc == 0) hg_log_info("repl.drop", "sandbox=%s", sandbox);
  return rc;
}

int hg_repl_replica_ids(hg_repl *r, char (**ids)[HG_ID_MAX], size_t *n) {
  char abs[PATH_MAX];
  int rc = hg_store_abs(r->store, "replicas", abs, sizeof abs);
  if (rc < 0) return rc;
  DIR *d = opendir(abs);
  if (!d) return -errno;
  char(*a)[HG_ID_MAX] = NULL;
  size_t len = 0, cap = 0;
  struct dirent *de;
  while (rc == 0 && (de = readdir(d))) {
    if (!hg__repl_sandbox_ok(de->d_name)) continue;
    if (len == cap) {
      size_t ncap = cap ? cap * 2 : 16;
      char(*na)[HG_ID_MAX] = realloc(a, ncap * sizeof *na);
      if (!na) {
        rc = -ENOMEM;
        break;
      }
      a = na;
      cap = ncap;
    }
    snprintf(a[len++], HG_ID_MAX, "%s", de->d_name);
  }
  closedir(d);
  if (rc < 0) {
    free(a);
    return rc;
  }
  *ids = a;
  *n = len;
  return 0;
}

/* Gives replicas/<sandbox>/<gen> left writable its flag back. */
static void settle_dir(hg_repl *r, const char *sandbox) {
  char dir[HG_REPL_REL_MAX], abs[PATH_MAX], rel[HG_REPL_REL_MAX];
  if (hg_path(dir, sizeof dir, "replicas/%s", sandbox) < 0 ||
      hg_store_abs(r->store, dir, abs, sizeof abs) < 0)
    return;
  DIR *d = opendir(abs);
  if (!d) return;
  struct dirent *de;
  hg_subvol_info info;
  uint64_t gen;
  while ((de = readdir(d))) {
    if (!parse_gen(de->d_name, &gen) ||
        hg_path(rel, sizeof rel, "%s/%s", dir, de->d_name) < 0 ||
        !hg_store_is_subvol(r->store, rel) ||
        hg_store_subvol_info(r->store, rel, &info) < 0 || info.readonly)
      continue;
    int rc = hg_store_set_readonly(r->store, rel, true);
    if (rc == 0)
      hg_log_warn("repl.gen_settled", "sandbox=%s gen=%" PRIu64 " identity=%s why=\"a move "
                  "into replicas/ cut short by a crash\"", sandbox, gen,
                  hg__repl_identity(&info));
    else
      hg_log_error("repl.gen_settled", "sandbox=%s gen=%" PRIu64 " err=\"%s\"", sandbox, gen,
                   hg_err_str(rc));
  }
  closedir(d);
}

/* A promotion (staging/ -> replicas/S/G) and a disown's move (snapshots/
 * -> replicas/) rename a read-only subvolume writable for a moment
 * (store.c rename_readonly); what gets there was whole and read-only
 * before. A crash in that moment leaves replicas/S/G writable: no listing
 * counts it, and its path makes every later receive of G fail to promote
 * (conflict). At open it gets its flag back; set_readonly keeps its
 * received_uuid, the identity it had (no freeze: that would replace it). */
void hg__repl_replicas_settle(hg_repl *r) {
  char(*ids)[HG_ID_MAX] = NULL;
  size_t n = 0;
  if (hg_repl_replica_ids(r, &ids, &n) < 0) return;
  for (size_t i = 0; i < n; i++) settle_dir(r, ids[i]);
  free(ids);
}
