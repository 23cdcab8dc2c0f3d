/* proxy: the L7 egress proxy and the L4 relay (DESIGN §11). gw.h holds
 * the calls gateway.c makes (hg_proxy_accept, _recheck, _close_all); this
 * header adds the limits proxy.c works within and the seams a unit test
 * uses to stand in for the kernel's redirect (tests/unit/test_proxy.c).
 *
 * Per connection, on the gateway loop:
 *   TLS (443)   ClientHello reassembled (sni.h) within HG_PROXY_HELLO_MS;
 *               the SNI name must be allowed AND the original destination
 *               must be among the gateway's DNS answers for it; then the
 *               proxy dials that checked address (never a name it
 *               resolves again: no rebinding window), replays the hello
 *               and relays bytes both ways.
 *   HTTP (80)   every request head (httphead.h) checked the same way, Host
 *               fixed for the life of the connection; credentials swapped
 *               in for hosts in their scope; one request in flight, the
 *               response framing followed so the next head is read at the
 *               right byte. Secrets in scope are masked ('*', same length,
 *               so framing holds) in what comes back, against echo
 *               endpoints (mask.h: across reads, in a chunked body's
 *               decoded bytes, in JSON and URL forms); with one in scope
 *               the request asks for Accept-Encoding: identity and a coded
 *               answer is refused. Credentials with "upgrade" go upstream
 *               as HTTPS through libcurl, answered to the guest with
 *               Content-Length.
 *   relay       CIDR:port entries of the allowlist, bytes both ways.
 * Redirects are passed back, never followed.
 *
 * Environment: HANGAR_GATEWAY_CA_FILE, when set, is a PEM bundle that
 * replaces the system CAs for upgraded (HTTPS upstream) requests. For
 * tests and for sites with a private CA; unset in normal operation.
 */
#ifndef HG_GATEWAY_PROXY_H
#define HG_GATEWAY_PROXY_H

#include <stdint.h>
#include <uv.h>

#include "gateway/gw.h"

#define HG_PROXY_MAX_CONNS 256         /* open connections per sandbox */
#define HG_PROXY_HELLO_MS 5000         /* ClientHello deadline (slowloris) */
#define HG_PROXY_HEAD_MS 15000         /* request head deadline, also keep-alive idle */
#define HG_PROXY_DIAL_MS 10000         /* upstream TCP connect */
#define HG_PROXY_WQ_HIGH (256u * 1024) /* stop reading the other side above this */
#define HG_PROXY_WQ_LOW (64u * 1024)   /* and read again below this */
#define HG_PROXY_RESP_HEAD_MAX (32u * 1024)
#define HG_PROXY_HEAD_OUT_MAX (64u * 1024) /* a request head after substitution */
#define HG_PROXY_UPGRADE_REQ_MAX (16u * 1024 * 1024)  /* body sent over HTTPS */
#define HG_PROXY_UPGRADE_RESP_MAX (64u * 1024 * 1024) /* bigger: 502 */
#define HG_PROXY_UPGRADE_SET_MAX \
  (256u * 1024 * 1024) /* all upgraded bodies held, per sandbox */

/* Test seams. Production leaves them at their defaults. */
typedef struct hg_proxy_seams {
  /* Where the guest meant to go, host byte order. Default: getsockopt
   * SOL_IP SO_ORIGINAL_DST on the accepted socket (set by nft redirect). */
  int (*orig_dst)(uv_tcp_t *guest, uint32_t *ip, uint16_t *port);
  uint16_t https_port; /* upstream port of upgraded requests: 443 */
  unsigned hello_ms;   /* HG_PROXY_HELLO_MS */
  unsigned head_ms;    /* HG_PROXY_HEAD_MS */
} hg_proxy_seams;

extern hg_proxy_seams hg_proxy_test_seams;

#endif
