/* fuzz_inbound: a sandbox's HTTP answer to an inbound port request
 * (api/inbound.c). The input is what the guest sends back, through a
 * socketpair, then the guest closes. Checks that whatever comes back is
 * bounded, carries no hop-by-hop or X-Hangar-* header, no header line
 * broken by CR/LF, and never a 421 (the cluster forwarder's signal).
 *
 *   fuzz_inbound -max_total_time=60 -max_len=65536 corpus/
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "api/inbound.h"

#define MAX_BODY 4096

static void check_headers(const hg_inbound_resp *r) {
  const char *p = r->headers.data, *end = p + r->headers.len;
  while (p && p < end) {
    const char *eol = memmem(p, (size_t)(end - p), "\r\n", 2);
    assert(eol);
    const char *colon = memchr(p, ':', (size_t)(eol - p));
    assert(colon && colon > p);
    char name[300];
    size_t n = (size_t)(colon - p);
    assert(n < sizeof name);
    memcpy(name, p, n);
    name[n] = '\0';
    assert(hg_inbound_header_passes(name));
    assert(!memchr(p, '\n', (size_t)(eol - p)) && !memchr(p, '\r', (size_t)(eol - p)));
    p = eol + 2;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) return 0;
  /* Big enough that the answer and our request both fit without a reader. */
  int big = 1 << 20;
  setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
  setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
  if (size && write(sv[1], data, size) != (ssize_t)size) {
    close(sv[0]);
    close(sv[1]);
    return 0;
  }
  shutdown(sv[1], SHUT_WR);
  hg_http_header h[] = {{"accept", "*/*"}, {"authorization", "Bearer secret"}};
  hg_inbound_req req = {.method = size && data[0] & 1 ? "HEAD" : "GET",
                        .target = "/x?y=1",
                        .headers = h,
                        .nheaders = 2};
  hg_inbound_resp r;
  int rc = hg_inbound_exchange(sv[0], &req, MAX_BODY, 1000, &r);
  if (rc == 0) {
    assert(r.status >= 200 && r.status <= 999 && r.status != 421);
    assert(r.body.len <= MAX_BODY);
    check_headers(&r);
  } else {
    assert(rc == -EPROTO || rc == -ENOBUFS || rc == -ETIMEDOUT || rc == -ECONNRESET ||
           rc == -EPIPE);
  }
  hg_inbound_resp_free(&r);
  close(sv[0]);
  close(sv[1]);
  return 0;
}
