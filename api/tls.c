/* tls: TLS relays in front of the HTTP server (tls.h).
 *
 * One relay per client: net (the client's TCP, ciphertext), plain (our end
 * of the socketpair whose other end the HTTP server adopted), a timer for
 * the handshake. Ciphertext in -> BIO_write(rbio) -> SSL_read -> plain;
 * plain in -> SSL_write -> BIO_read(wbio) -> net. Both memory BIOs are
 * drained every time they are filled, so neither grows past one read. */
#include "api/tls.h"

#include <errno.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "node/core/closer.h"
#include "node/core/list.h"
#include "node/core/log.h"

typedef struct relay relay;

struct hg_tls {
  SSL_CTX *ctx;
  uv_loop_t *loop;
  hg_tls_stats st;
  bool freed;
};

struct relay {
  hg_tls *t;
  SSL *ssl;
  BIO *rbio, *wbio; /* owned by ssl */
  uv_tcp_t net;
  uv_pipe_t plain;
  uv_timer_t timer;
  hg_closer closer; /* net, plain, timer; frees r (relay_free) */
  bool closing, net_paused, plain_paused, plain_eof_sent, net_eof, plain_eof;
  bool handshaken;
  char buf[HG_TLS_READ_BUF]; /* reads from either side land here, one at a time */
};

typedef struct relay_write {
  uv_write_t w;
  relay *r;
  char data[];
} relay_write;

static void tls_maybe_free(hg_tls *t) {
  if (!t->freed || t->st.active) return;
  SSL_CTX_free(t->ctx);
  free(t);
}

static const char *ssl_err(void) {
  static char b[160];
  unsigned long e = ERR_get_error();
  ERR_clear_error();
  if (!e) return "connection closed";
  ERR_error_string_n(e, b, sizeof b);
  return b;
}

int hg_tls_new(const char *cert_file, const char *key_file, hg_tls **out, char err[256]) {
  err[0] = '\0';
  if (!cert_file || !*cert_file || !key_file || !*key_file) {
    snprintf(err, 256, "--tls-cert and --tls-key go together");
    return -EINVAL;
  }
  SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
  hg_tls *t = calloc(1, sizeof *t);
  int rc = ctx && t ? 0 : -ENOMEM;
  if (rc == 0) {
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION |
                                 SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
    if (SSL_CTX_use_certificate_chain_file(ctx, cert_file) != 1)
      snprintf(err, 256, "cannot load the certificate %s: %s", cert_file, ssl_err());
    else if (SSL_CTX_use_PrivateKey_file(ctx, key_file, SSL_FILETYPE_PEM) != 1)
      snprintf(err, 256, "cannot load the key %s: %s", key_file, ssl_err());
    else if (SSL_CTX_check_private_key(ctx) != 1)
      snprintf(err, 256, "the key %s does not match the certificate %s", key_file, cert_file);
    if (err[0]) rc = -EINVAL;
  }
  if (rc < 0) {
    SSL_CTX_free(ctx);
    free(t);
    return rc;
  }
  t->ctx = ctx;
  *out = t;
  return 0;
}

void hg_tls_free(hg_tls *t) {
  if (!t) return;
  t->freed = true;
  tls_maybe_free(t);
}

void hg_tls_get_stats(const hg_tls *t, hg_tls_stats *out) { *out = t->st; }

/* ---- one relay ------------------------------------------------------------------ */

static void relay_free(void *rv) {
  relay *r = rv;
  hg_tls *t = r->t;
  SSL_free(r->ssl);
  free(r);
  t->st.active--;
  tls_maybe_free(t);
}

static void relay_closed(uv_handle_t *h) {
  relay *r = h->data;
  hg_closer_closed(&r->closer);
}

static void relay_close(relay *r) {
  if (r->closing) return;
  r->closing = true;
  uv_close((uv_handle_t *)&r->net, relay_closed);
  uv_close((uv_handle_t *)&r->plain, relay_closed);
  uv_close((uv_handle_t *)&r->timer, relay_closed);
}

static void relay_fail(relay *r, const char *what, const char *why) {
  if (r->closing) return;
  if (!r->handshaken) r->t->st.failed++;
  hg_log_info("api.tls_closed", "what=\"%s\" err=\"%s\"", what, why);
  relay_close(r);
}

static void relay_reads(relay *r);

static void on_relay_write(uv_write_t *w, int status) {
  relay_write *rw = (relay_write *)w;
  relay *r = rw->r;
  free(rw);
  if (r->closing) return;
  if (status < 0) {
    relay_fail(r, "write", uv_err_name(status));
    return;
  }
  relay_reads(r);
}

static int relay_send(relay *r, uv_stream_t *to, const void *data, size_t n) {
  relay_write *w = malloc(sizeof *w + n);
  if (!w) return -ENOMEM;
  w->r = r;
  memcpy(w->data, data, n);
  uv_buf_t b = uv_buf_init(w->data, (unsigned)n);
  int rc = uv_write(&w->w, to, &b, 1, on_relay_write);
  if (rc < 0) free(w);
  return rc;
}

/* Whatever OpenSSL wrote (handshake records, data, alerts) to the client. */
static int flush_net(relay *r) {
  char out[16 * 1024];
  int n;
  while ((n = BIO_read(r->wbio, out, sizeof out)) > 0) {
    int rc = relay_send(r, (uv_stream_t *)&r->net, out, (size_t)n);
    if (rc < 0) return rc;
  }
  return 0;
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b) {
  relay *r = h->data;
  *b = uv_buf_init(r->buf, sizeof r->buf);
}

static void on_net_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b);
static void on_plain_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b);

static void set_reading(relay *r, uv_stream_t *s, bool *paused, bool want, uv_read_cb cb) {
  if (want && *paused) {
    if (uv_read_start(s, on_alloc, cb) == 0) *paused = false;
  } else if (!want && !*paused) {
    uv_read_stop(s);
    *paused = true;
  }
}

/* Each side reads while the other has little unsent; the client side also
 * stops once its TLS stream ended, the server side once it said EOF (and
 * before the handshake: the server speaks only after a request). */
static void relay_reads(relay *r) {
  if (r->closing) return;
  bool net_want = !r->net_eof &&
                  uv_stream_get_write_queue_size((uv_stream_t *)&r->plain) < HG_TLS_HIGH_WATER;
  bool plain_want = !r->plain_eof && r->handshaken &&
                    uv_stream_get_write_queue_size((uv_stream_t *)&r->net) < HG_TLS_HIGH_WATER;
  set_reading(r, (uv_stream_t *)&r->net, &r->net_paused, net_want, on_net_read);
  set_reading(r, (uv_stream_t *)&r->plain, &r->plain_paused, plain_want, on_plain_read);
}

/* The server closed and its last bytes (with our close_notify) are out. */
static void on_net_shutdown(uv_shutdown_t *sh, int status) {
  relay *r = sh->data;
  free(sh);
  relay_close(r);
}

static void on_plain_shutdown(uv_shutdown_t *sh, int status) { free(sh); }

/* Decrypts what the client sent, to the server. */
static void pump_in(relay *r) {
  for (;;) {
    int n = SSL_read(r->ssl, r->buf, sizeof r->buf);
    if (n > 0) {
      if (relay_send(r, (uv_stream_t *)&r->plain, r->buf, (size_t)n) < 0) {
        relay_fail(r, "to server", "write failed");
        return;
      }
      continue;
    }
    int e = SSL_get_error(r->ssl, n);
    if (e == SSL_ERROR_WANT_READ) break;
    if (e == SSL_ERROR_ZERO_RETURN) { /* close_notify: no more requests */
      r->net_eof = true;
      uv_shutdown_t *sh = calloc(1, sizeof *sh);
      if (!sh || uv_shutdown(sh, (uv_stream_t *)&r->plain, on_plain_shutdown) < 0) {
        free(sh);
        relay_close(r);
        return;
      }
      break;
    }
    flush_net(r); /* an alert for the client, if OpenSSL made one */
    relay_fail(r, r->handshaken ? "tls" : "handshake", ssl_err());
    return;
  }
  if (!r->handshaken && SSL_is_init_finished(r->ssl)) {
    r->handshaken = true;
    r->t->st.handshakes++;
    uv_timer_stop(&r->timer);
  }
}

static void on_net_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b) {
  relay *r = s->data;
  if (r->closing || n == 0) return;
  if (n < 0) { /* the client went (EOF without close_notify, or reset) */
    relay_close(r);
    return;
  }
  if (BIO_write(r->rbio, b->base, (int)n) != (int)n) {
    relay_fail(r, "read", "out of memory");
    return;
  }
  pump_in(r);
  if (r->closing) return;
  if (flush_net(r) < 0) {
    relay_fail(r, "to client", "write failed");
    return;
  }
  relay_reads(r);
}

static void on_plain_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b) {
  relay *r = s->data;
  if (r->closing || n == 0) return;
  if (n < 0) { /* the server closed: close_notify, then the connection */
    r->plain_eof = r->net_eof = true; /* nothing more either way */
    relay_reads(r);
    if (r->handshaken) SSL_shutdown(r->ssl);
    flush_net(r);
    uv_shutdown_t *sh = calloc(1, sizeof *sh);
    if (sh) sh->data = r;
    if (!sh || uv_shutdown(sh, (uv_stream_t *)&r->net, on_net_shutdown) < 0) {
      free(sh);
      relay_close(r);
    }
    return;
  }
  if (SSL_write(r->ssl, b->base, (int)n) != (int)n) {
    relay_fail(r, "tls write", ssl_err());
    return;
  }
  if (flush_net(r) < 0) {
    relay_fail(r, "to client", "write failed");
    return;
  }
  relay_reads(r);
}

static void on_handshake_timeout(uv_timer_t *tm) {
  relay *r = tm->data;
  r->t->st.timeouts++;
  relay_fail(r, "handshake", "no complete handshake within 10 s");
}

static int relay_open(relay *r, uv_stream_t *listener, int (*adopt)(void *, int), void *ud) {
  uv_loop_t *loop = listener->loop;
  uv_tcp_init(loop, &r->net);
  uv_pipe_init(loop, &r->plain, 0);
  uv_timer_init(loop, &r->timer);
  r->net.data = r->plain.data = r->timer.data = r;
  hg_closer_init(&r->closer, r, NULL, relay_free);
  hg_closer_add(&r->closer, 3);
  r->net_paused = r->plain_paused = true;
  int rc = uv_accept(listener, (uv_stream_t *)&r->net);
  if (rc < 0) return rc;
  r->ssl = SSL_new(r->t->ctx);
  r->rbio = BIO_new(BIO_s_mem());
  r->wbio = BIO_new(BIO_s_mem());
  if (!r->ssl || !r->rbio || !r->wbio) {
    BIO_free(r->rbio);
    BIO_free(r->wbio);
    return -ENOMEM;
  }
  BIO_set_mem_eof_return(r->rbio, -1); /* empty: "want read", not EOF */
  SSL_set_bio(r->ssl, r->rbio, r->wbio);
  SSL_set_accept_state(r->ssl);
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv) < 0) return -errno;
  if ((rc = uv_pipe_open(&r->plain, sv[1])) < 0) {
    close(sv[0]);
    close(sv[1]);
    return rc;
  }
  if ((rc = adopt(ud, sv[0])) < 0) {
    close(sv[0]);
    return rc;
  }
  uv_tcp_nodelay(&r->net, 1);
  uv_timer_start(&r->timer, on_handshake_timeout, HG_TLS_HANDSHAKE_MS, 0);
  relay_reads(r);
  return 0;
}

void hg_tls_accept(hg_tls *t, uv_stream_t *listener, int (*adopt)(void *ud, int fd), void *ud) {
  relay *r = calloc(1, sizeof *r);
  if (!r) {
    hg_log_error("api.tls_accept", "err=ENOMEM");
    return;
  }
  r->t = t;
  t->st.active++;
  t->st.accepted++;
  int rc = relay_open(r, listener, adopt, ud);
  if (rc == 0 && t->st.active > HG_TLS_MAX_CONNS) rc = -EMFILE;
  if (rc < 0) {
    if (rc == -EMFILE) t->st.refused++;
    hg_log_warn("api.tls_accept", "err=\"%s\"", strerror(-rc));
    relay_close(r);
  }
}
