/* chaos/report.c: the report page. One static HTML file, inline SVG, no
 * script: a lane of faults, one lane per node (health probes, the node's
 * own faults shaded, its peers' view of it), one lane per sandbox (a row per node with the VMs the
 * watcher saw, running solid, stopped hatched; request dots coloured by
 * outcome), violations as red lines and listed below. */
#include "checker.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 1400.0
#define X0 150.0
#define ROW 12.0

static const char *const node_colour[] = {"#888", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#17becf"};

static const char *ev_s(const json_t *e, const char *k) {
  return json_string_value(json_object_get(e, k));
}
static bool ev_is(const json_t *e, const char *kind) {
  const char *v = ev_s(e, "ev");
  return v && strcmp(v, kind) == 0;
}
static double ev_t(const json_t *e) { return json_number_value(json_object_get(e, "t")); }

static void esc(FILE *f, const char *s) {
  for (; s && *s; s++) {
    if (*s == '<') fputs("&lt;", f);
    else if (*s == '>') fputs("&gt;", f);
    else if (*s == '&') fputs("&amp;", f);
    else if (*s == '"') fputs("&quot;", f);
    else fputc(*s, f);
  }
}

typedef struct page {
  FILE *f;
  double t_end;
} page;

static double X(const page *p, double t) { return X0 + (W - X0 - 10) * (t / (p->t_end > 0 ? p->t_end : 1)); }

static const char *fault_colour(const char *k) {
  if (!k) return "#ccc";
  if (!strcmp(k, "kill")) return "#d62728";
  if (!strcmp(k, "crash")) return "#7f0000";
  if (!strcmp(k, "stop")) return "#ff7f0e";
  if (!strcmp(k, "partition")) return "#9467bd";
  if (!strcmp(k, "oneway")) return "#c5b0d5";
  if (!strcmp(k, "loss")) return "#bcbd22";
  if (!strcmp(k, "bridge")) return "#17becf";
  if (!strcmp(k, "diskfull")) return "#8c564b";
  if (!strcmp(k, "delay")) return "#2ca02c";
  if (!strcmp(k, "kill-receive")) return "#7f7f7f";
  return "#e377c2";
}

/* fault windows: start event to the matching end (or the end of the run) */
static void faults_lane(page *p, const json_t *events, double y, int node) {
  size_t i, j;
  json_t *e, *x;
  json_array_foreach(events, i, e) {
    if (!ev_is(e, "fault") || !ev_s(e, "phase") || strcmp(ev_s(e, "phase"), "start")) continue;
    int a = (int)json_integer_value(json_object_get(e, "a"));
    int b = (int)json_integer_value(json_object_get(e, "b"));
    if (node && a != node && b != node) continue;
    double t1 = p->t_end;
    json_array_foreach(events, j, x) {
      if (j > i && ev_is(x, "fault") && json_equal(json_object_get(x, "id"), json_object_get(e, "id"))) {
        t1 = ev_t(x);
        break;
      }
    }
    const char *k = ev_s(e, "kind");
    fprintf(p->f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s' opacity='%s'>"
                  "<title>%s n%d%s%.0d %.0f-%.0f ms</title></rect>\n",
            X(p, ev_t(e)), y, X(p, t1) - X(p, ev_t(e)) + 1, node ? ROW * 1.5 : ROW * 1.5,
            fault_colour(k), node ? "0.25" : "0.9", k ? k : "?", a, b ? " / n" : "", b, ev_t(e), t1);
    if (!node)
      fprintf(p->f, "<text x='%.1f' y='%.1f' font-size='9'>%s n%d</text>\n", X(p, ev_t(e)) + 1,
              y + ROW * 2.4, k ? k : "?", a);
  }
}

static void health_lane(page *p, const json_t *events, double y, int node) {
  size_t i;
  json_t *e;
  json_array_foreach(events, i, e) {
    if (!ev_is(e, "health") || json_integer_value(json_object_get(e, "node")) != node) continue;
    bool ok = json_is_true(json_object_get(e, "ok"));
    fprintf(p->f, "<rect x='%.1f' y='%.1f' width='2' height='%.1f' fill='%s'/>\n", X(p, ev_t(e)),
            y + (ok ? 4 : 0), ok ? ROW - 4 : ROW * 1.5, ok ? "#2ca02c" : "#d62728");
  }
}

static const char *member_colour(const char *st) {
  if (!st) return "#ccc";
  if (!strcmp(st, "alive")) return "#98df8a";
  if (!strcmp(st, "suspect")) return "#ff7f0e";
  if (!strcmp(st, "dead")) return "#d62728";
  return "#7f7f7f"; /* left */
}

/* What node `by`'s gossip thought of `node`: a thin strip, a segment per
 * state from its cluster.member line to the next. */
static void member_strip(page *p, const json_t *events, double y, int node, int by) {
  size_t i;
  json_t *e;
  const char *st = NULL;
  double from = 0;
  json_array_foreach(events, i, e) {
    if (!ev_is(e, "member") || json_integer_value(json_object_get(e, "node")) != by ||
        json_integer_value(json_object_get(e, "peer")) != node)
      continue;
    if (st)
      fprintf(p->f, "<rect x='%.1f' y='%.1f' width='%.1f' height='4' fill='%s'><title>n%d "
                    "thinks n%d %s %.0f-%.0f ms</title></rect>\n",
              X(p, from), y, X(p, ev_t(e)) - X(p, from) + 1, member_colour(st), by, node, st, from,
              ev_t(e));
    st = ev_s(e, "state"), from = ev_t(e);
  }
  if (st)
    fprintf(p->f, "<rect x='%.1f' y='%.1f' width='%.1f' height='4' fill='%s'><title>n%d thinks "
                  "n%d %s from %.0f ms</title></rect>\n",
            X(p, from), y, X(p, p->t_end) - X(p, from) + 1, member_colour(st), by, node, st, from);
}

/* A node's lane: its own faults shaded, its health probes, then one strip
 * per peer with what that peer's gossip thought of it. */
static double node_lane(page *p, const json_t *events, double y, int node, int nodes) {
  fprintf(p->f, "<text x='4' y='%.1f' font-size='11' fill='%s'>n%d (health, peers' view)</text>\n",
          y + ROW, node_colour[node % 6], node);
  faults_lane(p, events, y, node);
  health_lane(p, events, y, node);
  double sy = y + ROW * 1.6;
  for (int by = 1; by <= nodes; by++) {
    if (by == node) continue;
    fprintf(p->f, "<text x='%.1f' y='%.1f' font-size='7' fill='#666'>n%d</text>\n", X0 - 14,
            sy + 3, by);
    member_strip(p, events, sy, node, by);
    sy += 5;
  }
  return sy - y + ROW * 0.5;
}

/* the watcher's samples of one sandbox on one node as bars */
static void vm_bars(page *p, const json_t *events, const char *sb, int node, double y) {
  double from = -1, prev = -1;
  const char *st_open = NULL;
  size_t i, k;
  json_t *e, *v;
  json_array_foreach(events, i, e) {
    if (!ev_is(e, "sample")) continue;
    const char *st = NULL;
    json_array_foreach(json_object_get(e, "vms"), k, v) {
      if (json_integer_value(json_object_get(v, "node")) == node && ev_s(v, "sb") &&
          !strcmp(ev_s(v, "sb"), sb))
        st = ev_s(v, "st");
    }
    if (st_open && (!st || strcmp(st, st_open))) {
      fprintf(p->f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s' opacity='%s'>"
                    "<title>%s on n%d %s %.0f-%.0f ms</title></rect>\n",
              X(p, from), y, X(p, prev) - X(p, from) + 2, ROW - 2, node_colour[node % 6],
              strcmp(st_open, "run") ? "0.35" : "1", sb, node, st_open, from, prev);
      st_open = NULL;
    }
    if (st && !st_open) st_open = st, from = ev_t(e);
    if (st) prev = ev_t(e);
  }
  if (st_open)
    fprintf(p->f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'/>\n", X(p, from), y,
            X(p, prev) - X(p, from) + 2, ROW - 2, node_colour[node % 6]);
}

static void request_dots(page *p, const json_t *events, const char *sb, double y) {
  json_t *inv = json_object(); /* req -> invoke */
  size_t i;
  json_t *e;
  json_array_foreach(events, i, e) {
    char key[24];
    snprintf(key, sizeof key, "%lld", json_integer_value(json_object_get(e, "req")));
    if (ev_is(e, "invoke")) json_object_set(inv, key, e);
    if (!(ev_is(e, "ok") || ev_is(e, "fail") || ev_is(e, "unknown"))) continue;
    json_t *in = json_object_get(inv, key);
    const char *s = ev_s(e, "sb") ? ev_s(e, "sb") : in ? ev_s(in, "sb") : NULL;
    if (!in || !s || strcmp(s, sb)) continue;
    const char *oc = ev_s(e, "ev");
    const char *col = !strcmp(oc, "ok") ? "#2ca02c" : !strcmp(oc, "fail") ? "#ff7f0e" : "#555";
    double t0 = ev_t(in), t1 = ev_t(e);
    fprintf(p->f, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='%s' stroke-width='1'/>"
                  "<circle cx='%.1f' cy='%.1f' r='2.5' fill='%s'><title>req %lld %s via n%lld: %s %lld%s%s (%.0f ms)</title></circle>\n",
            X(p, t0), X(p, t1), y, y, col, X(p, t1), y, col, json_integer_value(json_object_get(e, "req")),
            ev_s(in, "op") ? ev_s(in, "op") : "?", json_integer_value(json_object_get(in, "node")), oc,
            json_integer_value(json_object_get(e, "status")), ev_s(e, "code") ? " " : "",
            ev_s(e, "code") ? ev_s(e, "code") : "", t1 - t0);
  }
  json_decref(inv);
}

int hg_chaos_report_html(const json_t *report, const json_t *events, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return -errno;
  page p = {f, 0};
  size_t i, k;
  json_t *e, *v;
  int nodes = (int)json_integer_value(json_object_get(report, "nodes"));
  json_t *sbs = json_array();
  json_array_foreach(events, i, e) {
    if (ev_t(e) > p.t_end) p.t_end = ev_t(e);
    if (ev_is(e, "sample"))
      json_array_foreach(json_object_get(e, "vms"), k, v) {
        int n = (int)json_integer_value(json_object_get(v, "node"));
        if (n > nodes && n < 6) nodes = n;
      }
    const char *sb = ev_s(e, "sb");
    if (sb && sb[0] && (ev_is(e, "ok") || ev_is(e, "invoke") || ev_is(e, "final_sb"))) {
      bool have = false;
      json_array_foreach(sbs, k, v) have |= !strcmp(json_string_value(v), sb);
      if (!have) json_array_append_new(sbs, json_string(sb));
    }
  }
  if (nodes > 5) nodes = 5;
  json_t *viol = json_object_get(report, "violations");
  double h = 60 + ROW * 3 + nodes * (ROW * 2.1 + (nodes - 1) * 5) + json_array_size(sbs) * ROW * (nodes + 2) + 40;
  fprintf(f, "<!doctype html><html><head><meta charset='utf-8'><title>chaos seed %lld</title>"
             "<style>body{font-family:sans-serif;margin:20px}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}.bad{color:#b00;font-weight:bold}"
             ".good{color:#070;font-weight:bold}</style></head><body>\n",
          json_integer_value(json_object_get(report, "seed")));
  fprintf(f, "<h1>chaos run, seed %lld: <span class='%s'>%zu violation%s</span></h1>\n",
          json_integer_value(json_object_get(report, "seed")), json_array_size(viol) ? "bad" : "good",
          json_array_size(viol), json_array_size(viol) == 1 ? "" : "s");
  char *faults = json_dumps(json_object_get(report, "faults"), JSON_COMPACT);
  char *reqs = json_dumps(json_object_get(report, "requests"), JSON_COMPACT);
  fprintf(f, "<p>%d nodes; faults ", nodes);
  esc(f, faults);
  fputs("; requests ", f);
  esc(f, reqs);
  fputs("</p>\n<p>run: <code>", f);
  esc(f, ev_s(report, "command") ? ev_s(report, "command") : "chaos/run --seed S");
  fputs("</code>; the same schedule again: <code>", f);
  esc(f, ev_s(report, "replay") ? ev_s(report, "replay") : "chaos/run --replay DIR");
  fputs("</code></p>\n", f);
  free(faults);
  free(reqs);
  fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' font-family='sans-serif'>\n", W, h);
  double y = 10;
  for (double t = 0; t <= p.t_end; t += 10000)
    fprintf(f, "<line x1='%.1f' x2='%.1f' y1='0' y2='%.0f' stroke='#eee'/><text x='%.1f' y='%.0f' font-size='9' fill='#999'>%.0fs</text>\n",
            X(&p, t), X(&p, t), h, X(&p, t) + 2, h - 2, t / 1000);
  fprintf(f, "<text x='4' y='%.1f' font-size='11'>faults</text>\n", y + ROW);
  faults_lane(&p, events, y, 0);
  y += ROW * 3.5;
  for (int n = 1; n <= nodes; n++) y += node_lane(&p, events, y, n, nodes);
  json_array_foreach(sbs, k, v) {
    const char *sb = json_string_value(v);
    fprintf(f, "<line x1='0' x2='%.0f' y1='%.1f' y2='%.1f' stroke='#ccc'/>", W, y + 2, y + 2);
    fprintf(f, "<text x='4' y='%.1f' font-size='10'>%.20s</text>\n", y + ROW, sb);
    request_dots(&p, events, sb, y + ROW * 0.7);
    y += ROW * 1.3;
    for (int n = 1; n <= nodes; n++) {
      fprintf(f, "<text x='100' y='%.1f' font-size='9' fill='%s'>VM n%d</text>\n", y + ROW - 3, node_colour[n % 6], n);
      vm_bars(&p, events, sb, n, y);
      y += ROW;
    }
    y += ROW * 0.7;
  }
  json_array_foreach(viol, k, v) {
    double t = json_number_value(json_object_get(v, "t"));
    fprintf(f, "<line x1='%.1f' x2='%.1f' y1='0' y2='%.0f' stroke='red' stroke-width='2'><title>", X(&p, t),
            X(&p, t), h);
    esc(f, ev_s(v, "invariant"));
    fputs("</title></line>\n", f);
  }
  fputs("</svg>\n<p>Lanes: fault windows (colour by kind); per node its health probes "
        "(green answered, red tall: no answer) over its own faults shaded, and under them one "
        "thin strip per peer with what that peer's gossip thought of the node (pale green "
        "alive, orange suspect, red dead, grey left); per sandbox the "
        "requests (dot at the answer, line from the invoke: green ok, orange fail, grey "
        "unknown) and one row per node with the VMs the watcher saw (solid running, pale "
        "stopped). Two solid bars at one time in one sandbox are a double run.</p>\n", f);
  fputs("<h2>Violations</h2>\n<table><tr><th>invariant</th><th>t (ms)</th><th>sandbox</th><th>node</th><th>detail</th></tr>\n", f);
  json_array_foreach(viol, k, v) {
    fprintf(f, "<tr class='bad'><td>");
    esc(f, ev_s(v, "invariant"));
    fprintf(f, "</td><td>%.0f</td><td>", json_number_value(json_object_get(v, "t")));
    esc(f, ev_s(v, "sb"));
    fprintf(f, "</td><td>%lld</td><td>", json_integer_value(json_object_get(v, "node")));
    esc(f, ev_s(v, "detail"));
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n<h2>Schedule</h2><pre>", f);
  char *sched = json_dumps(json_object_get(report, "schedule"), JSON_INDENT(1));
  esc(f, sched);
  free(sched);
  fputs("</pre></body></html>\n", f);
  json_decref(sbs);
  int rc = ferror(f) ? -EIO : 0;
  if (fclose(f) != 0) rc = -EIO;
  return rc;
}
