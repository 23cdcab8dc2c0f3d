/* What this node tells the cluster about itself (DESIGN §8, node metadata):
 * ids and addresses, VMM and CPU class (snapshot compatibility), totals,
 * and the load, refreshed once a second on a worker. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "node/core/log.h"
#include "node/core/util.h"
#include "node/hangard/hangard.h"
#include "node/template.h"

/* --- cluster: what this node tells the others ----------------------------------- */

/* First line a program prints, for `qemu-system-x86_64 --version`. */
static int first_line_of(const char *const argv[], char *out, size_t cap) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) < 0) return -errno;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -errno;
  }
  if (pid == 0) {
    dup2(fds[1], 1);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) dup2(null, 2);
    execvp(argv[0], (char *const *)argv);
    _exit(127);
  }
  close(fds[1]);
  size_t len = 0;
  ssize_t r;
  while (len + 1 < cap && (r = read(fds[0], out + len, cap - 1 - len)) != 0) {
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) break;
    len += (size_t)r;
  }
  out[len] = '\0';
  out[strcspn(out, "\n")] = '\0';
  close(fds[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return len ? 0 : -ENOENT;
}

/* "QEMU emulator version 7.2.22 (Debian …)" -> "7.2.22": snapshots move
 * only between nodes whose VMM can load them. */
static void vmm_version(char out[32]) {
  const char *const argv[] = {hg_qemu_bin(), "--version", NULL};
  char line[256];
  snprintf(out, 32, "unknown");
  if (first_line_of(argv, line, sizeof line) < 0) return;
  const char *v = strstr(line, "version ");
  if (v) snprintf(out, 32, "%.*s", (int)strcspn(v + 8, " "), v + 8);
}

/* Under TCG the guest CPU model is the same everywhere; under KVM a
 * snapshot wants the same host CPU model. From the accelerator that runs,
 * not from /dev/kvm: snapshots must never move between KVM and TCG nodes. */
static void cpu_class(const hg_accel *accel, char out[64]) {
  snprintf(out, 64, "tcg");
  if (strcmp(accel->name, "kvm") != 0) return;
  snprintf(out, 64, "kvm");
  char *text;
  if (hg_read_file("/proc/cpuinfo", 1u << 20, &text, NULL) < 0) return;
  const char *p = strstr(text, "model name");
  if (p && (p = strchr(p, ':'))) {
    p += 1 + strspn(p + 1, " \t");
    snprintf(out, 64, "%.*s", (int)strcspn(p, "\n"), p);
  }
  free(text);
}

int hg_meta_base(hg_node *n, int api_port) {
  hg_config *c = &n->cfg;
  hg_node_meta *m = &n->meta_base;
  memset(m, 0, sizeof *m);
  snprintf(m->id, sizeof m->id, "%s", c->node_id);
  /* Lengths were checked (dialable): the precisions only quiet the compiler. */
  snprintf(m->gossip_addr, sizeof m->gossip_addr, "%.63s",
           c->advertise[0] ? c->advertise : c->gossip);
  char host[256];
  int port;
  if (c->api_advertise[0]) {
    snprintf(m->api_addr, sizeof m->api_addr, "%.63s", c->api_advertise);
  } else if (hg_hostport_split(c->listen, host, sizeof host, -1, &port) == 0 &&
             !hg_conf_is_wildcard(host)) {
    hg_hostport_join(m->api_addr, sizeof m->api_addr, host, api_port);
  } else if (hg_hostport_split(m->gossip_addr, host, sizeof host, -1, &port) == 0) {
    /* The API listens everywhere: peers reach it where they reach gossip. */
    hg_hostport_join(m->api_addr, sizeof m->api_addr, host, api_port);
  }
  snprintf(m->zone, sizeof m->zone, "%s", c->zone);
  snprintf(m->vmm_kind, sizeof m->vmm_kind, "qemu");
  vmm_version(m->vmm_version);
  cpu_class(&n->accel, m->cpu_class);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  m->vcpus_total = cpus > 0 ? (uint32_t)cpus : 1;
  uint64_t ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
  m->memory_total_mib = c->max_memory_mib > 0 ? (uint64_t)c->max_memory_mib : ram >> 20;
  m->max_sandboxes = c->max_sandboxes > 0 ? (uint32_t)c->max_sandboxes : 0;
  return hg_conf_labels(c->labels, m);
}

static bool holds_memory(const char *state) {
  static const char *const live[] = {"creating", "running", "paused", "resuming",
                                     "suspending"};
  for (size_t i = 0; state && i < HG_ARRAY_SIZE(live); i++)
    if (strcmp(state, live[i]) == 0) return true;
  return false;
}

/* Templates held, and the warm pool's guests, which hold memory too. */
static void meta_templates(hg_node *n, hg_node_meta *m) {
  json_t *list = hg_template_list(n->manager), *t;
  size_t i;
  unsigned pool_mib = 0;
  json_array_foreach(list, i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    if (!name || strlen(name) >= HG_META_NAME_MAX) continue;
    if (strcmp(name, n->cfg.template_name) == 0)
      pool_mib = (unsigned)json_integer_value(json_object_get(t, "memory_mib"));
    bool seen = false;
    for (unsigned k = 0; k < m->ntemplates && !seen; k++)
      seen = !strcmp(m->templates[k], name);
    if (!seen && m->ntemplates < HG_META_TEMPLATES)
      snprintf(m->templates[m->ntemplates++], HG_META_NAME_MAX, "%s", name);
  }
  json_decref(list);
  m->memory_used_mib += (uint64_t)hg_manager_pool_ready(n->manager) * pool_mib;
}

/* Sandbox counts from the manager's memory (cheap, loop-safe). */
static void meta_counts(hg_node *n, hg_node_meta *m) {
  unsigned counts[HG_SB_FAILED + 1];
  hg_manager_counts(n->manager, counts);
  m->sandboxes_running = counts[HG_SB_RUNNING];
  m->sandboxes_paused = counts[HG_SB_PAUSED];
  m->sandboxes_suspended = counts[HG_SB_SUSPENDED];
  m->sandboxes_total = 0;
  for (int s = 0; s <= HG_SB_FAILED; s++)
    if (s != HG_SB_DELETED) m->sandboxes_total += counts[s];
}

/* The load part; on a worker (the template list reads the disk). */
void hg_meta_load(hg_node *n, hg_node_meta *m) {
  *m = n->meta_base;
  meta_counts(n, m);
  /* The live guests' own sizes: what they were given, not what they touched. */
  json_t *list = hg_sandbox_list(n->manager, NULL, NULL), *sb;
  size_t i;
  json_array_foreach(list, i, sb) {
    if (!holds_memory(json_string_value(json_object_get(sb, "state")))) continue;
    m->vcpus_used += (uint32_t)json_integer_value(json_object_get(sb, "vcpus"));
    m->memory_used_mib += (uint64_t)json_integer_value(json_object_get(sb, "memory_mib"));
  }
  json_decref(list);
  meta_templates(n, m);
  struct statvfs vfs;
  if (statvfs(hg_store_root(n->store), &vfs) == 0)
    m->disk_free_mib = (uint64_t)vfs.f_bavail * vfs.f_frsize >> 20;
  m->updated_ms = hg_wall_ns() / 1000000;
}

static void meta_work(uv_work_t *w) {
  hg_node *n = w->data;
  hg_node_meta m;
  hg_meta_load(n, &m);
  hg_cluster *cl = hg_guard_enter(&n->cl);
  n->meta_last = m;
  if (cl) hg_cluster_set_meta(cl, &m);
  hg_guard_leave(&n->cl);
}

/* Placement reads our own room from our metadata, which the timer refreshes
 * once a second: a create that just filled this node would not show yet,
 * and the next one would be placed here again and refused. Counts are
 * fresh in memory, so put them in before placing. */
void hg_meta_counts_now(hg_node *n) {
  hg_cluster *cl = hg_guard_enter(&n->cl);
  if (cl && n->meta_last.id[0]) {
    meta_counts(n, &n->meta_last);
    hg_cluster_set_meta(cl, &n->meta_last);
  }
  hg_guard_leave(&n->cl);
}

static void meta_done(uv_work_t *w, int status) {
  hg_node *n = w->data;
  n->meta_busy = false;
}

void hg_meta_on_timer(uv_timer_t *t) {
  hg_node *n = t->data;
  if (n->meta_busy || !n->cluster) return;
  n->meta_busy = true;
  n->meta_work.data = n;
  uv_queue_work(n->loop, &n->meta_work, meta_work, meta_done);
}
