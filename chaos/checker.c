/* chaos/checker.c: the invariants over a chaos history (checker.h). */
#include "checker.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CH_LINE_MAX (4u << 20)

static double ev_t(const json_t *e) { return json_number_value(json_object_get(e, "t")); }
static const char *ev_s(const json_t *e, const char *k) {
  return json_string_value(json_object_get(e, k));
}
static bool ev_is(const json_t *e, const char *kind) {
  const char *v = ev_s(e, "ev");
  return v && strcmp(v, kind) == 0;
}

static int by_t(const void *a, const void *b) {
  double x = ev_t(*(json_t *const *)a), y = ev_t(*(json_t *const *)b);
  return x < y ? -1 : x > y;
}

int hg_chaos_load(const char *path, json_t **events) {
  FILE *f = fopen(path, "r");
  if (!f) return -errno;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  int lineno = 0;
  size_t count = 0, room = 1024;
  json_t **v = malloc(room * sizeof *v);
  int rc = v ? 0 : -ENOMEM;
  while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
    lineno++;
    if (n <= 1) continue;
    if ((size_t)n > CH_LINE_MAX) {
      fprintf(stderr, "chaos/check: %s:%d: line too long\n", path, lineno);
      rc = -EINVAL;
      break;
    }
    json_error_t e;
    json_t *j = json_loadb(line, (size_t)n, 0, &e);
    if (!j || !json_is_object(j) || !json_is_number(json_object_get(j, "t")) || !ev_s(j, "ev")) {
      /* a run cut short leaves a half line at the end: that one is skipped */
      json_decref(j);
      if (line[n - 1] != '\n') break;
      fprintf(stderr, "chaos/check: %s:%d: not an event (%s)\n", path, lineno, e.text);
      rc = -EINVAL;
      break;
    }
    if (count == room) {
      json_t **nv = realloc(v, (room *= 2) * sizeof *v);
      if (!nv) {
        json_decref(j);
        rc = -ENOMEM;
        break;
      }
      v = nv;
    }
    v[count++] = j;
  }
  free(line);
  fclose(f);
  if (rc == 0) qsort(v, count, sizeof *v, by_t); /* stable enough: ties keep no meaning */
  json_t *arr = rc == 0 ? json_array() : NULL;
  for (size_t i = 0; i < count; i++) {
    if (arr) json_array_append_new(arr, v[i]);
    else json_decref(v[i]);
  }
  free(v);
  if (rc == 0) *events = arr;
  return rc;
}

/* ---- requests: invoke + completion joined --------------------------------- */

typedef struct req {
  int id;
  const char *op, *sb, *outcome; /* outcome NULL: never completed */
  double t_inv, t_done;
  int node;
  long long value;
  const json_t *done; /* the completion event */
} req;

typedef struct hist {
  json_t *events;
  req *reqs;
  size_t nreq;
  json_t *violations;
  json_t *vm_starts; /* sb -> [t, ...]: when the watcher first saw each of its VMMs */
  json_t *checked;   /* invariant -> how many things it judged: a run that gave a rule
                        nothing to judge passes it emptily, and the report says so */
} hist;

static req *find_req(hist *h, int id) {
  for (size_t i = h->nreq; i-- > 0;)
    if (h->reqs[i].id == id) return &h->reqs[i];
  return NULL;
}

static int join_requests(hist *h) {
  size_t n = json_array_size(h->events), i;
  h->reqs = calloc(n + 1, sizeof *h->reqs);
  if (!h->reqs) return -ENOMEM;
  json_t *e;
  json_array_foreach(h->events, i, e) {
    int id = (int)json_integer_value(json_object_get(e, "req"));
    if (ev_is(e, "invoke")) {
      req *r = &h->reqs[h->nreq++];
      *r = (req){.id = id, .op = ev_s(e, "op"), .sb = ev_s(e, "sb"), .t_inv = ev_t(e),
                 .node = (int)json_integer_value(json_object_get(e, "node")),
                 .value = json_integer_value(json_object_get(e, "value"))};
      if (!r->op) r->op = "?";
      if (!r->sb) r->sb = "";
    } else if (ev_is(e, "ok") || ev_is(e, "fail") || ev_is(e, "unknown")) {
      req *r = find_req(h, id);
      if (!r || r->outcome) continue;
      r->outcome = ev_s(e, "ev");
      r->t_done = ev_t(e);
      r->done = e;
      const char *sb = ev_s(e, "sb"); /* a create learns its id in the answer */
      if (sb && !r->sb[0]) r->sb = sb;
    }
  }
  return 0;
}

static void checked(hist *h, const char *inv) {
  json_object_set_new(h->checked, inv,
                      json_integer(json_integer_value(json_object_get(h->checked, inv)) + 1));
}

static bool is_ok(const req *r) { return r->outcome && strcmp(r->outcome, "ok") == 0; }
static bool op_is(const req *r, const char *op) { return strcmp(r->op, op) == 0; }

static void violation(hist *h, const char *inv, double t, const char *sb, int node,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void violation(hist *h, const char *inv, double t, const char *sb, int node,
                      const char *fmt, ...) {
  char detail[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  json_t *v = json_pack("{s:s,s:f,s:s}", "invariant", inv, "t", t, "detail", detail);
  if (sb && sb[0]) json_object_set_new(v, "sb", json_string(sb));
  if (node > 0) json_object_set_new(v, "node", json_integer(node));
  json_array_append_new(h->violations, v);
}

/* ---- lost_state --------------------------------------------------------------- */

static bool ledger_has(const json_t *ledger, long long v) {
  size_t i;
  json_t *x;
  json_array_foreach(ledger, i, x) if (json_integer_value(x) == v) return true;
  return false;
}

/* True when a resume of sb that may have taken effect (not a fail) could
 * have come between t0 and t1: the sandbox was then not running, so what
 * it ran since its last generation may be gone (a crash) and a suspend
 * after it saves another line of history. */
static bool resumed_between(const hist *h, const char *sb, double t0, double t1) {
  for (size_t r = 0; r < h->nreq; r++) {
    const req *rp = &h->reqs[r];
    if (!op_is(rp, "resume") || strcmp(rp->sb, sb) != 0) continue;
    if (rp->outcome && strcmp(rp->outcome, "fail") == 0) continue;
    if (rp->t_inv < t1 && (!rp->outcome || rp->t_done > t0)) return true;
  }
  return false;
}

/* {sb: [t, ...]}: the first sample that shows each VMM (node, pid) of sb.
 * A VMM that appears is a VM started from some generation: a resume, or a
 * failover's restore after its owner died or was fenced, which no client
 * asked for and which may come from an older generation. */
static json_t *vm_starts(const hist *h) {
  json_t *out = json_object(), *seen = json_object();
  size_t i, k;
  json_t *e, *v;
  json_array_foreach(h->events, i, e) {
    if (!ev_is(e, "sample")) continue;
    json_array_foreach(json_object_get(e, "vms"), k, v) {
      const char *sb = ev_s(v, "sb");
      if (!sb) continue;
      char key[128];
      snprintf(key, sizeof key, "%s/%lld/%lld", sb, json_integer_value(json_object_get(v, "node")),
               json_integer_value(json_object_get(v, "pid")));
      if (json_object_get(seen, key)) continue;
      json_object_set_new(seen, key, json_true());
      json_t *list = json_object_get(out, sb);
      if (!list) json_object_set_new(out, sb, list = json_array());
      json_array_append_new(list, json_real(ev_t(e)));
    }
  }
  json_decref(seen);
  return out;
}

/* True when the watcher first saw a VMM of sb in (t0, t1 + a sample's lag]:
 * a VM started from a generation then, so what sb showed by t0 may be
 * gone from what it ran at t1. */
static bool vm_started_between(const hist *h, const char *sb, double t0, double t1) {
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(h->vm_starts, sb), i, t) {
    double x = json_number_value(t);
    if (x > t0 && x <= t1 + CH_SAMPLE_LAG_MS) return true;
  }
  return false;
}

/* The generation-taking requests: an acknowledged one holds what the
 * sandbox had when it was invoked, on its holders' disks. A suspend keeps
 * it until a resume; a checkpoint's sandbox runs on, and a failover runs
 * it again from its newest checkpoint (DESIGN §9), which holds it too. */
static bool takes_generation(const req *r) {
  return op_is(r, "suspend") || op_is(r, "checkpoint");
}

/* When what sb showed a client by t (an acknowledged append, a counter
 * read) became durable: the earliest acknowledgement of a suspend or
 * checkpoint invoked at t or later with no resume and no VM start in
 * between; -1 when none. */
static double durable_after(const hist *h, const char *sb, double t) {
  double durable = -1;
  for (size_t s = 0; s < h->nreq; s++) {
    const req *sp = &h->reqs[s];
    if (takes_generation(sp) && is_ok(sp) && strcmp(sp->sb, sb) == 0 && sp->t_inv >= t &&
        (durable < 0 || sp->t_done < durable) && !resumed_between(h, sb, t, sp->t_inv) &&
        !vm_started_between(h, sb, t, sp->t_inv))
      durable = sp->t_done;
  }
  return durable;
}

/* An append is durable once a suspend or checkpoint invoked after its
 * acknowledgement, with no resume and no VM start in between, is
 * acknowledged: every read invoked after that must hold it. */
static void check_lost_state(hist *h) {
  for (size_t a = 0; a < h->nreq; a++) {
    const req *ap = &h->reqs[a];
    if (!op_is(ap, "exec") || !is_ok(ap)) continue;
    double durable = durable_after(h, ap->sb, ap->t_done);
    if (durable < 0) continue;
    checked(h, "lost_state");
    for (size_t r = 0; r < h->nreq; r++) {
      const req *rp = &h->reqs[r];
      if (!is_ok(rp) || strcmp(rp->sb, ap->sb) != 0 || rp->t_inv <= durable) continue;
      const json_t *ledger = json_object_get(rp->done, "ledger");
      if (!json_is_array(ledger) || ledger_has(ledger, ap->value)) continue;
      violation(h, "lost_state", rp->t_done, ap->sb, rp->node,
                "append %lld (req %d, acknowledged at %.0f ms, in a generation by %.0f ms) missing "
                "from the ledger %s req %d read through n%d at %.0f ms",
                ap->value, ap->id, ap->t_done, durable, rp->op, rp->id, rp->node, rp->t_inv);
      break; /* one read is enough to show it */
    }
  }
}

/* ---- lost_memory ----------------------------------------------------------------- */

/* The memory counter: a read saw C (the writer's counter, in guest RAM);
 * once a suspend or checkpoint invoked after that read, with no resume and
 * no VM start in between, is acknowledged, C is in a generation's memory,
 * and every read invoked after that acknowledgement must see C or more. A counter gone ("mem":
 * null: the VM came back without its memory) is below every C. */
static void check_lost_memory(hist *h) {
  json_t *told = json_object(); /* sb -> the req id of the floor last reported */
  double *dur = malloc((h->nreq + 1) * sizeof *dur); /* each counter read's durable time */
  if (!dur) {
    json_decref(told);
    return;
  }
  for (size_t a = 0; a < h->nreq; a++) {
    const req *ap = &h->reqs[a];
    dur[a] = is_ok(ap) && json_is_integer(json_object_get(ap->done, "mem"))
                 ? durable_after(h, ap->sb, ap->t_done)
                 : -1;
  }
  for (size_t r = 0; r < h->nreq; r++) { /* reqs are in invoke order */
    const req *rp = &h->reqs[r];
    json_t *mem = is_ok(rp) ? json_object_get(rp->done, "mem") : NULL;
    if (!mem) continue;
    const req *floor = NULL;
    double floor_durable = 0;
    for (size_t a = 0; a < h->nreq; a++) {
      const req *ap = &h->reqs[a];
      if (dur[a] < 0 || dur[a] >= rp->t_inv || strcmp(ap->sb, rp->sb) != 0) continue;
      json_t *seen = json_object_get(ap->done, "mem");
      if (!floor || json_integer_value(seen) > json_integer_value(json_object_get(floor->done, "mem")))
        floor = ap, floor_durable = dur[a];
    }
    if (!floor) continue;
    checked(h, "lost_memory");
    long long c = json_integer_value(json_object_get(floor->done, "mem"));
    if (json_is_integer(mem) && json_integer_value(mem) >= c) continue;
    if (json_integer_value(json_object_get(told, rp->sb)) == floor->id) continue;
    json_object_set_new(told, rp->sb, json_integer(floor->id));
    char got[32];
    if (json_is_integer(mem)) snprintf(got, sizeof got, "%lld", json_integer_value(mem));
    else snprintf(got, sizeof got, "none (counter gone)");
    violation(h, "lost_memory", rp->t_done, rp->sb, rp->node,
              "memory counter %lld (read by req %d at %.0f ms, in a generation by %.0f ms) went back "
              "to %s in req %d read through n%d at %.0f ms",
              c, floor->id, floor->t_done, floor_durable, got, rp->id, rp->node, rp->t_inv);
  }
  json_decref(told);
  free(dur);
}

/* ---- lost_sandbox --------------------------------------------------------------- */

static void check_lost_sandbox(hist *h) {
  for (size_t c = 0; c < h->nreq; c++) {
    const req *cp = &h->reqs[c];
    /* a create names its sandbox; a fork its child */
    const char *made = op_is(cp, "fork") ? ev_s(cp->done, "child") : cp->sb;
    if (!(op_is(cp, "create") || op_is(cp, "fork")) || !is_ok(cp) || !made || !made[0]) continue;
    bool deleted = false; /* a delete that may have happened: ok, unknown, unfinished */
    for (size_t d = 0; d < h->nreq; d++) {
      const req *dp = &h->reqs[d];
      deleted |= op_is(dp, "delete") && strcmp(dp->sb, made) == 0 &&
                 !(dp->outcome && strcmp(dp->outcome, "fail") == 0);
    }
    if (deleted) continue;
    int answered = 0, found = 0;
    size_t i;
    json_t *e;
    json_array_foreach(h->events, i, e) {
      if (!ev_is(e, "final_sb") || !ev_s(e, "sb") || strcmp(ev_s(e, "sb"), made) != 0) continue;
      long st = (long)json_integer_value(json_object_get(e, "status"));
      if (st == 0) continue;
      answered++;
      if (st != 404) found++;
    }
    if (answered > 0 && found == 0)
      violation(h, "lost_sandbox", cp->t_done, made, 0,
                "%s (req %d, acknowledged at %.0f ms), never deleted, 404 on all %d "
                "nodes that answered after the heal", op_is(cp, "fork") ? "forked" : "created",
                cp->id, cp->t_done, answered);
  }
}

/* ---- double_run ----------------------------------------------------------------- */

static void check_double_run(hist *h) {
  /* one violation per sandbox per episode of consecutive double samples */
  json_t *open = json_object(); /* sb -> true while an episode lasts */
  size_t i;
  json_t *e;
  json_array_foreach(h->events, i, e) {
    if (!ev_is(e, "sample")) continue;
    json_t *vms = json_object_get(e, "vms"), *seen = json_object();
    size_t k, m;
    json_t *a, *b;
    json_array_foreach(vms, k, a) {
      const char *sb = ev_s(a, "sb"), *st = ev_s(a, "st");
      if (!sb || !st || strcmp(st, "run") != 0 || json_object_get(seen, sb)) continue;
      json_array_foreach(vms, m, b) {
        if (m <= k || !ev_s(b, "sb") || strcmp(ev_s(b, "sb"), sb) != 0 || !ev_s(b, "st") ||
            strcmp(ev_s(b, "st"), "run") != 0)
          continue;
        json_object_set_new(seen, sb, json_true());
        if (!json_object_get(open, sb)) {
          int na = (int)json_integer_value(json_object_get(a, "node"));
          int nb = (int)json_integer_value(json_object_get(b, "node"));
          violation(h, "double_run", ev_t(e), sb, nb,
                    "two running VMs of %s at one sample: n%d (pid %lld) and n%d (pid %lld)", sb,
                    na, json_integer_value(json_object_get(a, "pid")), nb,
                    json_integer_value(json_object_get(b, "pid")));
        }
        break;
      }
    }
    json_object_clear(open);
    json_object_update(open, seen);
    json_decref(seen);
  }
  json_decref(open);
}

/* The nodes' logs (vmlog events) as run intervals: a VM runs from its
 * start (vmm.started / vmm.restored, or shim.unfenced) until its stop,
 * exit or fence (by pid; a lease.lost fences every VM of the sandbox on
 * that node, as does a vmm.adopt_failed), or its node's crash (applied: a
 * VM that started while the crash command ran died with it), or the
 * first watcher sample without its process; one still open at the end
 * runs to the end. Two intervals of one sandbox (two nodes, or two VMMs on one) that
 * overlap by more than CH_LOG_MARGIN_MS are a double run, unless the
 * watcher already named that one. */
typedef struct interval {
  const char *sb;
  int node, pid; /* pid 0: not known */
  double from, to; /* to < 0: still open */
} interval;

typedef struct intervals {
  interval *v;
  size_t n, cap;
} intervals;

static void close_runs(intervals *iv, const char *sb, int node, int pid, double t) {
  for (size_t k = 0; k < iv->n; k++) {
    interval *x = &iv->v[k];
    if (x->to < 0 && x->node == node && (!sb || strcmp(x->sb, sb) == 0) &&
        (pid == 0 || x->pid == 0 || x->pid == pid))
      x->to = t;
  }
}

static int open_run(intervals *iv, const char *sb, int node, int pid, double t) {
  for (size_t k = 0; k < iv->n; k++) { /* already running: a restore logged twice */
    interval *x = &iv->v[k];
    if (x->to < 0 && x->node == node && x->pid == pid && strcmp(x->sb, sb) == 0) return 0;
  }
  if (iv->n == iv->cap) {
    size_t cap = iv->cap ? iv->cap * 2 : 64;
    interval *nv = realloc(iv->v, cap * sizeof *nv);
    if (!nv) return -ENOMEM;
    iv->v = nv, iv->cap = cap;
  }
  iv->v[iv->n++] = (interval){sb, node, pid, t, -1};
  return 0;
}

/* A log can miss a VM's death or fence (its shim killed with it, a full
 * disk that took the line): where the watcher, after the start, took a
 * sample without that VMM process running (gone, or stopped), the
 * interval ends there. It only cuts intervals short: what the logs add,
 * a run between two samples, stays. */
static void gone_by(const hist *h, interval *x) {
  size_t i, k;
  json_t *e, *v;
  json_array_foreach(h->events, i, e) {
    double t = ev_t(e);
    if (!ev_is(e, "sample") || t <= x->from + CH_SAMPLE_LAG_MS) continue;
    if (x->to >= 0 && t >= x->to) return;
    bool there = false;
    json_array_foreach(json_object_get(e, "vms"), k, v) {
      there |= json_integer_value(json_object_get(v, "node")) == x->node &&
               json_integer_value(json_object_get(v, "pid")) == x->pid && ev_s(v, "st") &&
               strcmp(ev_s(v, "st"), "run") == 0;
    }
    if (!there) {
      x->to = t;
      return;
    }
  }
}

static bool watcher_named(const hist *h, const char *sb, double t0, double t1) {
  size_t i;
  json_t *v;
  json_array_foreach(h->violations, i, v) {
    double t = json_number_value(json_object_get(v, "t"));
    const char *vs = json_string_value(json_object_get(v, "sb"));
    if (vs && strcmp(vs, sb) == 0 && strcmp(json_string_value(json_object_get(v, "invariant")), "double_run") == 0 &&
        t >= t0 - 1000 && t <= t1 + 1000)
      return true;
  }
  return false;
}

static void check_double_run_logs(hist *h) {
  intervals iv = {0};
  double end = 0;
  size_t i;
  json_t *e;
  json_array_foreach(h->events, i, e) {
    end = ev_t(e);
    int node = (int)json_integer_value(json_object_get(e, "node"));
    /* a crash kills every VM of its node between its start and its being
     * applied (a VM restored meanwhile too) */
    if (ev_is(e, "fault") && ev_s(e, "kind") && !strcmp(ev_s(e, "kind"), "crash") &&
        ev_s(e, "phase") && (!strcmp(ev_s(e, "phase"), "start") || !strcmp(ev_s(e, "phase"), "applied"))) {
      close_runs(&iv, NULL, (int)json_integer_value(json_object_get(e, "a")), 0, ev_t(e));
      continue;
    }
    const char *sb = ev_s(e, "sb"), *what = ev_s(e, "what");
    if (!ev_is(e, "vmlog") || !sb || !what) continue;
    int pid = (int)json_integer_value(json_object_get(e, "pid"));
    if (!strcmp(what, "start") && pid > 0) {
      if (open_run(&iv, sb, node, pid, ev_t(e)) < 0) break;
    } else if (!strcmp(what, "stop") || !strcmp(what, "fence")) {
      close_runs(&iv, sb, node, pid, ev_t(e));
    }
  }
  for (size_t a = 0; a < iv.n; a++) {
    checked(h, "double_run_log_intervals");
    gone_by(h, &iv.v[a]);
  }
  for (size_t a = 0; a < iv.n; a++) {
    interval *x = &iv.v[a];
    double xt = x->to < 0 ? end : x->to;
    for (size_t b = a + 1; b < iv.n; b++) {
      interval *y = &iv.v[b];
      if (strcmp(x->sb, y->sb) != 0 || (x->node == y->node && x->pid == y->pid)) continue;
      double yt = y->to < 0 ? end : y->to;
      double from = x->from > y->from ? x->from : y->from, to = xt < yt ? xt : yt;
      if (to - from <= CH_LOG_MARGIN_MS || watcher_named(h, x->sb, from, to)) continue;
      violation(h, "double_run", from, x->sb, y->node,
                "the node logs have %s running on n%d (pid %d, %.0f to %.0f ms) and on n%d "
                "(pid %d, %.0f to %.0f ms) at once for %.0f ms", x->sb, x->node, x->pid, x->from,
                xt, y->node, y->pid, y->from, yt, to - from);
    }
  }
  free(iv.v);
}

/* ---- epoch_order -------------------------------------------------------------------- */

static void check_epoch_order(hist *h) {
  for (size_t b = 0; b < h->nreq; b++) {
    const req *rb = &h->reqs[b];
    json_t *eb = is_ok(rb) ? json_object_get(rb->done, "epoch") : NULL;
    if (!json_is_integer(eb)) continue;
    const req *worst = NULL;
    long long floor = 0;
    for (size_t a = 0; a < h->nreq; a++) {
      const req *ra = &h->reqs[a];
      json_t *ea = is_ok(ra) ? json_object_get(ra->done, "epoch") : NULL;
      if (!json_is_integer(ea) || strcmp(ra->sb, rb->sb) != 0 || ra->t_done >= rb->t_inv) continue;
      if (json_integer_value(ea) > floor) floor = json_integer_value(ea), worst = ra;
    }
    if (worst && json_integer_value(eb) < floor)
      violation(h, "epoch_order", rb->t_done, rb->sb, rb->node,
                "req %d (%s through n%d) saw epoch %lld after req %d had seen epoch %lld",
                rb->id, rb->op, rb->node, json_integer_value(eb), worst->id, floor);
  }
}

/* ---- api_down ----------------------------------------------------------------------- */

/* True when a fault on node i covers [t0, t1] (its own kill, crash, stop
 * or restart, with the time it takes to come back). */
static bool excused(hist *h, int node, double t0, double t1) {
  size_t i;
  json_t *e;
  json_array_foreach(h->events, i, e) {
    if (!ev_is(e, "fault") || strcmp(ev_s(e, "phase") ? ev_s(e, "phase") : "", "start") != 0)
      continue;
    const char *k = ev_s(e, "kind");
    if (!k || (json_integer_value(json_object_get(e, "a")) != node)) continue;
    if (strcmp(k, "kill") && strcmp(k, "crash") && strcmp(k, "stop") && strcmp(k, "restart")) continue;
    double fs = ev_t(e), fe = fs + json_number_value(json_object_get(e, "dur")) + 60000;
    /* the matching end, if recorded, bounds it better */
    size_t j;
    json_t *x;
    json_array_foreach(h->events, j, x) {
      if (j > i && ev_is(x, "fault") && json_equal(json_object_get(x, "id"), json_object_get(e, "id")) &&
          ev_s(x, "phase") && strcmp(ev_s(x, "phase"), "end") == 0) {
        fe = ev_t(x) + CH_FAULT_GRACE_MS;
        break;
      }
    }
    if (t0 <= fe && t1 >= fs) return true;
  }
  return false;
}

static void check_api_down(hist *h) {
  int maxnode = 0;
  size_t i;
  json_t *e;
  json_array_foreach(h->events, i, e) if (ev_is(e, "health")) {
    int n = (int)json_integer_value(json_object_get(e, "node"));
    if (n > maxnode) maxnode = n;
  }
  for (int node = 1; node <= maxnode; node++) {
    double first = -1, last = -1;
    int fails = 0;
    json_array_foreach(h->events, i, e) {
      if (!ev_is(e, "health") || json_integer_value(json_object_get(e, "node")) != node) continue;
      bool ok = json_is_true(json_object_get(e, "ok"));
      bool end = ok || i + 1 == json_array_size(h->events);
      if (!ok) {
        if (first < 0) first = ev_t(e);
        last = ev_t(e) + json_number_value(json_object_get(e, "ms"));
        fails++;
      }
      if (end && first >= 0) {
        if (fails >= 3 && last - first >= CH_API_DOWN_MS && !excused(h, node, first, last))
          violation(h, "api_down", first, NULL, node,
                    "n%d, touched by no fault, did not answer /healthz from %.0f to %.0f ms "
                    "(%d probes)", node, first, last, fails);
        first = last = -1;
        fails = 0;
      }
    }
    if (first >= 0 && fails >= 3 && last - first >= CH_API_DOWN_MS && !excused(h, node, first, last))
      violation(h, "api_down", first, NULL, node,
                "n%d, touched by no fault, did not answer /healthz from %.0f ms to the end", node,
                first);
  }
}

/* ---- not_converged -------------------------------------------------------------------- */

static void check_converged(hist *h) {
  size_t i;
  json_t *e, *ref = NULL;
  int refnode = 0, nodes = 0;
  double t = 0;
  json_array_foreach(h->events, i, e) {
    if (ev_is(e, "meta")) nodes = (int)json_integer_value(json_object_get(e, "nodes"));
    if (!ev_is(e, "final_dir")) continue;
    int node = (int)json_integer_value(json_object_get(e, "node"));
    t = ev_t(e);
    json_t *view = json_object_get(e, "sandboxes");
    if (!json_is_true(json_object_get(e, "answered")) || !json_is_object(view)) {
      violation(h, "not_converged", t, NULL, node, "n%d did not answer after the heal", node);
      continue;
    }
    long long alive = json_integer_value(json_object_get(e, "alive"));
    if (nodes > 0 && alive != nodes)
      violation(h, "not_converged", t, NULL, node, "n%d sees %lld of %d nodes alive after the heal",
                node, alive, nodes);
    if (!ref) {
      ref = view, refnode = node;
      continue;
    }
    const char *sb;
    json_t *v;
    json_object_foreach(view, sb, v) {
      json_t *r = json_object_get(ref, sb);
      if (!json_equal(r, v)) {
        char *a = json_dumps(v, JSON_COMPACT), *b = r ? json_dumps(r, JSON_COMPACT) : NULL;
        violation(h, "not_converged", t, sb, node, "after the heal n%d has %s as %s, n%d as %s", node,
                  sb, a ? a : "?", refnode, b ? b : "absent");
        free(a);
        free(b);
      }
    }
    json_object_foreach(ref, sb, v) {
      if (!json_object_get(view, sb))
        violation(h, "not_converged", t, sb, node, "after the heal n%d lacks %s, which n%d has",
                  node, sb, refnode);
    }
  }
  /* a node whose directory lists a live sandbox its API calls unknown */
  json_array_foreach(h->events, i, e) {
    if (!ev_is(e, "final_sb") || json_integer_value(json_object_get(e, "status")) != 404) continue;
    const char *sb = ev_s(e, "sb");
    json_t *node = json_object_get(e, "node"), *x;
    size_t j;
    json_array_foreach(h->events, j, x) {
      if (!ev_is(x, "final_dir") || !json_equal(json_object_get(x, "node"), node)) continue;
      json_t *entry = sb ? json_object_get(json_object_get(x, "sandboxes"), sb) : NULL;
      if (entry)
        violation(h, "not_converged", ev_t(e), sb, (int)json_integer_value(node),
                  "after the heal n%lld's directory has %s (owner %s, %s, epoch %lld) but its API "
                  "answers 404", json_integer_value(node), sb, ev_s(entry, "owner") ? ev_s(entry, "owner") : "?",
                  ev_s(entry, "state") ? ev_s(entry, "state") : "?",
                  json_integer_value(json_object_get(entry, "epoch")));
    }
  }
  /* what each node answered for each sandbox, forwarded or not */
  json_t *seen = json_object();
  json_array_foreach(h->events, i, e) {
    if (!ev_is(e, "final_sb") || json_integer_value(json_object_get(e, "status")) == 0) continue;
    const char *sb = ev_s(e, "sb");
    if (!sb) continue;
    json_t *mine = json_pack("{s:O?,s:O?,s:O?}", "status", json_object_get(e, "status"), "owner",
                             json_object_get(e, "owner"), "state", json_object_get(e, "state"));
    json_t *first = json_object_get(seen, sb);
    if (!first) {
      json_object_set_new(mine, "node", json_incref(json_object_get(e, "node")));
      json_object_set_new(seen, sb, mine);
      continue;
    }
    json_t *cmp = json_deep_copy(first);
    json_object_del(cmp, "node");
    if (!json_equal(cmp, mine)) {
      char *a = json_dumps(mine, JSON_COMPACT), *b = json_dumps(cmp, JSON_COMPACT);
      int node = (int)json_integer_value(json_object_get(e, "node"));
      violation(h, "not_converged", ev_t(e), sb, node, "after the heal n%d answers %s with %s, n%lld with %s",
                node, sb, a ? a : "?", json_integer_value(json_object_get(first, "node")), b ? b : "?");
      free(a);
      free(b);
    }
    json_decref(cmp);
    json_decref(mine);
  }
  json_decref(seen);
}

/* ---- bad_generation: what the runner saw on the nodes' disks ------------------- */

/* Every generation (snapshots/<sb>/<n>, replicas/<sb>/<n>) a subvolume,
 * read-only, and a received one (replicas/) with its received UUID; no
 * staging dir left once receives have had their time: a receive that
 * failed (one kill-receive cut, say) leaves nothing. */
static void check_generations(hist *h) {
  size_t i;
  json_t *e;
  json_array_foreach(h->events, i, e) {
    int node = (int)json_integer_value(json_object_get(e, "node"));
    if (ev_is(e, "generation")) {
      checked(h, "bad_generation");
      const char *where = ev_s(e, "where") ? ev_s(e, "where") : "?";
      const char *gen = ev_s(e, "gen") ? ev_s(e, "gen") : "?", *sb = ev_s(e, "sb");
      const char *why = !json_is_true(json_object_get(e, "subvol")) ? "is not a subvolume"
                        : !json_is_true(json_object_get(e, "ro"))   ? "is writable (half-made?)"
                        : strcmp(where, "replicas") == 0 && !ev_s(e, "received")
                            ? "was received but has no received UUID"
                            : NULL;
      if (why)
        violation(h, "bad_generation", ev_t(e), sb, node, "n%d's %s/%s/%s %s", node, where,
                  sb ? sb : "?", gen, why);
    } else if (ev_is(e, "staging") && json_array_size(json_object_get(e, "entries")) > 0) {
      char *list = json_dumps(json_object_get(e, "entries"), JSON_COMPACT);
      violation(h, "bad_generation", ev_t(e), NULL, node,
                "n%d's staging dir still holds %s after the heal: a receive left its remains",
                node, list ? list : "?");
      free(list);
    }
  }
}

/* Each generation a node received, held against what its sender said it
 * sent (both logs' totals: raw send-stream bytes and zstd bytes on the
 * wire). A receiver checks the stream's END frame itself; this is the
 * check from outside that what was kept is what was sent. A send of the
 * same generation against the same parent with other totals is a
 * violation; none logged (the sender died before its line) judges
 * nothing. */
static bool same_send(const json_t *s, const json_t *r) {
  const char *dir = ev_s(s, "dir");
  return ev_is(s, "repl") && dir && !strcmp(dir, "sent") &&
         !json_is_true(json_object_get(s, "had")) &&
         json_integer_value(json_object_get(s, "node")) ==
             json_integer_value(json_object_get(r, "peer")) &&
         json_integer_value(json_object_get(s, "peer")) ==
             json_integer_value(json_object_get(r, "node")) &&
         json_equal(json_object_get(s, "sb"), json_object_get(r, "sb")) &&
         json_equal(json_object_get(s, "gen"), json_object_get(r, "gen")) &&
         json_equal(json_object_get(s, "parent"), json_object_get(r, "parent"));
}

static void check_generation_totals(hist *h) {
  size_t i, k;
  json_t *r, *s;
  json_array_foreach(h->events, i, r) {
    const char *dir = ev_s(r, "dir");
    if (!ev_is(r, "repl") || !dir || strcmp(dir, "received") != 0 || !ev_s(r, "sb")) continue;
    const json_t *other = NULL;
    bool equal = false;
    json_array_foreach(h->events, k, s) {
      if (!same_send(s, r)) continue;
      other = s;
      equal |= json_equal(json_object_get(s, "raw"), json_object_get(r, "raw")) &&
               json_equal(json_object_get(s, "zstd"), json_object_get(r, "zstd"));
    }
    if (!other) continue;
    checked(h, "bad_generation_totals");
    if (!equal)
      violation(h, "bad_generation", ev_t(r), ev_s(r, "sb"),
                (int)json_integer_value(json_object_get(r, "node")),
                "n%lld received %s gen %lld from n%lld as %lld raw / %lld zstd bytes; "
                "n%lld sent %lld / %lld",
                json_integer_value(json_object_get(r, "node")), ev_s(r, "sb"),
                json_integer_value(json_object_get(r, "gen")),
                json_integer_value(json_object_get(r, "peer")),
                json_integer_value(json_object_get(r, "raw")),
                json_integer_value(json_object_get(r, "zstd")),
                json_integer_value(json_object_get(other, "node")),
                json_integer_value(json_object_get(other, "raw")),
                json_integer_value(json_object_get(other, "zstd")));
  }
}

/* ---- leftover: what the runner saw of the run after its teardown ---------------- */

/* Whatever the teardown left: processes, namespaces, mounts, loops. */
static void check_leftovers(hist *h) {
  size_t i, k;
  json_t *e, *x;
  json_array_foreach(h->events, i, e) {
    if (!ev_is(e, "teardown")) continue;
    checked(h, "leftover");
    json_array_foreach(json_object_get(e, "leftovers"), k, x)
      violation(h, "leftover", ev_t(e), NULL, 0, "after the teardown of %s: %s %s",
                ev_s(e, "dir") ? ev_s(e, "dir") : "the cluster",
                ev_s(x, "kind") ? ev_s(x, "kind") : "?", ev_s(x, "what") ? ev_s(x, "what") : "?");
  }
}

/* ---- recovery after a crash (a number, not an invariant) -------------------------------- */

/* Node n's running sandboxes in sample e, as an object sb -> true. */
static json_t *running_on(const json_t *e, int n) {
  json_t *out = json_object();
  size_t k;
  json_t *v;
  json_array_foreach(json_object_get(e, "vms"), k, v) {
    const char *sb = ev_s(v, "sb"), *st = ev_s(v, "st");
    if (sb && st && !strcmp(st, "run") && json_integer_value(json_object_get(v, "node")) == n)
      json_object_set_new(out, sb, json_true());
  }
  return out;
}

/* For each crash of a node: each sandbox the watcher last saw running
 * there, and the first sample after the crash that sees it running again
 * on any node (a survivor's failover, or the node back): {"sb", "crashed",
 * "on", "ms"}; "ms" null when it never ran again within the run. From the
 * watcher's samples only, not from hangard's answers. */
static json_t *recoveries(hist *h) {
  json_t *out = json_array(), *before = NULL;
  size_t i, j, k;
  json_t *e, *x, *v;
  json_array_foreach(h->events, i, e) {
    if (ev_is(e, "sample")) before = e;
    if (!before || !ev_is(e, "fault") || !ev_s(e, "kind") || strcmp(ev_s(e, "kind"), "crash") ||
        !ev_s(e, "phase") || strcmp(ev_s(e, "phase"), "start"))
      continue;
    int node = (int)json_integer_value(json_object_get(e, "a"));
    json_t *was = running_on(before, node);
    const char *sb;
    json_t *val;
    json_object_foreach(was, sb, val) {
      json_t *r = json_pack("{s:s,s:i,s:n,s:n}", "sb", sb, "crashed", node, "on", "ms");
      json_array_foreach(h->events, j, x) {
        if (j <= i || !ev_is(x, "sample")) continue;
        bool found = false;
        json_array_foreach(json_object_get(x, "vms"), k, v) {
          if (!ev_s(v, "sb") || strcmp(ev_s(v, "sb"), sb) || !ev_s(v, "st") ||
              strcmp(ev_s(v, "st"), "run"))
            continue;
          json_object_set(r, "on", json_object_get(v, "node"));
          json_object_set_new(r, "ms", json_real(ev_t(x) - ev_t(e)));
          found = true;
          break;
        }
        if (found) break;
      }
      json_array_append_new(out, r);
    }
    json_decref(was);
  }
  return out;
}

/* ---- counts ---------------------------------------------------------------------------- */

static json_t *counts(hist *h, json_t *report) {
  json_t *faults = json_object(), *reqs = json_pack("{s:i,s:i,s:i,s:i}", "ok", 0, "fail", 0,
                                                     "unknown", 0, "unfinished", 0);
  json_t *ops = json_object(), *health = json_object();
  size_t i;
  json_t *e;
  json_array_foreach(h->events, i, e) {
    if (ev_is(e, "meta")) {
      json_object_set(report, "seed", json_object_get(e, "seed"));
      json_object_set(report, "nodes", json_object_get(e, "nodes"));
      json_object_set(report, "duration", json_object_get(e, "duration"));
      json_object_set(report, "schedule", json_object_get(e, "schedule"));
    } else if (ev_is(e, "fault") && ev_s(e, "phase") && strcmp(ev_s(e, "phase"), "start") == 0 &&
               ev_s(e, "kind")) {
      const char *k = ev_s(e, "kind");
      json_object_set_new(faults, k, json_integer(json_integer_value(json_object_get(faults, k)) + 1));
    } else if (ev_is(e, "health")) {
      char key[16];
      snprintf(key, sizeof key, "n%lld", json_integer_value(json_object_get(e, "node")));
      json_t *c = json_object_get(health, key);
      if (!c) json_object_set_new(health, key, c = json_pack("{s:i,s:i}", "probes", 0, "ok", 0));
      json_object_set_new(c, "probes", json_integer(json_integer_value(json_object_get(c, "probes")) + 1));
      if (json_is_true(json_object_get(e, "ok")))
        json_object_set_new(c, "ok", json_integer(json_integer_value(json_object_get(c, "ok")) + 1));
    } else if (ev_is(e, "converge")) {
      json_object_set(report, "converged", json_object_get(e, "ok"));
      json_object_set(report, "converge_ms", json_object_get(e, "ms"));
    }
  }
  for (size_t r = 0; r < h->nreq; r++) {
    const char *oc = h->reqs[r].outcome ? h->reqs[r].outcome : "unfinished";
    json_object_set_new(reqs, oc, json_integer(json_integer_value(json_object_get(reqs, oc)) + 1));
    json_t *o = json_object_get(ops, h->reqs[r].op);
    if (!o) json_object_set_new(ops, h->reqs[r].op, o = json_object());
    json_object_set_new(o, oc, json_integer(json_integer_value(json_object_get(o, oc)) + 1));
  }
  const char *k;
  json_t *c;
  json_object_foreach(health, k, c) {
    double p = (double)json_integer_value(json_object_get(c, "probes"));
    json_object_set_new(c, "availability",
                        json_real(p > 0 ? (double)json_integer_value(json_object_get(c, "ok")) / p : 0));
  }
  json_object_set_new(report, "faults", faults);
  json_object_set_new(report, "requests", reqs);
  json_object_set_new(report, "ops", ops);
  json_object_set_new(report, "health", health);
  return report;
}

int hg_chaos_check(json_t *events, json_t **report) {
  hist h = {.events = events, .violations = json_array(), .checked = json_object()};
  int rc = join_requests(&h);
  if (rc < 0) {
    json_decref(h.violations);
    json_decref(h.checked);
    return rc;
  }
  h.vm_starts = vm_starts(&h);
  check_lost_state(&h);
  check_lost_memory(&h);
  check_lost_sandbox(&h);
  check_double_run(&h);
  check_double_run_logs(&h);
  check_epoch_order(&h);
  check_api_down(&h);
  check_converged(&h);
  check_generations(&h);
  check_generation_totals(&h);
  check_leftovers(&h);
  json_t *rep = json_object();
  counts(&h, rep);
  json_object_set_new(rep, "recoveries", recoveries(&h));
  int n = (int)json_array_size(h.violations);
  json_object_set_new(rep, "violations", h.violations);
  json_object_set_new(rep, "checked", h.checked);
  free(h.reqs);
  json_decref(h.vm_starts);
  *report = rep;
  return n;
}
