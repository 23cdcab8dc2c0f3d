/* /healthz, GET /v1/node and /metrics (Prometheus text). */
#include "api/api_internal.h"

/* ---- health, metrics ------------------------------------------------------------ */

void hg__api_h_healthz(hg_call *c) {
  hg_api *api = c->api;
  hg__api_call_json(c, 200,
                    json_pack("{s:s,s:s,s:s}", "status", "ok", "node", api->node_id,
                              "version", api->version),
                    NULL);
}

static json_t *node_leases(hg_api *api) {
  return api->work.leases ? api->work.leases(api->work.ud) : NULL;
}

void hg__api_h_node(hg_call *c) {
  hg_api *api = c->api;
  hg__api_call_json(c, 200,
                    json_pack("{s:s,s:s,s:{s:s,s:s},s:o*,s:I}", "id", api->node_id,
                              "version", api->version, "accel", "name", api->accel,
                              "reason", api->accel_reason, "leases", node_leases(api),
                              "orphans", (json_int_t)hg_manager_orphan_count(api->m)),
                    NULL);
}

/* The leases' gauges and counter, from what GET /v1/node shows. */
static void metrics_leases(hg_api *api, hg_buf *b) {
  json_t *l = node_leases(api);
  if (!l) return;
  hg_buf_printf(b,
                "# HELP hangar_leases Sandbox leases this node holds: valid, or past "
                "their end (the VM fenced), or being claimed.\n"
                "# TYPE hangar_leases gauge\n"
                "hangar_leases{state=\"held\"} %lld\nhangar_leases{state=\"fenced\"} %lld\n"
                "hangar_leases{state=\"claiming\"} %lld\n"
                "# HELP hangar_leases_lost_total Leases another node took at a higher "
                "epoch (the VM stopped and orphaned).\n"
                "# TYPE hangar_leases_lost_total counter\nhangar_leases_lost_total %lld\n",
                (long long)json_integer_value(json_object_get(l, "held")),
                (long long)json_integer_value(json_object_get(l, "fenced")),
                (long long)json_integer_value(json_object_get(l, "claiming")),
                (long long)json_integer_value(json_object_get(l, "lost")));
  json_t *fo = json_object_get(l, "failover");
  if (json_is_true(json_object_get(fo, "on")))
    hg_buf_printf(b,
                  "# HELP hangar_sandboxes_stranded Sandboxes of dead nodes whose newest "
                  "generation no alive node holds (they wait for a holder to come back).\n"
                  "# TYPE hangar_sandboxes_stranded gauge\nhangar_sandboxes_stranded %lld\n"
                  "# HELP hangar_failover_restores_total Failovers this node ran, by result.\n"
                  "# TYPE hangar_failover_restores_total counter\n"
                  "hangar_failover_restores_total{result=\"ok\"} %lld\n"
                  "hangar_failover_restores_total{result=\"failed\"} %lld\n",
                  (long long)json_integer_value(json_object_get(fo, "stranded_count")),
                  (long long)json_integer_value(json_object_get(fo, "restored")),
                  (long long)json_integer_value(json_object_get(fo, "failed")));
  json_decref(l);
}

/* A Prometheus label value: backslash, quote and newline escaped. */
void hg__api_label_put(hg_buf *b, const char *v) {
  for (; *v; v++) {
    if (*v == '\\' || *v == '"')
      hg_buf_printf(b, "\\%c", *v);
    else if (*v == '\n')
      hg_buf_append(b, "\\n", 2);
    else hg_buf_append(b, v, 1);
  }
}

typedef struct hg_op_text {
  hg_buf *hist, *failed;
} hg_op_text;

/* Writes `name{kind="<kind>"` (the caller closes the labels). */
static void series_open(hg_buf *b, const char *name, const char *kind) {
  hg_buf_printf(b, "%s{kind=\"", name);
  hg__api_label_put(b, kind);
  hg_buf_append(b, "\"", 1);
}

#define HG_OP_HIST "hangar_operation_duration_seconds"

/* hg_ops_metrics (node/op.c) hands n per-bucket counts over n-1 bounds in
 * seconds: buckets[i] counts (bounds[i-1], bounds[i]], the last one
 * everything above. Prometheus wants them cumulative, ending with +Inf. */
static void metric_op(void *ud, const char *kind, const double *bounds, const uint64_t *buckets,
                      int n, double sum, uint64_t count, uint64_t failed) {
  hg_op_text *t = ud;
  uint64_t cum = 0;
  for (int i = 0; i < n - 1; i++) {
    cum += buckets[i];
    series_open(t->hist, HG_OP_HIST "_bucket", kind);
    hg_buf_printf(t->hist, ",le=\"%g\"} %" PRIu64 "\n", bounds[i], cum);
  }
  series_open(t->hist, HG_OP_HIST "_bucket", kind);
  hg_buf_printf(t->hist, ",le=\"+Inf\"} %" PRIu64 "\n", count);
  series_open(t->hist, HG_OP_HIST "_sum", kind);
  hg_buf_printf(t->hist, "} %.6f\n", sum);
  series_open(t->hist, HG_OP_HIST "_count", kind);
  hg_buf_printf(t->hist, "} %" PRIu64 "\n", count);
  series_open(t->failed, "hangar_operations_failed_total", kind);
  hg_buf_printf(t->failed, "} %" PRIu64 "\n", failed);
}

/* The runtime's part (manager and ops locks: on a worker). */
static void metrics_runtime(hg_api *api, hg_buf *b) {
  unsigned counts[HG_SB_FAILED + 1] = {0};
  hg_manager_counts(api->m, counts);
  hg_buf_printf(b, "# HELP hangar_sandboxes Sandboxes on this node by state.\n"
                   "# TYPE hangar_sandboxes gauge\n");
  for (int s = 0; s <= HG_SB_FAILED; s++)
    hg_buf_printf(b, "hangar_sandboxes{state=\"%s\"} %u\n", hg_sb_state_name((hg_sb_state)s),
                  counts[s]);
  hg_buf_printf(b, "# HELP hangar_orphans Fenced copies of sandboxes kept on this node "
                   "(GET /v1/orphans).\n"
                   "# TYPE hangar_orphans gauge\nhangar_orphans %u\n",
                hg_manager_orphan_count(api->m));
  metrics_leases(api, b);
  hg_buf hist, failed;
  hg_buf_init(&hist, b->max);
  hg_buf_init(&failed, b->max);
  hg_op_text t = {&hist, &failed};
  hg_ops_metrics(api->ops, metric_op, &t);
  hg_buf_printf(b, "# HELP " HG_OP_HIST " Durations of finished operations.\n"
                   "# TYPE " HG_OP_HIST " histogram\n");
  hg_buf_append(b, hist.data ? hist.data : "", hist.len);
  hg_buf_printf(b, "# HELP hangar_operations_failed_total Operations that failed.\n"
                   "# TYPE hangar_operations_failed_total counter\n");
  hg_buf_append(b, failed.data ? failed.data : "", failed.len);
  hg_buf_free(&hist);
  hg_buf_free(&failed);
}

/* The API's own part (loop thread state). */
static void metrics_api(const hg_api *api, hg_buf *b) {
  hg_buf_printf(b, "# HELP hangar_http_requests_total HTTP requests answered, by route and status.\n"
                   "# TYPE hangar_http_requests_total counter\n");
  for (int r = 0; r <= HG_NROUTES; r++) {
    const hg_status_count *row = &api->counts[r * HG_API_STATUS_SLOTS];
    for (int i = 0; i < HG_API_STATUS_SLOTS && row[i].status; i++) {
      hg_buf_printf(b, "hangar_http_requests_total{route=\"");
      hg__api_label_put(b, r < HG_NROUTES ? hg__api_routes[r].pattern : "unmatched");
      hg_buf_printf(b, "\",status=\"%d\"} %" PRIu64 "\n", row[i].status, row[i].n);
    }
  }
  hg_buf_printf(b,
                "# HELP hangar_api_held_requests Requests holding a worker (command wait, output follow).\n"
                "# TYPE hangar_api_held_requests gauge\nhangar_api_held_requests %u\n"
                "# HELP hangar_api_held_rejected_total Requests refused with 503: no held slot.\n"
                "# TYPE hangar_api_held_rejected_total counter\nhangar_api_held_rejected_total %" PRIu64 "\n"
                "# HELP hangar_api_operations_running Operations on the thread pool.\n"
                "# TYPE hangar_api_operations_running gauge\nhangar_api_operations_running %u\n",
                api->held, api->held_rejected, api->ops_running);
  unsigned queued = 0;
  for (const hg_opjob *j = api->queue_head; j; j = j->next) queued++;
  hg_buf_printf(b,
                "# HELP hangar_api_operations_queued Operations waiting for a slot.\n"
                "# TYPE hangar_api_operations_queued gauge\nhangar_api_operations_queued %u\n",
                queued);
}

static void w_metrics(hg_call *c) {
  metrics_runtime(c->api, &c->u.text);
  if (c->api->gw) hg_gateway_metrics(c->api->gw, &c->u.text);
}

/* Forwarding, and the cluster's own lines (loop thread). */
static void metrics_cluster(const hg_api *api, hg_buf *b) {
  hg_forward_stats st = {0};
  if (api->fwd) hg_forward_get_stats(api->fwd, &st);
  hg_buf_printf(b,
                "# HELP hangar_api_forwarded_total Requests forwarded to another node, by outcome.\n"
                "# TYPE hangar_api_forwarded_total counter\n"
                "hangar_api_forwarded_total{outcome=\"ok\"} %" PRIu64 "\n"
                "hangar_api_forwarded_total{outcome=\"unreachable\"} %" PRIu64 "\n"
                "hangar_api_forwarded_total{outcome=\"broken\"} %" PRIu64 "\n"
                "hangar_api_forwarded_total{outcome=\"cancelled\"} %" PRIu64 "\n"
                "hangar_api_forwarded_total{outcome=\"declined\"} %" PRIu64 "\n"
                "# HELP hangar_api_forward_retries_total Forwards sent once more where a 421 pointed.\n"
                "# TYPE hangar_api_forward_retries_total counter\nhangar_api_forward_retries_total %" PRIu64 "\n"
                "# HELP hangar_api_forward_paused_total Times a forward waited for a slow client.\n"
                "# TYPE hangar_api_forward_paused_total counter\nhangar_api_forward_paused_total %" PRIu64 "\n"
                "# HELP hangar_api_forwards_active Forwards in flight.\n"
                "# TYPE hangar_api_forwards_active gauge\nhangar_api_forwards_active %u\n"
                "# HELP hangar_api_misdirected_total Forwarded requests answered 421 (sandbox elsewhere).\n"
                "# TYPE hangar_api_misdirected_total counter\nhangar_api_misdirected_total %" PRIu64 "\n",
                st.ok, st.unreachable, st.broken, st.cancelled, st.declined, st.retried, st.paused,
                st.active, api->misdirected);
  hg_fwdsign_stats sg;
  hg_fwdsign_get_stats(api->fwdsign, &sg);
  hg_buf_printf(b,
                "# HELP hangar_api_peer_requests_total Requests with forwarding headers, by the check of their signature.\n"
                "# TYPE hangar_api_peer_requests_total counter\n"
                "hangar_api_peer_requests_total{outcome=\"ok\"} %" PRIu64 "\n"
                "hangar_api_peer_requests_total{outcome=\"bad_signature\"} %" PRIu64 "\n"
                "hangar_api_peer_requests_total{outcome=\"stale\"} %" PRIu64 "\n"
                "hangar_api_peer_requests_total{outcome=\"replayed\"} %" PRIu64 "\n"
                "hangar_api_peer_requests_total{outcome=\"busy\"} %" PRIu64 "\n"
                "hangar_api_peer_requests_total{outcome=\"bad_body\"} %" PRIu64 "\n"
                "# HELP hangar_api_peer_nonces Signed requests' nonces remembered (replay window).\n"
                "# TYPE hangar_api_peer_nonces gauge\nhangar_api_peer_nonces %zu\n",
                sg.ok, sg.bad, sg.stale, sg.replayed, sg.busy, sg.bad_body, sg.nonces);
  if (api->have_peers && api->peers.metrics) api->peers.metrics(api->peers.ud, b);
  if (api->rp) hg_replicator_metrics(api->rp, b);
}

static void a_metrics(hg_call *c) {
  hg_buf *b = &c->u.text;
  metrics_api(c->api, b);
  metrics_cluster(c->api, b);
  hg__api_call_respond(c, 200, "text/plain; version=0.0.4; charset=utf-8", NULL,
                       b->data ? b->data : "", b->len);
}

static void text_cleanup(hg_call *c) { hg_buf_free(&c->u.text); }

void hg__api_h_metrics(hg_call *c) {
  hg_buf_init(&c->u.text, 16u * 1024 * 1024);
  c->cleanup = text_cleanup;
  hg__api_call_queue(c, w_metrics, a_metrics);
}
