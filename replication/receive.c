/* repl receive: the responder. The accept thread, one thread per inbound
 * connection, and what an exchange does: judge an offer against what we
 * hold, receive the stream (peer -> zstd -> btrfs receive -> verify ->
 * promote), answer a LIST. */
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

/* ---- responder ---------------------------------------------------------------- */

typedef struct xchg {
  hg_repl *r;
  inbound *in;
  int fd;
  char peer[HG_ADDR_MAX];
  hg_rframe_session s;
  uint8_t *buf;
  hg_repl_offer offer;
} xchg;

static int answer_reply(xchg *x, hg_repl_verdict v, int parent,
                        const hg_repl_error *why) {
  hg_repl_reply rep;
  hg_buf b;
  memset(&rep, 0, sizeof rep);
  rep.verdict = v;
  rep.parent = parent;
  memcpy(rep.challenge, x->s.challenge, HG_RFRAME_NONCE);
  if (why) {
    memcpy(rep.code, why->code, sizeof rep.code);
    memcpy(rep.message, why->message, sizeof rep.message);
  }
  hg_buf_init(&b, HG_REPL_MSG_MAX);
  return hg__repl_write_msg(x->fd, &x->s, HG_RF_REPLY, &b, hg_repl_reply_encode(&rep, &b),
                            x->r->timeout_ms);
}

static int answer_error(xchg *x, const hg_repl_error *e) {
  hg_buf b;
  hg_buf_init(&b, HG_REPL_MSG_MAX);
  return hg__repl_write_msg(x->fd, &x->s, HG_RF_ERROR, &b, hg_repl_error_encode(e, &b),
                            x->r->timeout_ms);
}

static int answer_holdings(xchg *x, hg_rframe_type type, const hg_repl_holdings *h) {
  hg_buf b;
  hg_buf_init(&b, HG_REPL_MSG_MAX);
  return hg__repl_write_msg(x->fd, &x->s, type, &b, hg_repl_holdings_encode(h, &b),
                            x->r->timeout_ms);
}

/* REFUSE: the offer is answered and nothing moves. */
__attribute__((format(printf, 3, 4))) static void refuse(xchg *x, int code,
                                                         const char *fmt, ...) {
  hg_repl_error e;
  char tmp[sizeof e.message], what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  hg__repl_set_error(&e, code, "%s", tmp);
  int rc = answer_reply(x, HG_REPL_REFUSE, -1, &e);
  hg__repl_count_refused(x->r, e.code);
  hg__repl_count_stream(x->r, DIR_IN, RES_REFUSED);
  hg_log_info("repl.refused", "%s from=%s peer=%s code=%s msg=\"%s\"%s",
              hg__repl_what_of(&x->offer, what, sizeof what), x->offer.from, x->peer,
              e.code, e.message, rc < 0 ? " answer=failed" : "");
}

/* After an ERROR mid-stream the sender may still have DATA in flight;
 * closing with unread bytes resets the connection, which can destroy the
 * ERROR before the sender reads it. Drop what arrives until it hangs up. */
static void drain(int fd) {
  char buf[16384];
  size_t total = 0;
  int64_t end = hg_now_ms() + HG_REPL_DRAIN_MS;
  shutdown(fd, SHUT_WR);
  while (total < HG_REPL_DRAIN_BYTES) {
    int64_t left = end - hg_now_ms();
    if (left <= 0) break;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int n = poll(&p, 1, (int)left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    ssize_t got = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) break;
    total += (size_t)got;
  }
}

/* A failed receive, after its staging was deleted: logged, counted, and
 * told to the sender while it can still hear. */
static void recv_failed(xchg *x, const hg_repl_error *e, int rc) {
  char what[256];
  hg_log_warn("repl.recv_failed", "%s from=%s peer=%s code=%s msg=\"%s\"",
              hg__repl_what_of(&x->offer, what, sizeof what), x->offer.from, x->peer,
              e->code, e->message);
  hg__repl_count_refused(x->r, e->code);
  hg__repl_count_stream(x->r, DIR_IN, RES_FAILED);
  if (rc == -ECONNRESET || rc == -EPIPE) return;
  if (answer_error(x, e) == 0) drain(x->fd);
}

static int wire_error(hg_repl_error *e, int rc, int timeout_ms) {
  if (rc == -EBADMSG)
    hg__repl_set_error(e, C_UNAUTH,
                       "a frame failed authentication (replayed, reordered or altered)");
  else if (rc == -ETIMEDOUT)
    hg__repl_set_error(e, C_TIMEOUT, "no data for %d ms", timeout_ms);
  else if (rc == -EPROTO)
    hg__repl_set_error(e, C_BAD_REQUEST, "malformed frame");
  else if (rc == -ECONNRESET || rc == -EPIPE)
    hg__repl_set_error(e, C_IO, "the sender went away mid-stream");
  else
    hg__repl_set_error(e, C_IO, "reading the stream: %s", hg_err_str(rc));
  return rc;
}

/* A failure of the receive child (or of the stream it was fed). */
static int child_error(hg_repl *r, hg_repl_error *e, int rc, const char *msg) {
  uint64_t free_bytes = UINT64_MAX;
  (void)hg_store_free_bytes(r->store, &free_bytes);
  if (rc == -ENOSPC || rc == -EDQUOT || free_bytes < HG_REPL_MIN_FREE)
    hg__repl_set_error(e, C_NO_SPACE, "%s",
                       msg[0] ? msg : "no space left on the receiver");
  else if (rc == -EPROTO)
    hg__repl_set_error(e, C_CORRUPT, "%s", msg[0] ? msg : "corrupt stream");
  else if (strstr(msg, "parent subvol") || strstr(msg, "source subvol"))
    hg__repl_set_error(e, C_UNKNOWN_PARENT, "%s", msg);
  else
    hg__repl_set_error(e, C_IO, "%s", msg[0] ? msg : hg_err_str(rc));
  return rc;
}

typedef struct recv_state {
  char stage[64]; /* "staging/<32 hex>" */
  char name[256]; /* what btrfs receive made in it */
  uint64_t zbytes, chunks, raw;
} recv_state;

/* Feeds DATA frames to a `btrfs receive` in the staging dir until END;
 * 0 when the child made its subvolume and the totals match END. The
 * checker holds the stream to what this exchange agreed: the offered name
 * and identity, and the parent our REPLY picked (parent < 0: none, a full
 * stream) as the only source a SNAPSHOT or CLONE may name beside the
 * stream's own subvolume. */
static int recv_stream(xchg *x, int parent, recv_state *rs, hg_repl_error *e) {
  hg_repl *r = x->r;
  const hg_repl_offer *o = &x->offer;
  char abs[PATH_MAX], msg[256], name[HG_REPL_NAME_MAX];
  hg_stream_recv *rx = NULL;
  if (o->tmpl)
    snprintf(name, sizeof name, "%s", o->name);
  else
    snprintf(name, sizeof name, "%" PRIu64, o->gen);
  hg_sendstream_policy policy = {
      .name = name,
      .uuid = o->uuid,
      .parent_uuid = parent >= 0 ? o->cands[parent].uuid : NULL,
  };
  int rc = hg_store_abs(r->store, rs->stage, abs, sizeof abs);
  if (rc == 0 && mkdir(abs, 0700) < 0) rc = -errno;
  if (rc == 0) rc = hg_stream_recv_begin(abs, &policy, &rx);
  if (rc < 0) {
    hg__repl_set_error(e, C_IO, "staging: %s", hg_err_str(rc));
    return rc;
  }
  hg_rframe_type t;
  const uint8_t *p;
  size_t len;
  for (;;) {
    rc = hg_rframe_read(x->fd, &x->s, x->buf, HG_REPL_FRAME_BUF, &t, &p, &len,
                        r->timeout_ms);
    if (rc < 0 || t == HG_RF_END) break;
    if (t != HG_RF_DATA) {
      rc = -EPROTO;
      hg__repl_set_error(e, C_BAD_REQUEST, "frame type %d inside a stream", (int)t);
      hg_stream_recv_abort(rx);
      return rc;
    }
    rs->zbytes += len;
    rs->chunks++;
    if ((rc = hg_stream_recv_feed(rx, p, len)) < 0) {
      /* finish() names the cause (a full disk, the child's message) and
       * deletes what the child made. */
      rc = hg_stream_recv_finish(rx, rs->name, NULL, msg, sizeof msg);
      rs->name[0] = '\0';
      return child_error(r, e, rc < 0 ? rc : -EPROTO, msg);
    }
  }
  if (rc < 0) {
    hg_stream_recv_abort(rx);
    return wire_error(e, rc, r->timeout_ms);
  }
  hg_repl_end end;
  if (hg_repl_end_decode(p, len, &end) < 0) {
    hg_stream_recv_abort(rx);
    hg__repl_set_error(e, C_BAD_REQUEST, "malformed END");
    return -EPROTO;
  }
  rc = hg_stream_recv_finish(rx, rs->name, &rs->raw, msg, sizeof msg);
  if (rc < 0) {
    rs->name[0] = '\0';
    return child_error(r, e, rc, msg);
  }
  if (end.zstd_bytes != rs->zbytes || end.chunks != rs->chunks ||
      end.raw_bytes != rs->raw) {
    hg__repl_set_error(
        e, C_CORRUPT,
        "totals differ: got %" PRIu64 " raw, %" PRIu64 " zstd bytes in %" PRIu64
        " chunks; END says %" PRIu64 ", %" PRIu64 ", %" PRIu64,
        rs->raw, rs->zbytes, rs->chunks, end.raw_bytes, end.zstd_bytes, end.chunks);
    return -EPROTO;
  }
  return 0;
}

/* Verifies what the child made (the offered hg__repl_identity, read-only, the
 * expected name) and renames it into place. */
static int promote(xchg *x, const recv_state *rs, hg_repl_error *e) {
  hg_repl *r = x->r;
  const hg_repl_offer *o = &x->offer;
  char want[HG_REPL_NAME_MAX], src[HG_REPL_REL_MAX], dst[HG_REPL_REL_MAX];
  hg_subvol_info info;
  if (o->tmpl)
    snprintf(want, sizeof want, "%s", o->name);
  else
    snprintf(want, sizeof want, "%" PRIu64, o->gen);
  if (strcmp(rs->name, want) != 0) {
    hg__repl_set_error(e, C_CORRUPT, "the stream made %s, not %s", rs->name, want);
    return -EPROTO;
  }
  int rc = hg_path(src, sizeof src, "%s/%s", rs->stage, rs->name);
  if (rc == 0) rc = hg_store_subvol_info(r->store, src, &info);
  if (rc < 0) {
    hg__repl_set_error(e, C_IO, "reading the received subvolume: %s", hg_err_str(rc));
    return rc;
  }
  if (!info.readonly || strcmp(info.received_uuid, o->uuid) != 0) {
    hg__repl_set_error(e, C_CORRUPT, "received subvolume is not %s (received_uuid %s)",
                       o->uuid, info.received_uuid[0] ? info.received_uuid : "none");
    return -EPROTO;
  }
  if (hg__repl_is_closing(r)) {
    hg__repl_set_error(e, C_IO, "the receiver is shutting down");
    return -ECANCELED;
  }
  if (o->tmpl) {
    rc = hg_path(dst, sizeof dst, "templates/%s", o->name);
  } else {
    rc = o->epoch > hg__repl_epoch_read(r, o->sandbox)
             ? hg__repl_epoch_write(r, o->sandbox, o->epoch)
             : 0;
    if (rc == 0)
      rc = hg_path(dst, sizeof dst, "replicas/%s/%" PRIu64, o->sandbox, o->gen);
  }
  if (rc == 0) rc = hg_store_move(r->store, src, dst);
  /* A template registered here meanwhile is the same content (the name
   * carries its digest). */
  if (rc == -EEXIST && o->tmpl) rc = 0;
  if (rc < 0) {
    hg__repl_set_error(e,
                       rc == -EEXIST   ? C_CONFLICT
                       : rc == -ENOSPC ? C_NO_SPACE
                                       : C_IO,
                       "promoting to %s: %s", dst, hg_err_str(rc));
    return rc;
  }
  /* An ACK means the generation is on this node's disk, not in its page
   * cache: a sender that counts it as a replica may then lose its own copy.
   * What could not be made durable is not kept (the sender retries). */
  rc = hg_store_sync(r->store, dst);
  if (rc < 0) {
    hg__repl_set_error(e, C_IO, "syncing %s: %s", dst, hg_err_str(rc));
    if (!o->tmpl) (void)hg_store_subvol_delete(r->store, dst);
    return rc;
  }
  return 0;
}

/* The exchange after REPLY{send}: stream, verify, promote, ACK. */
static void serve_stream(xchg *x, int parent) {
  hg_repl *r = x->r;
  const hg_repl_offer *o = &x->offer;
  recv_state rs;
  hg_repl_error e;
  uint8_t rnd[16];
  char hex[33];
  int64_t t0 = hg_now_ns();
  memset(&rs, 0, sizeof rs);
  memset(&e, 0, sizeof e);
  int rc = hg_random_bytes(rnd, sizeof rnd);
  hg_hex_encode(rnd, sizeof rnd, hex);
  if (rc == 0) rc = hg_path(rs.stage, sizeof rs.stage, "staging/%s", hex);
  if (rc < 0) hg__repl_set_error(&e, C_IO, "staging: %s", hg_err_str(rc));
  if (rc == 0) rc = recv_stream(x, parent, &rs, &e);
  if (rc == 0) rc = promote(x, &rs, &e);
  /* Deletes the staging dir and anything in it, subvolumes included. */
  if (rs.stage[0]) (void)hg_store_subvol_delete(r->store, rs.stage);
  hg__repl_count_bytes(r, DIR_IN, rc == 0 ? rs.raw : 0, rs.zbytes);
  if (rc < 0) {
    recv_failed(x, &e, rc);
    return;
  }
  if (!o->tmpl) hg__repl_retain(r, o->sandbox);
  hg__repl_count_stream(r, DIR_IN, RES_OK);
  char what[256], ptext[24];
  hg_log_info(
      "repl.received", "%s from=%s parent=%s raw=%" PRIu64 " zstd=%" PRIu64 " ms=%.1f",
      hg__repl_what_of(o, what, sizeof what), o->from,
      hg__repl_parent_text(parent < 0 ? NULL : &o->cands[parent], ptext, sizeof ptext),
      rs.raw, rs.zbytes, (double)(hg_now_ns() - t0) / 1e6);
  /* Before the ACK: a sender that holds an ACK knows this node has
   * taken note of the generation too. */
  if (r->on_received)
    r->on_received(r->ud, o->tmpl ? "" : o->sandbox, o->gen, o->tmpl ? o->name : NULL);
  hg_repl_holdings *h = calloc(1, sizeof *h);
  rc = h ? 0 : -ENOMEM;
  if (rc == 0 && !o->tmpl) rc = hg__repl_holdings_of(r, o->sandbox, h);
  if (rc == 0) {
    h->gen = o->gen;
    rc = answer_holdings(x, HG_RF_ACK, h);
  }
  free(h);
  /* Promoted and kept either way; the sender retries and hears HAVE. */
  if (rc < 0)
    hg_log_warn("repl.ack_failed", "%s from=%s err=\"%s\"", what, o->from,
                hg_err_str(rc));
}

static bool have_space(hg_repl *r) {
  uint64_t free_bytes;
  return hg_store_free_bytes(r->store, &free_bytes) < 0 || free_bytes >= HG_REPL_MIN_FREE;
}

/* The verdicts below answer REFUSE themselves and say so with
 * HG_REPL_REFUSE. */
static hg_repl_verdict judge_template(xchg *x) {
  char rel[HG_REPL_REL_MAX];
  if (hg_path(rel, sizeof rel, "templates/%s", x->offer.name) < 0) {
    refuse(x, C_BAD_REQUEST, "template name too long");
    return HG_REPL_REFUSE;
  }
  if (hg_store_is_subvol(x->r->store, rel)) return HG_REPL_HAVE;
  if (!have_space(x->r)) {
    refuse(x, C_NO_SPACE, "less than %llu MiB free", HG_REPL_MIN_FREE >> 20);
    return HG_REPL_REFUSE;
  }
  return HG_REPL_SEND;
}

/* The first candidate we hold with the same hg__repl_identity; -1 for none. */
static int pick_parent(xchg *x, const gen_entry *g, size_t n) {
  const hg_repl_offer *o = &x->offer;
  for (unsigned i = 0; i < o->ncands; i++) {
    const hg_repl_parent *c = &o->cands[i];
    if (c->tmpl) {
      char rel[HG_REPL_REL_MAX];
      hg_subvol_info info;
      if (o->name[0] && hg_path(rel, sizeof rel, "templates/%s", o->name) == 0 &&
          hg__repl_local_subvol(x->r, rel, &info) == 0 &&
          hg__repl_same_identity(&info, c->uuid))
        return (int)i;
      continue;
    }
    for (size_t j = 0; j < n; j++)
      if (g[j].gen == c->gen && hg__repl_same_identity(&g[j].info, c->uuid))
        return (int)i;
  }
  return -1;
}

/* Holding offer->gen already: HAVE when it is the same generation. A
 * different one from a lower epoch was the old owner's, superseded by a
 * newer owner's: deleted. Otherwise two owners made one generation at one
 * epoch, and neither is thrown away here. */
static hg_repl_verdict judge_held(xchg *x, const gen_entry *e, uint64_t held_epoch) {
  const hg_repl_offer *o = &x->offer;
  char rel[HG_REPL_REL_MAX];
  if (hg__repl_same_identity(&e->info, o->uuid)) return HG_REPL_HAVE;
  if (e->owned || o->epoch <= held_epoch) {
    refuse(x, C_CONFLICT, "holds gen %" PRIu64 " as %s (%s, epoch %" PRIu64 ")", e->gen,
           hg__repl_identity(&e->info), e->owned ? "own snapshot" : "replica",
           held_epoch);
    return HG_REPL_REFUSE;
  }
  int rc = hg__repl_gen_rel(o->sandbox, e, rel, sizeof rel);
  if (rc == 0) rc = hg_store_subvol_delete(x->r->store, rel);
  if (rc < 0) {
    refuse(x, C_IO, "deleting superseded gen %" PRIu64 ": %s", e->gen, hg_err_str(rc));
    return HG_REPL_REFUSE;
  }
  hg_log_info(
      "repl.superseded",
      "sandbox=%s gen=%" PRIu64 " old=%s epoch=%" PRIu64 " new=%s new_epoch=%" PRIu64,
      o->sandbox, e->gen, hg__repl_identity(&e->info), held_epoch, o->uuid, o->epoch);
  return HG_REPL_SEND;
}

static hg_repl_verdict judge_gen(xchg *x, int *parent) {
  hg_repl *r = x->r;
  const hg_repl_offer *o = &x->offer;
  if (o->gen == 0) {
    refuse(x, C_BAD_REQUEST, "generation 0");
    return HG_REPL_REFUSE;
  }
  uint64_t held = hg__repl_epoch_read(r, o->sandbox);
  uint64_t known = r->known_epoch ? r->known_epoch(r->ud, o->sandbox) : 0;
  uint64_t floor = held > known ? held : known;
  if (o->epoch < floor) {
    refuse(x, C_STALE, "epoch %" PRIu64 " is below %" PRIu64, o->epoch, floor);
    return HG_REPL_REFUSE;
  }
  gen_entry *g;
  size_t n;
  int rc = hg__repl_gens_list(r, o->sandbox, false, &g, &n);
  if (rc < 0) {
    refuse(x, C_IO, "listing holdings: %s", hg_err_str(rc));
    return HG_REPL_REFUSE;
  }
  hg_repl_verdict v = HG_REPL_SEND;
  for (size_t i = 0; i < n && v == HG_REPL_SEND; i++)
    if (g[i].gen == o->gen) v = judge_held(x, &g[i], held);
  if (v == HG_REPL_SEND) *parent = pick_parent(x, g, n);
  free(g);
  if (v == HG_REPL_SEND && !have_space(r)) {
    refuse(x, C_NO_SPACE, "less than %llu MiB free", HG_REPL_MIN_FREE >> 20);
    v = HG_REPL_REFUSE;
  }
  return v;
}

static void serve_offer(xchg *x) {
  hg_repl *r = x->r;
  const hg_repl_offer *o = &x->offer;
  char key[HG_REPL_NAME_MAX + 2];
  snprintf(key, sizeof key, "%c/%s", o->tmpl ? 't' : 's', o->tmpl ? o->name : o->sandbox);
  if (!hg__repl_slot_take(r)) {
    refuse(x, C_BUSY, "%u receives in progress", r->max_receives);
    return;
  }
  if (hg_keylock_take(&r->locks, key, false) < 0) {
    hg__repl_slot_release(r);
    refuse(x, C_BUSY, "another exchange is receiving %s", o->tmpl ? o->name : o->sandbox);
    return;
  }
  int parent = -1;
  hg_repl_verdict v = o->tmpl ? judge_template(x) : judge_gen(x, &parent);
  if (v == HG_REPL_HAVE) {
    /* The sender's epoch is the highest seen for this sandbox now. */
    if (!o->tmpl && o->epoch > hg__repl_epoch_read(r, o->sandbox))
      (void)hg__repl_epoch_write(r, o->sandbox, o->epoch);
    (void)answer_reply(x, HG_REPL_HAVE, -1, NULL);
    hg__repl_count_stream(r, DIR_IN, RES_HAVE);
  } else if (v == HG_REPL_SEND) {
    int rc = answer_reply(x, HG_REPL_SEND, parent, NULL);
    if (rc == 0) {
      serve_stream(x, parent);
    } else {
      char what[256];
      hg__repl_count_stream(r, DIR_IN, RES_FAILED);
      hg_log_warn("repl.recv_failed", "%s from=%s peer=%s code=io_error msg=\"%s\"",
                  hg__repl_what_of(o, what, sizeof what), o->from, x->peer,
                  hg_err_str(rc));
    }
  }
  hg_keylock_release(&r->locks, key);
  hg__repl_slot_release(r);
}

static void serve_list(xchg *x) {
  hg_repl_holdings *h = calloc(1, sizeof *h);
  int rc = h ? hg__repl_holdings_of(x->r, x->offer.sandbox, h) : -ENOMEM;
  if (rc == 0) {
    (void)answer_holdings(x, HG_RF_LISTED, h);
  } else {
    hg_repl_error e;
    hg__repl_set_error(&e, C_IO, "listing holdings: %s", hg_err_str(rc));
    hg__repl_count_refused(x->r, e.code);
    (void)answer_error(x, &e);
  }
  free(h);
}

/* A first frame that does not authenticate is not answered: an answer
 * would only help whoever is probing. Logged at most once a period. */
static void note_unauth(hg_repl *r, const char *peer, int rc) {
  int64_t now = hg_now_ms();
  pthread_mutex_lock(&r->mu);
  r->refused[C_UNAUTH]++;
  r->streams[DIR_IN][RES_REFUSED]++;
  bool log = r->auth_log_ms == 0 || now - r->auth_log_ms >= HG_REPL_AUTH_LOG_MS;
  uint64_t suppressed = r->auth_suppressed;
  if (log) {
    r->auth_log_ms = now;
    r->auth_suppressed = 0;
  } else {
    r->auth_suppressed++;
  }
  pthread_mutex_unlock(&r->mu);
  if (log)
    hg_log_warn("repl.unauthenticated",
                "peer=%s suppressed=%" PRIu64 " err=\"%s\" msg=\"%s\"", peer, suppressed,
                hg_err_str(rc),
                rc == -ETIMEDOUT ? "no whole first frame within the 2 s to authenticate"
                                 : "first frame failed authentication (another cluster "
                                   "or a wrong key)");
}

static void serve(xchg *x) {
  hg_repl *r = x->r;
  hg_rframe_type t;
  const uint8_t *p;
  size_t len;
  int rc = hg_rframe_session_responder(&x->s, &r->keys);
  /* The whole first frame within HG_REPL_AUTH_MS: a stranger that says
   * nothing, or dribbles, holds its place in the pool no longer. */
  if (rc == 0)
    rc =
        hg_rframe_read(x->fd, &x->s, x->buf, HG_REPL_FRAME_BUF, &t, &p, &len,
                       r->timeout_ms < HG_REPL_AUTH_MS ? r->timeout_ms : HG_REPL_AUTH_MS);
  if (rc == -EBADMSG || rc == -EPROTO || rc == -ETIMEDOUT) {
    note_unauth(r, x->peer, rc);
    return;
  }
  if (rc < 0) {
    hg_log_debug("repl.conn", "peer=%s err=\"%s\"", x->peer, hg_err_str(rc));
    return;
  }
  if (!hg__repl_admit_authed(r, x->in)) {
    hg_log_warn("repl.busy", "peer=%s msg=\"too many connections, closed unanswered\"",
                x->peer);
    return;
  }
  /* An authenticated peer's malformed first frame: without its nonce
   * there is nothing an answer could be bound to. */
  if ((t != HG_RF_OFFER && t != HG_RF_LIST) ||
      hg_repl_offer_decode(p, len, &x->offer) < 0 ||
      (t == HG_RF_OFFER) != (x->offer.uuid[0] != '\0')) {
    hg__repl_count_refused(r, hg__repl_codes[C_BAD_REQUEST].code);
    hg_log_warn("repl.bad_request", "peer=%s type=%d msg=\"malformed first frame\"",
                x->peer, (int)t);
    return;
  }
  hg_rframe_session_nonce(&x->s, x->offer.nonce);
  if (strcmp(x->offer.cluster, r->cluster) != 0) {
    if (t == HG_RF_OFFER) {
      refuse(x, C_OTHER_CLUSTER, "this node is in cluster %s", r->cluster);
    } else {
      hg_repl_error e;
      hg__repl_set_error(&e, C_OTHER_CLUSTER, "this node is in cluster %s", r->cluster);
      hg__repl_count_refused(r, e.code);
      (void)answer_error(x, &e);
    }
    return;
  }
  if (t == HG_RF_LIST)
    serve_list(x);
  else
    serve_offer(x);
}

static void *inbound_main(void *arg) {
  inbound *in = arg;
  hg_repl *r = in->r;
  xchg *x = calloc(1, sizeof *x);
  uint8_t *buf = malloc(HG_REPL_FRAME_BUF);
  if (x && buf) {
    x->r = r;
    x->in = in;
    x->fd = in->fd;
    x->buf = buf;
    memcpy(x->peer, in->peer, sizeof x->peer);
    serve(x);
  }
  free(buf);
  free(x);
  pthread_mutex_lock(&r->mu);
  int fd = in->fd;
  in->fd = -1; /* hg_repl_close must not shut down a reused fd number */
  in->done = true;
  hg__repl_admit_gone(r, in);
  pthread_mutex_unlock(&r->mu);
  close(fd);
  return NULL;
}

/* Joins the threads of finished connections. */
static void reap(hg_repl *r) {
  inbound *done = NULL;
  pthread_mutex_lock(&r->mu);
  for (inbound **pp = &r->conns; *pp;) {
    inbound *in = *pp;
    if (in->done) {
      *pp = in->next;
      in->next = done;
      done = in;
    } else {
      pp = &in->next;
    }
  }
  pthread_mutex_unlock(&r->mu);
  while (done) {
    inbound *next = done->next;
    pthread_join(done->thread, NULL);
    free(done);
    done = next;
  }
}

static void start_inbound(hg_repl *r, int fd, const struct sockaddr_storage *ss) {
  inbound *in = calloc(1, sizeof *in);
  char peer[HG_ADDR_MAX];
  hg__repl_addr_format(ss, peer, sizeof peer);
  bool full = true;
  if (in) {
    in->r = r;
    in->fd = fd;
    in->ss = *ss;
    memcpy(in->peer, peer, sizeof peer);
    pthread_mutex_lock(&r->mu);
    full = !hg__repl_admit(r, in);
    pthread_mutex_unlock(&r->mu);
  }
  if (full || !in) {
    hg_log_warn("repl.busy", "peer=%s msg=\"too many connections, closed unanswered\"",
                peer);
    free(in);
    close(fd);
    return;
  }
  hg__repl_sock_tune(fd, r->timeout_ms);
  int err = pthread_create(&in->thread, NULL, inbound_main, in);
  if (err) {
    /* Never started: undo the registration (only this thread reaps). */
    pthread_mutex_lock(&r->mu);
    for (inbound **pp = &r->conns; *pp; pp = &(*pp)->next)
      if (*pp == in) {
        *pp = in->next;
        break;
      }
    hg__repl_admit_gone(r, in);
    pthread_mutex_unlock(&r->mu);
    hg_log_error("repl.accept", "peer=%s err=\"%s\"", peer, hg_err_str(-err));
    close(fd);
    free(in);
  }
}

void *hg__repl_accept_main(void *arg) {
  hg_repl *r = arg;
  struct pollfd p[2] = {{.fd = r->lfd, .events = POLLIN},
                        {.fd = r->wake, .events = POLLIN}};
  for (;;) {
    int n = poll(p, 2, hg__repl_admit_expire(r));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 || p[1].revents) break;
    if (!(p[0].revents & POLLIN)) continue;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    int fd = accept4(r->lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        /* Out of descriptors: back off instead of spinning on the backlog. */
        hg_log_warn("repl.accept", "err=\"%s\"", hg_err_str(-errno));
        (void)poll(&p[1], 1, 100);
      }
      continue;
    }
    reap(r);
    start_inbound(r, fd, &ss);
  }
  return NULL;
}
