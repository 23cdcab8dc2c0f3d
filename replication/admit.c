/* repl admit: which inbound connections get a thread, and for how long
 * without proof of the cluster key (issue 16, item 6; docs/security.md).
 *
 * A connection is a stranger until its first frame's MAC checks out. Idle
 * strangers used to share the 8 slots with peers for 30 s each, so a few
 * idle sockets held off every inbound replication. Now:
 *  - a stranger has HG_REPL_AUTH_MS to authenticate (receive.c reads the
 *    first frame with that deadline);
 *  - strangers have their own pool, HG_REPL_STRANGERS_MAX, and one source
 *    address holds at most HG_REPL_STRANGERS_PER_HOST of it. A newcomer
 *    never waits for room: it takes the place of the oldest stranger from
 *    its own address, or, with the pool full, of the oldest stranger of
 *    all. The one pushed out still has HG_REPL_EVICT_GRACE_MS to
 *    authenticate before it is closed: a node that opens several streams
 *    at once (parallel suspends) must not lose the first to the third. A
 *    real peer sends its OFFER at once, so it authenticates long before
 *    that, and one address flooding pushes out only its own;
 *  - authenticated connections are counted apart (max_receives +
 *    HG_REPL_EXTRA_CONNS), so strangers never take a peer's slot.
 * Everything here runs under r->mu. */
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include "node/core/log.h"
#include "node/core/util.h"
#include "replication/repl_internal.h"

static bool same_host(const struct sockaddr_storage *a,
                      const struct sockaddr_storage *b) {
  if (a->ss_family != b->ss_family) return false;
  if (a->ss_family == AF_INET)
    return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
           ((const struct sockaddr_in *)b)->sin_addr.s_addr;
  if (a->ss_family == AF_INET6)
    return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
                  &((const struct sockaddr_in6 *)b)->sin6_addr,
                  sizeof(struct in6_addr)) == 0;
  return false;
}

static bool is_stranger(const inbound *in) {
  return !in->authed && !in->evicted && !in->done;
}

/* A stranger gives up its place; it is closed at doom_ms unless it has
 * authenticated by then (hg__repl_admit_expire). */
static void evict(hg_repl *r, inbound *in) {
  in->evicted = true;
  in->doom_ms = hg_now_ms() + HG_REPL_EVICT_GRACE_MS;
  r->nstrangers--;
}

int hg__repl_admit_expire(hg_repl *r) {
  int64_t now = hg_now_ms(), next = -1;
  pthread_mutex_lock(&r->mu);
  for (inbound *in = r->conns; in; in = in->next) {
    if (!in->doom_ms || in->authed || in->done) continue;
    if (in->doom_ms > now) {
      if (next < 0 || in->doom_ms - now < next) next = in->doom_ms - now;
      continue;
    }
    /* its blocked read fails and its thread ends */
    in->doom_ms = 0;
    r->refused[C_UNAUTH]++;
    r->streams[DIR_IN][RES_REFUSED]++;
    if (in->fd >= 0) shutdown(in->fd, SHUT_RDWR);
  }
  pthread_mutex_unlock(&r->mu);
  return (int)next;
}

/* The stranger to make room with, or NULL when there is room. */
static inbound *make_room(hg_repl *r, const struct sockaddr_storage *ss) {
  inbound *same = NULL, *any = NULL;
  unsigned nsame = 0;
  for (inbound *in = r->conns; in; in = in->next) {
    if (!is_stranger(in)) continue;
    /* the list is newest first: the last one seen is the oldest */
    any = in;
    if (same_host(&in->ss, ss)) {
      same = in;
      nsame++;
    }
  }
  if (nsame >= HG_REPL_STRANGERS_PER_HOST) return same;
  if (r->nstrangers >= HG_REPL_STRANGERS_MAX) return any;
  return NULL;
}

bool hg__repl_admit(hg_repl *r, inbound *in) {
  /* pushed-out strangers live out their grace: this bounds their threads
   * under a flood (beyond it, newcomers are closed unanswered) */
  unsigned cap = HG_REPL_CONNS_MAX + r->max_receives + HG_REPL_EXTRA_CONNS;
  if (r->nconns >= cap) {
    r->refused[C_BUSY]++;
    return false;
  }
  inbound *old = make_room(r, &in->ss);
  if (old) evict(r, old);
  in->next = r->conns;
  r->conns = in;
  r->nconns++;
  r->nstrangers++;
  return true;
}

bool hg__repl_admit_authed(hg_repl *r, inbound *in) {
  bool ok;
  pthread_mutex_lock(&r->mu);
  /* pushed out but within its grace: closed only once doom_ms passes */
  ok =
      (!in->evicted || in->doom_ms) && r->nauthed < r->max_receives + HG_REPL_EXTRA_CONNS;
  if (!in->evicted) r->nstrangers--;
  in->evicted = true; /* a stranger no more */
  in->doom_ms = 0;
  if (ok) {
    in->authed = true;
    r->nauthed++;
  } else if (r->nauthed >= r->max_receives + HG_REPL_EXTRA_CONNS) {
    r->refused[C_BUSY]++;
  }
  pthread_mutex_unlock(&r->mu);
  return ok;
}

void hg__repl_admit_gone(hg_repl *r, inbound *in) {
  if (in->authed)
    r->nauthed--;
  else if (!in->evicted)
    r->nstrangers--;
  r->nconns--;
}
