/* bench_netns: setting up and tearing down one sandbox's network (gateway/
 * netns + gateway/nft), beside a baseline measured in the same run: the
 * namespace alone made and removed by iproute2 (`ip netns add` / `ip netns
 * del`, fork + exec included, as a daemon shelling out would pay).
 *
 *   bench_netns [--dir DIR] [--runs N] [--json FILE]
 *
 * One run of ours: create the namespace (lo up, IPv6 off), create the tap
 * with the gateway address, apply the full ruleset (one allow entry); then
 * close the tap, close the handle, delete the namespace. Runs alternate
 * with the baseline so both see the same machine. Needs root. */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gateway/netns.h"
#include "gateway/nft.h"
#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "tools/bench/bench_util.h"

#define MAX_RUNS 10000
#define TARGET_MS 20.0

extern char **environ;

typedef struct series {
  const char *name;
  double *ms;
  int n;
} series;

static double pct(series *s, double p) {
  return bench_pct(s->ms, s->n, p);
}

static void add(series *s, int64_t t0, int64_t t1) {
  s->ms[s->n++] = bench_ms(t0, t1);
}

static void die(const char *what, int rc) {
  fprintf(stderr, "bench_netns: %s: %s\n", what, hg_err_str(rc));
  exit(1);
}

/* Runs argv, waits; 0 when it exited 0. */
static int run(char *const argv[]) {
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
  if (rc != 0) return -rc;
  int st;
  if (waitpid(pid, &st, 0) < 0) return -errno;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
}

int main(int argc, char **argv) {
  const char *dir = "/tmp/hangar-bench-netns", *json_out = NULL;
  int runs = 100;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--dir"))
      dir = argv[i + 1];
    else if (!strcmp(argv[i], "--runs"))
      runs = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--json"))
      json_out = argv[i + 1];
  }
  if (runs < 1 || runs > MAX_RUNS || (argc % 2) == 0) {
    fprintf(stderr, "usage: bench_netns [--dir DIR] [--runs N] [--json FILE]\n");
    return 2;
  }
  if (geteuid() != 0) {
    fprintf(stderr, "bench_netns: needs root\n");
    return 2;
  }
  hg_log_set_level(HG_LOG_WARN);

  enum { NS, TAP, NFT, SETUP, TEARDOWN, TOTAL, IP_ADD, IP_DEL, IP_TOTAL, NSERIES };
  static series s[NSERIES] = {
      [NS] = {.name = "  netns create (lo up)"},
      [TAP] = {.name = "  tap create + address"},
      [NFT] = {.name = "  nft apply (2 tables)"},
      [SETUP] = {.name = "hangar setup"},
      [TEARDOWN] = {.name = "hangar teardown"},
      [TOTAL] = {.name = "hangar setup + teardown"},
      [IP_ADD] = {.name = "ip netns add (baseline)"},
      [IP_DEL] = {.name = "ip netns del (baseline)"},
      [IP_TOTAL] = {.name = "ip netns add + del (baseline)"},
  };
  for (int k = 0; k < NSERIES; k++)
    if (!(s[k].ms = calloc((size_t)runs, sizeof(double)))) die("calloc", -ENOMEM);

  hg_nft_allow allow;
  hg_nft_allow_parse("203.0.113.0/24:5432", &allow);
  hg_nft_config cfg = {.dns_port = 5353,
                       .http_port = 8080,
                       .https_port = 8443,
                       .relay_port = 7000,
                       .allow = &allow,
                       .n_allow = 1};
  hg_netns_link_default(&cfg.link);

  for (int i = 0; i < runs; i++) {
    char name[HG_NETNS_NAME_MAX];
    snprintf(name, sizeof name, "sb-bench-%d", i);
    hg_netns *ns;
    int tap, rc;
    int64_t t0 = hg_now_ns();
    if ((rc = hg_netns_create(dir, name, &ns)) < 0) die("netns create", rc);
    int64_t t1 = hg_now_ns();
    if ((rc = hg_netns_tap_create(ns, &cfg.link, &tap)) < 0) die("tap create", rc);
    int64_t t2 = hg_now_ns();
    if ((rc = hg_nft_apply(ns, &cfg)) < 0) die("nft apply", rc);
    int64_t t3 = hg_now_ns();
    close(tap);
    hg_netns_close(ns);
    if ((rc = hg_netns_delete(dir, name)) < 0) die("netns delete", rc);
    int64_t t4 = hg_now_ns();
    add(&s[NS], t0, t1);
    add(&s[TAP], t1, t2);
    add(&s[NFT], t2, t3);
    add(&s[SETUP], t0, t3);
    add(&s[TEARDOWN], t3, t4);
    add(&s[TOTAL], t0, t4);

    char ipname[64];
    snprintf(ipname, sizeof ipname, "hg-bench-%d-%d", (int)getpid(), i);
    char *add_argv[] = {"ip", "netns", "add", ipname, NULL};
    char *del_argv[] = {"ip", "netns", "del", ipname, NULL};
    t0 = hg_now_ns();
    if ((rc = run(add_argv)) < 0) die("ip netns add", rc);
    t1 = hg_now_ns();
    if ((rc = run(del_argv)) < 0) die("ip netns del", rc);
    t2 = hg_now_ns();
    add(&s[IP_ADD], t0, t1);
    add(&s[IP_DEL], t1, t2);
    add(&s[IP_TOTAL], t0, t2);
  }
  hg_netns_dir_release(dir);
  rmdir(dir);

  double p50[NSERIES], p90[NSERIES];
  for (int k = 0; k < NSERIES; k++) p50[k] = pct(&s[k], 0.5), p90[k] = pct(&s[k], 0.9);
  printf("bench_netns: %d runs, one sandbox network each (netns + tap + nft rules)\n\n",
         runs);
  printf("%-32s %9s %9s\n", "", "p50 ms", "p90 ms");
  for (int k = 0; k < NSERIES; k++) {
    if (k == IP_ADD) printf("\n");
    printf("%-32s %9.2f %9.2f\n", s[k].name, p50[k], p90[k]);
  }
  printf(
      "\nsetup + teardown: hangar %.2f ms vs `ip netns add + del` %.2f ms (p50, x%.2f); "
      "target <= %.0f ms: %s\n",
      p50[TOTAL], p50[IP_TOTAL], p50[IP_TOTAL] > 0 ? p50[TOTAL] / p50[IP_TOTAL] : 0,
      TARGET_MS, p50[TOTAL] <= TARGET_MS ? "met" : "NOT met");

  if (json_out) {
    FILE *f = fopen(json_out, "w");
    if (!f) die(json_out, -errno);
    fprintf(f, "{\"bench\": \"netns\", \"runs\": %d, \"target_ms\": %.1f, \"series\": [",
            runs, TARGET_MS);
    for (int k = 0; k < NSERIES; k++) {
      const char *n = s[k].name;
      while (*n == ' ') n++;
      fprintf(f, "%s{\"name\": \"%s\", \"p50_ms\": %.3f, \"p90_ms\": %.3f}",
              k ? ", " : "", n, p50[k], p90[k]);
    }
    fprintf(f, "]}\n");
    fclose(f);
  }
  for (int k = 0; k < NSERIES; k++) free(s[k].ms);
  return 0;
}
