/* netns_util: what the tests that make namespaces under /tmp share — the fd
 * and mount counts their teardowns check, the sweep of namespaces a crashed
 * run left, socket helpers, and raw frames as a guest would send them.
 * Header-only; shared by test_netns.c, test_nft.c and test_gateway.c. */
#ifndef HG_TESTS_NETNS_UTIL_H
#define HG_TESTS_NETNS_UTIL_H

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "node/core/log.h"
#include "node/core/util.h"

static inline int count_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  if (!d) return -1;
  while (readdir(d)) n++;
  closedir(d);
  return n;
}

/* Mount points at or under prefix. */
static inline int mounts_under(const char *prefix) {
  FILE *f = fopen("/proc/self/mountinfo", "r");
  char line[4096];
  int n = 0;
  size_t len = strlen(prefix);
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) {
    char mp[PATH_MAX];
    if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1 &&
        strncmp(mp, prefix, len) == 0 && (mp[len] == '\0' || mp[len] == '/'))
      n++;
  }
  fclose(f);
  return n;
}

/* 0 when as many fds are open as at setup; else says so and -1. */
static inline int check_fds(int at_setup) {
  int now = count_fds();
  if (now == at_setup) return 0;
  fprintf(stderr, "fd leak: %d open at setup, %d at teardown\n", at_setup, now);
  return -1;
}

/* The end of a teardown, once every handle is closed: detaches what is
 * still mounted at dir (the namespaces' directory under base), removes
 * base, and checks no fd leaked; -1 when a mount would not go or one did. */
static inline int teardown_end(const char *base, const char *dir, int fds_at_setup) {
  for (int i = 0; i < 4 && mounts_under(base) > 0; i++) umount2(dir, MNT_DETACH);
  int rc = mounts_under(base) == 0 ? hg_rm_rf(base) : -1;
  return check_fds(fds_at_setup) == 0 ? rc : -1;
}

/* For a group setup: the library's log goes to /dev/null unless
 * HG_TEST_LOG is set; -1 (and why) when not root. */
static inline int quiet_log_need_root(const char *test, const char *why) {
  if (!getenv("HG_TEST_LOG")) hg_log_set_fd(open("/dev/null", O_WRONLY | O_CLOEXEC));
  if (geteuid() == 0) return 0;
  fprintf(stderr, "%s needs root (%s)\n", test, why);
  return -1;
}

/* A test that crashed (cmocka runs no teardown after a signal) leaves its
 * namespaces mounted under /tmp/<prefix>-<pid>-XXXXXX; sweep those whose
 * process is gone. */
static inline void sweep_stale(const char *prefix) {
  char pattern[64];
  glob_t g;
  snprintf(pattern, sizeof pattern, "/tmp/%s-*-*", prefix);
  if (glob(pattern, GLOB_ONLYDIR, NULL, &g) != 0) return;
  for (size_t i = 0; i < g.gl_pathc; i++) {
    int pid = atoi(g.gl_pathv[i] + strlen("/tmp/") + strlen(prefix) + 1);
    if (pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH) continue;
    char dir[PATH_MAX], sub[2 * PATH_MAX];
    snprintf(dir, sizeof dir, "%s/netns", g.gl_pathv[i]);
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
      snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
      if (e->d_name[0] != '.') umount2(sub, MNT_DETACH);
    }
    if (d) closedir(d);
    umount2(dir, MNT_DETACH);
    if (mounts_under(g.gl_pathv[i]) == 0) hg_rm_rf(g.gl_pathv[i]);
  }
  globfree(&g);
}

static inline bool readable(int fd, int ms) {
  struct pollfd p = {.fd = fd, .events = POLLIN};
  return poll(&p, 1, ms) == 1;
}

static inline struct sockaddr_in sin_of(const char *ip, uint16_t port) {
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
  assert_int_equal(inet_pton(AF_INET, ip, &a.sin_addr), 1);
  return a;
}

/* ---- raw frames --------------------------------------------------------- */

static inline uint16_t ip_checksum(const uint8_t *p, size_t len) {
  uint32_t sum = 0;
  for (size_t i = 0; i + 1 < len; i += 2) sum += (uint32_t)(p[i] << 8 | p[i + 1]);
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return (uint16_t)~sum;
}

/* The Ethernet header; returns its length. */
static inline size_t eth(uint8_t *buf, const uint8_t dst[6], const uint8_t src[6],
                         uint16_t type) {
  memcpy(buf, dst, 6);
  memcpy(buf + 6, src, 6);
  buf[12] = (uint8_t)(type >> 8), buf[13] = (uint8_t)type;
  return 14;
}

/* Ethernet + IPv4 + UDP (no UDP checksum) into buf; returns the length. */
static inline size_t udp_frame(uint8_t *buf, const uint8_t dst[6], const uint8_t src[6],
                               struct in_addr sip, struct in_addr dip, uint16_t sport,
                               uint16_t dport, const char *data) {
  size_t dlen = strlen(data), iplen = 20 + 8 + dlen, off = eth(buf, dst, src, 0x0800);
  uint8_t *ip = buf + off;
  memset(ip, 0, 28);
  ip[0] = 0x45, ip[2] = (uint8_t)(iplen >> 8), ip[3] = (uint8_t)iplen;
  ip[8] = 64, ip[9] = IPPROTO_UDP;
  memcpy(ip + 12, &sip, 4);
  memcpy(ip + 16, &dip, 4);
  uint16_t ck = ip_checksum(ip, 20);
  ip[10] = (uint8_t)(ck >> 8), ip[11] = (uint8_t)ck;
  uint8_t *udp = ip + 20;
  udp[0] = (uint8_t)(sport >> 8), udp[1] = (uint8_t)sport;
  udp[2] = (uint8_t)(dport >> 8), udp[3] = (uint8_t)dport;
  udp[4] = (uint8_t)((8 + dlen) >> 8), udp[5] = (uint8_t)(8 + dlen);
  memcpy(udp + 8, data, dlen);
  return off + iplen;
}

#endif
