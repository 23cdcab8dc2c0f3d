#include "node/core/curluv.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "node/core/closer.h"
#include "node/core/list.h"
#include "node/core/log.h"

typedef struct cu_sock cu_sock;

struct hg_curluv {
  uv_loop_t *loop;
  CURLM *multi;
  uv_timer_t timer;
  cu_sock *socks; /* watched for curl */
  hg_closer closer; /* the timer and the polls; frees cu */
  int in_curl;    /* > 0 inside a curl call that may run callbacks */
  bool closing;
  hg_curluv_done_cb done;
  void *ud;
};

struct cu_sock {
  uv_poll_t poll;
  curl_socket_t fd;
  hg_curluv *cu;
  cu_sock *prev, *next;
};

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_rc;

static void global_init(void) {
  global_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

int hg_curl_global_init(void) {
  pthread_once(&global_once, global_init);
  return global_rc == CURLE_OK ? 0 : -ENOMEM;
}

/* Hands each finished transfer to the owner. The owner may close cu from
 * its callback: multi is then NULL and the loop ends. */
static void collect(hg_curluv *cu) {
  CURLMsg *m;
  int left;
  while (cu->multi && (m = curl_multi_info_read(cu->multi, &left))) {
    if (m->msg != CURLMSG_DONE) continue;
    cu->done(m->easy_handle, m->data.result, cu->ud);
  }
}

static void action(hg_curluv *cu, curl_socket_t fd, int flags) {
  int running = 0;
  if (!cu->multi) return;
  cu->in_curl++;
  curl_multi_socket_action(cu->multi, fd, flags, &running);
  cu->in_curl--;
  collect(cu);
}

static void on_poll(uv_poll_t *h, int status, int events) {
  cu_sock *k = h->data;
  int flags = 0;
  if (status < 0) flags = CURL_CSELECT_ERR;
  if (events & UV_READABLE) flags |= CURL_CSELECT_IN;
  if (events & UV_WRITABLE) flags |= CURL_CSELECT_OUT;
  action(k->cu, k->fd, flags);
}

static void on_timer(uv_timer_t *t) {
  action(t->data, CURL_SOCKET_TIMEOUT, 0);
}

/* The timer closes only in hg_curluv_close: none open means closing. */
static void cu_free(void *cu) { free(cu); }

static void on_handle_closed(uv_handle_t *h) {
  hg_curluv *cu;
  if (h->type == UV_POLL) {
    cu_sock *k = h->data;
    cu = k->cu;
    free(k);
  } else {
    cu = h->data;
  }
  hg_closer_closed(&cu->closer);
}

static void sock_close(cu_sock *k) {
  hg_curluv *cu = k->cu;
  uv_poll_stop(&k->poll); /* now: curl may close fd and reuse its number */
  HG_LIST_UNLINK(cu->socks, k);
  uv_close((uv_handle_t *)&k->poll, on_handle_closed);
}

static int socket_cb(CURL *e, curl_socket_t fd, int what, void *ud, void *sockp) {
  hg_curluv *cu = ud;
  cu_sock *k = sockp;
  if (what == CURL_POLL_REMOVE) {
    if (k) {
      sock_close(k);
      if (!cu->closing) curl_multi_assign(cu->multi, fd, NULL);
    }
    return 0;
  }
  if (!k) {
    k = calloc(1, sizeof *k);
    if (!k) return -1;
    int rc = uv_poll_init_socket(cu->loop, &k->poll, fd);
    if (rc < 0) {
      hg_log_error("curluv.poll", "fd=%d err=%s", (int)fd, uv_err_name(rc));
      free(k);
      return -1;
    }
    k->fd = fd;
    k->cu = cu;
    k->poll.data = k;
    HG_LIST_PUSH(cu->socks, k);
    hg_closer_add(&cu->closer, 1);
    curl_multi_assign(cu->multi, fd, k);
  }
  int ev = ((what & CURL_POLL_IN) ? UV_READABLE : 0) |
           ((what & CURL_POLL_OUT) ? UV_WRITABLE : 0);
  return uv_poll_start(&k->poll, ev, on_poll) < 0 ? -1 : 0;
}

static int timer_cb(CURLM *m, long ms, void *ud) {
  hg_curluv *cu = ud;
  if (ms < 0)
    uv_timer_stop(&cu->timer);
  else
    uv_timer_start(&cu->timer, on_timer, (uint64_t)ms, 0);
  return 0;
}

int hg_curluv_new(uv_loop_t *loop, hg_curluv_done_cb done, void *ud, hg_curluv **out) {
  int rc = hg_curl_global_init();
  if (rc < 0) return rc;
  hg_curluv *cu = calloc(1, sizeof *cu);
  if (cu) cu->multi = curl_multi_init();
  if (!cu || !cu->multi) {
    free(cu);
    return -ENOMEM;
  }
  cu->loop = loop;
  cu->done = done;
  cu->ud = ud;
  uv_timer_init(loop, &cu->timer);
  cu->timer.data = cu;
  hg_closer_init(&cu->closer, cu, NULL, cu_free);
  hg_closer_add(&cu->closer, 1);
  curl_multi_setopt(cu->multi, CURLMOPT_SOCKETFUNCTION, socket_cb);
  curl_multi_setopt(cu->multi, CURLMOPT_SOCKETDATA, cu);
  curl_multi_setopt(cu->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
  curl_multi_setopt(cu->multi, CURLMOPT_TIMERDATA, cu);
  *out = cu;
  return 0;
}

int hg_curluv_add(hg_curluv *cu, CURL *e) {
  if (!cu->multi) return -ECANCELED;
  cu->in_curl++; /* add_handle calls timer_cb */
  CURLMcode mc = curl_multi_add_handle(cu->multi, e);
  cu->in_curl--;
  return mc == CURLM_OK ? 0 : -ENOMEM;
}

void hg_curluv_remove(hg_curluv *cu, CURL *e) {
  if (!cu->multi) return;
  cu->in_curl++;
  curl_multi_remove_handle(cu->multi, e);
  cu->in_curl--;
}

void hg_curluv_unpause(hg_curluv *cu, CURL *e) {
  cu->in_curl++;
  curl_easy_pause(e, CURLPAUSE_CONT);
  cu->in_curl--;
  collect(cu);
}

bool hg_curluv_in_curl(const hg_curluv *cu) {
  return cu->in_curl > 0;
}

void hg_curluv_close(hg_curluv *cu, void (*closed)(void *ud), void *ud) {
  if (!cu || cu->closing) return;
  cu->closing = true;
  hg_closer_then(&cu->closer, closed, ud);
  cu->in_curl++; /* cleanup closes cached connections: socket_cb REMOVE */
  curl_multi_cleanup(cu->multi);
  cu->in_curl--;
  cu->multi = NULL;
  while (cu->socks) sock_close(cu->socks); /* any curl did not mention */
  uv_timer_stop(&cu->timer);
  uv_close((uv_handle_t *)&cu->timer, on_handle_closed);
}
