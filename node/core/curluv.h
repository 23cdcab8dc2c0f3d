/* curluv: libcurl's multi interface driven by a libuv loop, written once
 * for every module that makes HTTP calls from the loop (the API's forwarder,
 * the egress proxy's HTTPS upstreams).
 *
 * curl tells us which sockets it wants watched (one uv_poll each) and when
 * it next needs a call (one uv_timer); both call curl_multi_socket_action,
 * after which finished transfers are handed to the owner's done callback.
 * Whatever curl calls back (header, body, socket and timer functions) runs
 * inside curl, where curl forbids adding or removing transfers:
 * hg_curluv_in_curl() tells an owner whether it is inside such a call. The
 * done callback runs outside them, so it may remove and clean up its
 * transfer, start another, or close the whole thing. */
#ifndef HG_CORE_CURLUV_H
#define HG_CORE_CURLUV_H

#include <curl/curl.h>
#include <stdbool.h>
#include <uv.h>

typedef struct hg_curluv hg_curluv;

/* A transfer finished with result. It is still in the multi: remove it
 * (hg_curluv_remove) before curl_easy_cleanup. */
typedef void (*hg_curluv_done_cb)(CURL *e, CURLcode result, void *ud);

/* curl's global state, set up once per process whichever thread asks first
 * (curl_global_init is not thread-safe in older libcurls) and left to the
 * process's exit: -ENOMEM when it failed, then and on every later call. */
int hg_curl_global_init(void);

int hg_curluv_new(uv_loop_t *loop, hg_curluv_done_cb done, void *ud, hg_curluv **out);
/* Adds a transfer: -ENOMEM when curl refuses it. */
int hg_curluv_add(hg_curluv *cu, CURL *e);
void hg_curluv_remove(hg_curluv *cu, CURL *e);
/* Unpauses e; curl hands it what it kept at once, then done may run. */
void hg_curluv_unpause(hg_curluv *cu, CURL *e);
bool hg_curluv_in_curl(const hg_curluv *cu);
/* Cleans up the multi (transfers still in it are the owner's to clean up
 * after), closes the handles and frees cu; closed(ud), when given, runs
 * once the last handle is closed. No done callback runs after this call. */
void hg_curluv_close(hg_curluv *cu, void (*closed)(void *ud), void *ud);

#endif
