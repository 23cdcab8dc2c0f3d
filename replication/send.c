/* repl send: the sending side of an exchange (BTRFS_IOC_SEND -> zstd ->
 * peer) and LIST, on the caller's worker thread. */
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
#include "replication/repl_internal.h"

/* ---- sender ------------------------------------------------------------------------ */

typedef struct out_xchg {
  hg_repl *r;
  const hg_repl_target *peer;
  hg_repl_result *res;
  int fd;
  hg_rframe_session s;
  uint8_t *buf;
  int64_t t0;
  uint64_t zbytes, chunks;
  int emit_rc;     /* why emit stopped the stream */
  bool refused;    /* the peer answered REFUSE */
  bool peer_error; /* the peer answered ERROR */
  hg_stream_progress_fn progress;
  void *progress_ud;
  int dial_ms; /* connecting; a LIST waits less than a transfer */
  const char *gate; /* the sandbox whose send this is (hg_repl_hold cuts it); NULL */
} out_xchg;

/* One exchange with peer, accounted in res; false when its frame buffer
 * could not be had (out_end frees what there is either way). */
static bool out_begin(out_xchg *x, hg_repl *r, const hg_repl_target *peer,
                      hg_repl_result *res) {
  memset(x, 0, sizeof *x);
  x->r = r;
  x->peer = peer;
  x->res = res;
  x->fd = -1;
  x->t0 = hg_now_ns();
  x->dial_ms = r->timeout_ms;
  x->buf = malloc(HG_REPL_FRAME_BUF);
  return x->buf != NULL;
}

static void out_end(out_xchg *x) {
  if (x->fd >= 0 && x->gate) hg__repl_send_sock(x->r, x->gate, x->fd, false);
  if (x->fd >= 0) close(x->fd);
  free(x->buf);
}

__attribute__((format(printf, 4, 5))) static int out_fail(out_xchg *x, int rc,
                                                          const char *code,
                                                          const char *fmt, ...) {
  char tmp[sizeof x->res->message];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  x->res->rc = rc;
  snprintf(x->res->code, sizeof x->res->code, "%s", code);
  hg__repl_set_text(x->res->message, sizeof x->res->message, tmp);
  return rc;
}

/* The peer's ERROR frame: its code and sentence become the result. */
static int out_peer_error(out_xchg *x, const uint8_t *p, size_t len) {
  hg_repl_error e;
  if (hg_repl_error_decode(p, len, &e) < 0)
    return out_fail(x, -EPROTO, hg__repl_codes[C_IO].code,
                    "malformed ERROR from the peer");
  x->peer_error = true;
  return out_fail(x, hg__repl_code_errno(e.code), e.code, "%s", e.message);
}

/* Reads the peer's next frame, expecting type want (an ERROR instead
 * becomes the result). */
static int out_read(out_xchg *x, hg_rframe_type want, int timeout_ms, const uint8_t **p,
                    size_t *len) {
  hg_rframe_type t;
  bool first = x->s.seq_in == 0;
  int rc =
      hg_rframe_read(x->fd, &x->s, x->buf, HG_REPL_FRAME_BUF, &t, p, len, timeout_ms);
  if (rc == -ECONNRESET && first)
    return out_fail(
        x, rc, hg__repl_codes[C_IO].code,
        "the peer closed the connection without answering (another cluster or a "
        "wrong cluster key?)");
  if (rc < 0)
    return out_fail(x, rc, hg__repl_local_code(rc), "reading the answer: %s",
                    hg_err_str(rc));
  if (t == HG_RF_ERROR) return out_peer_error(x, *p, *len);
  if (t != want)
    return out_fail(x, -EPROTO, hg__repl_codes[C_IO].code,
                    "frame type %d where %d was due", (int)t, (int)want);
  return 0;
}

/* Connects and sends the first frame (OFFER or LIST). */
static int out_open(out_xchg *x, hg_rframe_type type, hg_repl_offer *o) {
  hg_repl *r = x->r;
  int rc = hg__repl_dial(x->peer->addr, x->dial_ms, &x->fd);
  if (rc < 0)
    return out_fail(x, rc, hg__repl_local_code(rc), "connecting to %s: %s", x->peer->addr,
                    hg_err_str(rc));
  if (x->gate && !hg__repl_send_sock(r, x->gate, x->fd, true))
    return out_fail(x, -EBUSY, hg__repl_codes[C_BUSY].code,
                    "sandbox %s is held here (deleted or moved): not sent", x->gate);
  rc = hg_rframe_session_initiator(&x->s, &r->keys);
  if (rc < 0)
    return out_fail(x, rc, hg__repl_local_code(rc), "session: %s", hg_err_str(rc));
  memcpy(o->nonce, x->s.nonce, HG_RFRAME_NONCE);
  snprintf(o->cluster, sizeof o->cluster, "%s", r->cluster);
  snprintf(o->from, sizeof o->from, "%s", r->node_id);
  hg_buf b;
  hg_buf_init(&b, HG_REPL_MSG_MAX);
  rc = hg__repl_write_msg(x->fd, &x->s, type, &b, hg_repl_offer_encode(o, &b),
                          r->timeout_ms);
  if (rc < 0)
    return out_fail(x, rc, hg__repl_local_code(rc), "sending the offer: %s",
                    hg_err_str(rc));
  return 0;
}

/* The receiver speaks mid-stream only to say it failed (an ERROR, or a
 * hang-up): the sender stops instead of pushing the rest of the stream. */
static int emit_data(void *ud, const void *z, size_t len) {
  out_xchg *x = ud;
  struct pollfd p = {.fd = x->fd, .events = POLLIN};
  int rc = poll(&p, 1, 0) > 0 ? -ECANCELED : 0;
  if (rc == 0) rc = hg_rframe_write(x->fd, &x->s, HG_RF_DATA, z, len, x->r->timeout_ms);
  if (rc < 0) return x->emit_rc = rc;
  x->zbytes += len;
  x->chunks++;
  return 0;
}

static void emit_progress(void *ud, const hg_stream_stats *st) {
  out_xchg *x = ud;
  if (x->progress) x->progress(x->progress_ud, st);
}

/* DATA… END, then the ACK with the peer's holdings. */
static int out_stream(out_xchg *x, const char *src_rel, const char *parent_rel) {
  hg_repl *r = x->r;
  char src[PATH_MAX], parent[PATH_MAX];
  int rc = hg_store_abs(r->store, src_rel, src, sizeof src);
  if (rc == 0 && parent_rel)
    rc = hg_store_abs(r->store, parent_rel, parent, sizeof parent);
  if (rc < 0) return out_fail(x, rc, hg__repl_local_code(rc), "path: %s", hg_err_str(rc));
  hg_stream_stats st;
  rc = hg_stream_send(src, parent_rel ? parent : NULL, r->level, emit_data, emit_progress,
                      x, &st);
  x->res->raw_bytes = st.raw_bytes;
  x->res->zstd_bytes = x->zbytes;
  hg__repl_count_bytes(r, DIR_OUT, st.raw_bytes, x->zbytes);
  if (rc < 0 && x->emit_rc) {
    const uint8_t *p;
    size_t len;
    hg_rframe_type t;
    if (hg_rframe_read(x->fd, &x->s, x->buf, HG_REPL_FRAME_BUF, &t, &p, &len,
                       HG_REPL_ANSWER_MS) == 0 &&
        t == HG_RF_ERROR)
      return out_peer_error(x, p, len);
    rc = x->emit_rc == -ECANCELED ? -ECONNRESET : x->emit_rc;
    return out_fail(x, rc, hg__repl_local_code(rc), "sending the stream: %s",
                    hg_err_str(rc));
  }
  if (rc < 0)
    return out_fail(x, rc, hg__repl_local_code(rc), "btrfs send: %s", hg_err_str(rc));
  hg_repl_end end = {
      .raw_bytes = st.raw_bytes, .zstd_bytes = x->zbytes, .chunks = x->chunks};
  hg_buf b;
  hg_buf_init(&b, HG_REPL_MSG_MAX);
  rc = hg__repl_write_msg(x->fd, &x->s, HG_RF_END, &b, hg_repl_end_encode(&end, &b),
                          r->timeout_ms);
  if (rc < 0)
    return out_fail(x, rc, hg__repl_local_code(rc), "sending END: %s", hg_err_str(rc));
  const uint8_t *p;
  size_t len;
  rc = out_read(x, HG_RF_ACK, r->timeout_ms, &p, &len);
  if (rc < 0) return rc;
  if (hg_repl_holdings_decode(p, len, &x->res->held) < 0)
    return out_fail(x, -EPROTO, hg__repl_codes[C_IO].code, "malformed ACK");
  return 0;
}

/* OFFER, REPLY, and the stream when the peer asks for it. paths[i] is
 * the store path of o->cands[i]. */
static int out_offer(out_xchg *x, hg_repl_offer *o, char (*paths)[HG_REPL_REL_MAX],
                     const char *src_rel) {
  const uint8_t *p;
  size_t len;
  hg_repl_reply rep;
  int rc = out_open(x, HG_RF_OFFER, o);
  if (rc == 0) rc = out_read(x, HG_RF_REPLY, x->r->timeout_ms, &p, &len);
  if (rc < 0) return rc;
  if (hg_repl_reply_decode(p, len, &rep) < 0)
    return out_fail(x, -EPROTO, hg__repl_codes[C_IO].code, "malformed REPLY");
  hg_rframe_session_challenge(&x->s, rep.challenge);
  if (rep.verdict == HG_REPL_HAVE) {
    x->res->had = true;
    return 0;
  }
  x->refused = rep.verdict == HG_REPL_REFUSE;
  if (x->refused)
    return out_fail(x, hg__repl_code_errno(rep.code), rep.code, "%s", rep.message);
  if (rep.parent >= (int)o->ncands)
    return out_fail(x, -EPROTO, hg__repl_codes[C_IO].code,
                    "the peer chose parent %d of %u", rep.parent, o->ncands);
  const char *parent = NULL;
  if (rep.parent >= 0) {
    parent = paths[rep.parent];
    x->res->parent_template = o->cands[rep.parent].tmpl;
    x->res->parent_gen = o->cands[rep.parent].gen;
  }
  return out_stream(x, src_rel, parent);
}

static void res_init(hg_repl_result *res, const hg_repl_target *peer) {
  memset(res, 0, sizeof *res);
  if (peer) snprintf(res->node, sizeof res->node, "%s", peer->node);
}

/* Runs one sending exchange and accounts for it. */
static int out_run(hg_repl *r, const hg_repl_target *peer, hg_repl_offer *o,
                   char (*paths)[HG_REPL_REL_MAX], const char *src_rel,
                   hg_stream_progress_fn progress, void *ud, hg_repl_result *res) {
  out_xchg x;
  bool ok = out_begin(&x, r, peer, res);
  x.gate = o->tmpl ? NULL : o->sandbox;
  x.progress = progress;
  x.progress_ud = ud;
  int rc = ok ? out_offer(&x, o, paths, src_rel)
              : out_fail(&x, -ENOMEM, hg__repl_local_code(-ENOMEM), "out of memory");
  out_end(&x);
  res->rc = rc;
  res->ms = (double)(hg_now_ns() - x.t0) / 1e6;
  char what[256];
  hg__repl_what_of(o, what, sizeof what);
  if (rc == 0) {
    hg_repl_parent p = {.gen = res->parent_gen, .tmpl = res->parent_template};
    char ptext[24];
    hg__repl_count_stream(r, DIR_OUT, res->had ? RES_HAVE : RES_OK);
    hg_log_info("repl.sent",
                "%s to=%s had=%d parent=%s raw=%" PRIu64 " zstd=%" PRIu64 " ms=%.1f",
                what, peer->node, res->had,
                hg__repl_parent_text(p.tmpl || p.gen ? &p : NULL, ptext, sizeof ptext),
                res->raw_bytes, res->zstd_bytes, res->ms);
  } else {
    hg__repl_count_stream(r, DIR_OUT, x.refused ? RES_REFUSED : RES_FAILED);
    hg_log_warn("repl.send_failed", "%s to=%s addr=%s code=%s msg=\"%s\"", what,
                peer->node, peer->addr, res->code, res->message);
  }
  return rc;
}

/* A send that failed here, before any exchange: res says why, logged. */
static int local_fail(hg_repl_result *res, const hg_repl_target *peer,
                      const char *sandbox, uint64_t gen, int rc, const char *code,
                      const char *why) {
  res->rc = rc;
  snprintf(res->code, sizeof res->code, "%s", code);
  snprintf(res->message, sizeof res->message, "local gen %" PRIu64 " of %s: %s", gen,
           sandbox, why);
  hg_log_warn("repl.send_failed", "sandbox=%s gen=%" PRIu64 " to=%s code=%s msg=\"%s\"",
              sandbox, gen, peer->node, res->code, res->message);
  return rc;
}

/* hg_repl_send_gen once the sandbox's gate let it in. */
static int send_gen_entered(hg_repl *r, const hg_repl_target *peer, const char *sandbox,
                            uint64_t epoch, uint64_t gen, const char *tmpl,
                            hg_stream_progress_fn progress, void *ud,
                            hg_repl_result *res) {
  hg_repl_offer *o = calloc(1, sizeof *o);
  char(*paths)[HG_REPL_REL_MAX] = calloc(HG_REPL_CANDIDATES + 1, HG_REPL_REL_MAX);
  gen_entry *g = NULL;
  size_t n = 0;
  hg_subvol_info info;
  int rc = o && paths ? 0 : -ENOMEM;
  if (rc == 0) rc = hg__repl_local_gen(r, sandbox, gen, paths[HG_REPL_CANDIDATES], &info);
  if (rc == 0) rc = hg__repl_gens_list(r, sandbox, false, &g, &n);
  if (rc < 0) {
    free(o);
    free(paths);
    return local_fail(res, peer, sandbox, gen, rc, hg__repl_local_code(rc),
                      hg_err_str(rc));
  }
  snprintf(o->sandbox, sizeof o->sandbox, "%s", sandbox);
  o->epoch = epoch;
  o->gen = gen;
  snprintf(o->uuid, sizeof o->uuid, "%s", hg__repl_identity(&info));
  if (tmpl) snprintf(o->name, sizeof o->name, "%s", tmpl);
  /* Parents, best first: our generations below gen, newest first (the
   * smallest difference), then the template it was made from. */
  for (size_t i = 0; i < n && o->ncands < HG_REPL_CANDIDATES - 1; i++) {
    if (g[i].gen >= gen ||
        hg__repl_gen_rel(sandbox, &g[i], paths[o->ncands], HG_REPL_REL_MAX) < 0)
      continue;
    hg_repl_parent *c = &o->cands[o->ncands++];
    c->gen = g[i].gen;
    snprintf(c->uuid, sizeof c->uuid, "%s", hg__repl_identity(&g[i].info));
  }
  hg_subvol_info ti;
  if (tmpl && hg_path(paths[o->ncands], HG_REPL_REL_MAX, "templates/%s", tmpl) == 0 &&
      hg__repl_local_subvol(r, paths[o->ncands], &ti) == 0) {
    hg_repl_parent *c = &o->cands[o->ncands++];
    c->tmpl = true;
    snprintf(c->uuid, sizeof c->uuid, "%s", hg__repl_identity(&ti));
  }
  free(g);
  rc = out_run(r, peer, o, paths, paths[HG_REPL_CANDIDATES], progress, ud, res);
  /* The peer holds the parent but btrfs receive could not use it (a copy
   * made before generations carried their hg__repl_identity as received_uuid, or one
   * changed under it): once more as a full stream, which needs nothing. */
  if (rc < 0 && o->ncands && !strcmp(res->code, "unknown_parent")) {
    hg_log_warn("repl.full_retry", "sandbox=%s gen=%" PRIu64 " to=%s msg=\"%s\"", sandbox,
                gen, peer->node, res->message);
    o->ncands = 0;
    res_init(res, peer);
    rc = out_run(r, peer, o, paths, paths[HG_REPL_CANDIDATES], progress, ud, res);
  }
  free(o);
  free(paths);
  return rc;
}

/* Counted in the sandbox's gate while it runs: a delete or move of its
 * generations here (hg_repl_hold) waits for it, and one held meanwhile
 * is not read at all. */
int hg_repl_send_gen(hg_repl *r, const hg_repl_target *peer, const char *sandbox,
                     uint64_t epoch, uint64_t gen, const char *tmpl,
                     hg_stream_progress_fn progress, void *ud, hg_repl_result *res) {
  res_init(res, peer);
  if (!peer || !hg__repl_sandbox_ok(sandbox) || gen == 0 ||
      (tmpl && !hg_repl_name_ok(tmpl))) {
    res->rc = -EINVAL;
    snprintf(res->code, sizeof res->code, "bad_request");
    snprintf(res->message, sizeof res->message,
             "invalid sandbox, generation or template");
    return res->rc;
  }
  int rc = hg__repl_send_enter(r, sandbox);
  if (rc == -EBUSY)
    return local_fail(res, peer, sandbox, gen, rc, hg__repl_codes[C_BUSY].code,
                      "held here (its generations are being deleted or moved)");
  if (rc < 0)
    return local_fail(res, peer, sandbox, gen, rc, hg__repl_local_code(rc),
                      hg_err_str(rc));
  rc = send_gen_entered(r, peer, sandbox, epoch, gen, tmpl, progress, ud, res);
  hg__repl_send_leave(r, sandbox);
  return rc;
}

int hg_repl_send_template(hg_repl *r, const hg_repl_target *peer, const char *tmpl,
                          hg_repl_result *res) {
  res_init(res, peer);
  char src[HG_REPL_REL_MAX];
  hg_subvol_info info;
  int rc = peer && hg_repl_name_ok(tmpl) ? 0 : -EINVAL;
  if (rc == 0) rc = hg_path(src, sizeof src, "templates/%s", tmpl);
  if (rc == 0) rc = hg__repl_local_subvol(r, src, &info);
  if (rc < 0) {
    res->rc = rc;
    snprintf(res->code, sizeof res->code, "%s", hg__repl_local_code(rc));
    snprintf(res->message, sizeof res->message, "local template %s: %s", tmpl ? tmpl : "",
             hg_err_str(rc));
    hg_log_warn("repl.send_failed", "template=%s to=%s code=%s msg=\"%s\"",
                tmpl ? tmpl : "", peer ? peer->node : "", res->code, res->message);
    return rc;
  }
  hg_repl_offer *o = calloc(1, sizeof *o);
  if (!o) return res->rc = -ENOMEM;
  o->tmpl = true;
  snprintf(o->name, sizeof o->name, "%s", tmpl);
  snprintf(o->uuid, sizeof o->uuid, "%s", hg__repl_identity(&info));
  rc = out_run(r, peer, o, NULL, src, NULL, NULL, res);
  free(o);
  return rc;
}

int hg_repl_list(hg_repl *r, const hg_repl_target *peer, const char *sandbox,
                 hg_repl_holdings *out, char *msg, size_t msgcap) {
  if (msg && msgcap) msg[0] = '\0';
  if (!peer || !hg__repl_sandbox_ok(sandbox)) return -EINVAL;
  hg_repl_result *res = calloc(1, sizeof *res);
  hg_repl_offer *o = calloc(1, sizeof *o);
  out_xchg x;
  int rc = out_begin(&x, r, peer, res) && res && o ? 0 : -ENOMEM;
  const uint8_t *p;
  size_t len;
  /* GET …/replicas asks every peer in turn: a silent one must not hold it */
  x.dial_ms = r->timeout_ms < HG_REPL_LIST_MS ? r->timeout_ms : HG_REPL_LIST_MS;
  if (rc == 0) {
    snprintf(o->sandbox, sizeof o->sandbox, "%s", sandbox);
    rc = out_open(&x, HG_RF_LIST, o);
  }
  if (rc == 0) rc = out_read(&x, HG_RF_LISTED, x.dial_ms, &p, &len);
  if (rc == 0 && (hg_repl_holdings_decode(p, len, &res->held) < 0 ||
                  strcmp(res->held.sandbox, sandbox) != 0))
    rc = out_fail(&x, -EPROTO, hg__repl_codes[C_IO].code, "malformed LISTED");
  if (rc == 0) memcpy(out, &res->held, sizeof *out);
  if (rc < 0 && res) {
    /* The peer's refusals come back as -EACCES (auth) or -EPROTO. */
    if (x.peer_error && rc != -EACCES) rc = -EPROTO;
    if (msg && msgcap) snprintf(msg, msgcap, "%s: %s", res->code, res->message);
    hg_log_warn("repl.list_failed", "sandbox=%s to=%s code=%s msg=\"%s\"", sandbox,
                peer->node, res->code, res->message);
  }
  out_end(&x);
  free(o);
  free(res);
  return rc;
}
