/* hangard: the node daemon. The composition root: it builds the store, the
 * sandbox manager, the operation journal and the HTTP API, and wires them
 * to one libuv loop. Blocking work runs on the loop's thread pool. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "api/api.h"
#include "api/http.h"
#include "node/core/config.h"
#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "node/op.h"
#include "node/sandbox.h"
#include "node/template.h"

#define TICK_MS 10000
#define THREADPOOL_SIZE "64"

typedef struct hg_config {
  char config[4096];
  char data[4096];
  char listen[256];
  char api_key[256];
  char node_id[64];
  char template_dir[4096];
  char template_name[96];
  char log_level[16];
  char shim[4096];
  int64_t max_sandboxes;
  int64_t max_memory_mib;
  int64_t idle_suspend_s;
  int64_t image_size_gib;
  int64_t pool_size;
} hg_config;

typedef struct hg_node {
  hg_config cfg;
  uv_loop_t *loop;
  hg_store *store;
  hg_manager *manager;
  hg_ops *ops;
  hg_api *api;
  hg_http_server *http;
  uv_signal_t sigint, sigterm;
  uv_timer_t tick;
  uv_work_t tick_work;
  bool ticking;
  uv_work_t template_work;
  char template_op[HG_ID_MAX];
  int exit_code;
} hg_node;

static void config_defaults(hg_config *c) {
  memset(c, 0, sizeof *c);
  strcpy(c->data, "/var/lib/hangar");
  strcpy(c->listen, "127.0.0.1:7070");
  strcpy(c->template_name, "default:latest");
  strcpy(c->log_level, "info");
  c->idle_suspend_s = 6 * 3600;
  c->image_size_gib = 64;
  c->pool_size = 2;
}

static int config_load(hg_config *c, int argc, char **argv) {
  const hg_opt opts[] = {
      {"config", HG_OPT_STR, c->config, sizeof c->config, "config file (key = value lines)"},
      {"data", HG_OPT_STR, c->data, sizeof c->data, "data dir; made a btrfs loop image when not on btrfs (/var/lib/hangar)"},
      {"listen", HG_OPT_STR, c->listen, sizeof c->listen, "API address HOST:PORT (127.0.0.1:7070)"},
      {"api-key", HG_OPT_STR, c->api_key, sizeof c->api_key, "admin API key (default: <data>/state/api-key, made at first start)"},
      {"node-id", HG_OPT_STR, c->node_id, sizeof c->node_id, "node id (default: <data>/state/node-id, made at first start)"},
      {"template-dir", HG_OPT_STR, c->template_dir, sizeof c->template_dir, "register this mkimage output dir as --template-name at start if missing"},
      {"template-name", HG_OPT_STR, c->template_name, sizeof c->template_name, "name:tag for --template-dir (default:latest)"},
      {"max-sandboxes", HG_OPT_INT, &c->max_sandboxes, 0, "most sandboxes on this node (0: no limit)"},
      {"max-memory-mib", HG_OPT_INT, &c->max_memory_mib, 0, "most guest memory of live sandboxes, MiB (0: no limit)"},
      {"idle-suspend-s", HG_OPT_INT, &c->idle_suspend_s, 0, "default idle time before a sandbox is suspended (21600)"},
      {"image-size-gib", HG_OPT_INT, &c->image_size_gib, 0, "size of the sparse btrfs image when one is made (64)"},
      {"pool-size", HG_OPT_INT, &c->pool_size, 0, "warm sandboxes of the default template kept ready for creates (2; 0: off)"},
      {"shim", HG_OPT_STR, c->shim, sizeof c->shim, "hangar-shim binary (default: next to hangard)"},
      {"log-level", HG_OPT_STR, c->log_level, sizeof c->log_level, "debug, info, warn or error (info)"},
  };
  return hg_config_load(opts, HG_ARRAY_SIZE(opts), argc, argv, "hangard");
}

/* A secret or id kept under state/, made once: flag/env win over it. */
static int state_value(hg_node *n, const char *file, char *value, size_t cap,
                       size_t random_bytes, const char *prefix, bool *made) {
  char path[4096], *text;
  *made = false;
  if (value[0]) return 0;
  int rc = hg_path(path, sizeof path, "%s/state/%s", hg_store_root(n->store), file);
  if (rc < 0) return rc;
  if (hg_read_file(path, cap - 1, &text, NULL) == 0) {
    snprintf(value, cap, "%s", text);
    value[strcspn(value, "\r\n")] = '\0';
    free(text);
    if (value[0]) return 0;
  }
  uint8_t raw[32];
  char hex[65];
  if (random_bytes > sizeof raw) random_bytes = sizeof raw;
  if ((rc = hg_random_bytes(raw, random_bytes)) < 0) return rc;
  hg_hex_encode(raw, random_bytes, hex);
  if ((rc = hg_path(value, cap, "%s%s", prefix, hex)) < 0) return rc;
  *made = true;
  return hg_write_file_atomic(path, value, strlen(value));
}

static void shim_default(hg_config *c) {
  if (c->shim[0]) return;
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return;
  exe[len] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash) return;
  *slash = '\0';
  /* Installed side by side, or in the build tree (node/shim/). */
  snprintf(c->shim, sizeof c->shim, "%.4000s/hangar-shim", exe);
  if (access(c->shim, X_OK) == 0) return;
  snprintf(c->shim, sizeof c->shim, "%.4000s/shim/hangar-shim", exe);
}

/* --- template import at start ------------------------------------------------ */

static void template_progress(void *ud, const char *text) {
  hg_node *n = ud;
  hg_op_progress(n->ops, n->template_op, text);
}

static void template_work(uv_work_t *w) {
  hg_node *n = w->data;
  hg_template_info info;
  int rc = hg_template_build(n->store, &hg_vmm_qemu, n->cfg.shim, n->cfg.template_name,
                             n->cfg.template_dir, template_progress, n, &info);
  hg_op_finish(n->ops, n->template_op, rc,
               rc == 0 ? json_pack("{s:s, s:s}", "name", info.name, "digest", info.digest)
                       : NULL);
}

static void template_done(uv_work_t *w, int status) {}

static void maybe_import_template(hg_node *n) {
  if (!n->cfg.template_dir[0] || hg_template_exists(n->manager, n->cfg.template_name))
    return;
  if (hg_op_begin(n->ops, "template", "", n->template_op) < 0) return;
  hg_log_info("template.import", "template=%s dir=%s op=%s", n->cfg.template_name,
              n->cfg.template_dir, n->template_op);
  n->template_work.data = n;
  uv_queue_work(n->loop, &n->template_work, template_work, template_done);
}

/* --- periodic work ------------------------------------------------------------ */

static void tick_work(uv_work_t *w) {
  hg_node *n = w->data;
  hg_manager_tick(n->manager);
}

static void tick_done(uv_work_t *w, int status) {
  hg_node *n = w->data;
  n->ticking = false;
}

static void on_tick(uv_timer_t *t) {
  hg_node *n = t->data;
  if (n->ticking) return;
  n->ticking = true;
  n->tick_work.data = n;
  uv_queue_work(n->loop, &n->tick_work, tick_work, tick_done);
}

/* --- shutdown ------------------------------------------------------------------ */

static void http_closed(void *ud) {
  hg_node *n = ud;
  n->http = NULL;
  hg_api_free(n->api);
  n->api = NULL;
  uv_close((uv_handle_t *)&n->sigint, NULL);
  uv_close((uv_handle_t *)&n->sigterm, NULL);
  uv_close((uv_handle_t *)&n->tick, NULL);
}

static void on_signal(uv_signal_t *s, int signum) {
  hg_node *n = s->data;
  if (!n->http) return;
  hg_log_info("node.shutdown", "signal=%d", signum);
  uv_timer_stop(&n->tick);
  hg_api_stop(n->api);
  hg_http_server_shutdown(n->http, 5000, http_closed, n);
}

static int parse_listen(const char *listen, char host[256], int *port) {
  const char *colon = strrchr(listen, ':');
  if (!colon || colon == listen || (size_t)(colon - listen) >= 256) return -EINVAL;
  memcpy(host, listen, (size_t)(colon - listen));
  host[colon - listen] = '\0';
  char *end;
  long p = strtol(colon + 1, &end, 10);
  if (*end || p < 0 || p > 65535) return -EINVAL;
  *port = (int)p;
  return 0;
}

static int set_log_level(const char *name) {
  static const char *const names[] = {"debug", "info", "warn", "error"};
  for (int i = 0; i < 4; i++)
    if (strcmp(name, names[i]) == 0) {
      hg_log_set_level((enum hg_log_level)i);
      return 0;
    }
  return -EINVAL;
}

static int node_open(hg_node *n) {
  hg_config *c = &n->cfg;
  if (set_log_level(c->log_level) < 0) {
    fprintf(stderr, "hangard: unknown log level \"%s\"\n", c->log_level);
    return -EINVAL;
  }
  shim_default(c);
  hg_store_options sopt = {.image_size = (uint64_t)c->image_size_gib << 30};
  int rc = hg_store_open(c->data, &sopt, &n->store);
  if (rc < 0) {
    fprintf(stderr, "hangard: cannot open data dir %s: %s\n", c->data, hg_err_str(rc));
    return rc;
  }
  bool made_id, made_key;
  if ((rc = state_value(n, "node-id", c->node_id, sizeof c->node_id, 4, "n-", &made_id)) < 0 ||
      (rc = state_value(n, "api-key", c->api_key, sizeof c->api_key, 24, "hgk_", &made_key)) < 0) {
    fprintf(stderr, "hangard: cannot write state: %s\n", hg_err_str(rc));
    return rc;
  }
  char prefix[96];
  snprintf(prefix, sizeof prefix, "node=%s", c->node_id);
  hg_log_set_prefix(prefix);
  if (made_key)
    fprintf(stderr, "hangard: generated admin API key (kept in %s/state/api-key):\n  %s\n",
            hg_store_root(n->store), c->api_key);
  if ((rc = hg_ops_open(hg_store_root(n->store), &n->ops)) < 0) return rc;
  hg_manager_config mcfg = {.store = n->store, .vmm = &hg_vmm_qemu, .shim_path = c->shim,
                            .max_sandboxes = (unsigned)c->max_sandboxes,
                            .max_memory_mib = (uint64_t)c->max_memory_mib,
                            .default_idle_suspend_s = c->idle_suspend_s,
                            .pool_size = c->pool_size > 0 ? (unsigned)c->pool_size : 0,
                            .pool_template = c->template_name};
  return hg_manager_open(&mcfg, &n->manager);
}

static int node_serve(hg_node *n) {
  char host[256];
  int port, rc;
  if (parse_listen(n->cfg.listen, host, &port) < 0) {
    fprintf(stderr, "hangard: bad --listen \"%s\" (want HOST:PORT)\n", n->cfg.listen);
    return -EINVAL;
  }
  hg_api_config acfg = {.manager = n->manager, .ops = n->ops,
                        .admin_key = n->cfg.api_key, .node_id = n->cfg.node_id};
  if ((rc = hg_api_new(n->loop, &acfg, &n->api)) < 0) return rc;
  hg_http_options hopt = {.host = host, .port = port};
  hg_api_http_options(n->api, &hopt);
  if ((rc = hg_http_server_start(n->loop, &hopt, &n->http)) < 0) {
    fprintf(stderr, "hangard: cannot listen on %s: %s\n", n->cfg.listen, hg_err_str(rc));
    return rc;
  }
  hg_log_info("node.ready", "listen=%s:%d data=%s", host, hg_http_port(n->http),
              hg_store_root(n->store));
  return 0;
}

static void node_signals(hg_node *n) {
  uv_signal_init(n->loop, &n->sigint);
  uv_signal_init(n->loop, &n->sigterm);
  n->sigint.data = n->sigterm.data = n;
  uv_signal_start(&n->sigint, on_signal, SIGINT);
  uv_signal_start(&n->sigterm, on_signal, SIGTERM);
  uv_timer_init(n->loop, &n->tick);
  n->tick.data = n;
  uv_timer_start(&n->tick, on_tick, TICK_MS, TICK_MS);
}

int main(int argc, char **argv) {
  static hg_node node;
  hg_node *n = &node;
  config_defaults(&n->cfg);
  int rc = config_load(&n->cfg, argc, argv);
  if (rc != 0) return rc == 1 ? 0 : 2;
  signal(SIGPIPE, SIG_IGN);
  /* Sandbox calls block on guests; the pool must be wide enough that slow
   * guests do not hold up everyone else. Set before the loop's first use. */
  setenv("UV_THREADPOOL_SIZE", THREADPOOL_SIZE, 0);
  umask(077);
  n->loop = uv_default_loop();
  if (node_open(n) < 0 || node_serve(n) < 0) return 1;
  node_signals(n);
  maybe_import_template(n);
  uv_run(n->loop, UV_RUN_DEFAULT);
  hg_manager_close(n->manager);
  hg_ops_close(n->ops);
  hg_store_close(n->store, false);
  hg_log_info("node.stopped", "data=%s", n->cfg.data);
  return n->exit_code;
}
