/* tls: optional TLS on the API listener (--tls-cert, --tls-key), OpenSSL
 * with memory BIOs on libuv.
 *
 * The HTTP server (api/http.c) is left as it is: each accepted TCP
 * connection gets a relay that terminates TLS and passes the plaintext to
 * the server through a socketpair (hg_http_server_adopt), so every limit,
 * timeout and pre-auth check of the server applies unchanged. Per relay:
 * a 10 s handshake deadline; the ciphertext a read brings is decrypted at
 * once (at most one 64 KiB read buffered in OpenSSL); each direction stops
 * reading while the other side has more than HG_TLS_HIGH_WATER bytes
 * unsent. TLS 1.2 or later, no renegotiation, no compression. A handshake
 * failure, a protocol error or a timeout closes that connection only (and
 * is logged and counted).
 *
 * The server then sees the client on a unix socket: hg_http_req_peer says
 * -EAFNOSUPPORT, so X-Forwarded-For does not get the TLS client's address.
 *
 * Loop thread only. */
#ifndef HG_API_TLS_H
#define HG_API_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#define HG_TLS_HANDSHAKE_MS 10000
#define HG_TLS_HIGH_WATER (1u * 1024 * 1024) /* unsent bytes before the other side pauses */
#define HG_TLS_MAX_CONNS 4096                /* relays at once; more are closed at accept */
#define HG_TLS_READ_BUF (64u * 1024)

typedef struct hg_tls hg_tls;

/* Loads the certificate chain and key (PEM). -EINVAL with a sentence in
 * err (no secret) when either cannot be read or they do not match. */
int hg_tls_new(const char *cert_file, const char *key_file, hg_tls **out, char err[256]);
/* Frees once the last relay has closed (relays keep the context). */
void hg_tls_free(hg_tls *t);

/* Accepts one connection on listener and relays it; adopt(ud, fd) hands
 * the plaintext end of the socketpair to the HTTP server (0: it owns fd).
 * Errors are logged; the accepted connection is closed. */
void hg_tls_accept(hg_tls *t, uv_stream_t *listener, int (*adopt)(void *ud, int fd),
                   void *ud);

typedef struct hg_tls_stats {
  uint64_t accepted, handshakes, failed, timeouts, refused;
  unsigned active;
} hg_tls_stats;
void hg_tls_get_stats(const hg_tls *t, hg_tls_stats *out);

#endif
