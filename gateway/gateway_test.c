#include "gateway/gateway_test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gateway/netns.h"
#include "node/core/log.h"
#include "node/core/util.h"

extern char **environ;

/* Runs a command line split on spaces (no quoting: the arguments here are
 * names and addresses); 0 when it exited 0. */
static int sh(const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof line) return -ENAMETOOLONG;
  char *argv[32];
  int argc = 0;
  for (char *save = NULL, *t = strtok_r(line, " ", &save); t && argc < 31;
       t = strtok_r(NULL, " ", &save))
    argv[argc++] = t;
  argv[argc] = NULL;
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
  if (rc != 0) return -rc;
  int st;
  if (waitpid(pid, &st, 0) < 0) return -errno;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return 0;
  hg_log_warn("gateway_test.cmd", "cmd=\"%s\" status=%d", argv[0], st);
  return -EIO;
}

int hg_gateway_test_attach_veth(hg_gateway *gw, const char *netns_dir, const char *name,
                                const char *guest_netns) {
  hg_netns_link link;
  hg_netns_link_default(&link);
  char path[4096];
  int rc = hg_path(path, sizeof path, "%s/%s", netns_dir, name);
  if (rc < 0) return rc;
  int tap = -1;
  if ((rc = hg_gateway_attach(gw, name, &tap)) < 0) return rc;
  close(tap);
  const uint8_t *m = link.guest_mac;
  char mac[18];
  snprintf(mac, sizeof mac, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4],
           m[5]);
  char gw_ip[16], guest_ip[16];
  inet_ntop(AF_INET, &link.gw_ip, gw_ip, sizeof gw_ip);
  inet_ntop(AF_INET, &link.guest_ip, guest_ip, sizeof guest_ip);
  if ((rc = sh("nsenter --net=%s ip link del %s", path, link.ifname)) < 0 ||
      (rc = sh("nsenter --net=%s ip link add %s mtu %u type veth peer name eth0 netns %s",
               path, link.ifname, link.mtu, guest_netns)) < 0)
    return rc;
  hg_netns *ns;
  if ((rc = hg_netns_open(netns_dir, name, &ns)) < 0) return rc;
  rc = hg_netns_link_up(ns, &link);
  hg_netns_close(ns);
  if (rc < 0) return rc;
  /* the open namespace: rules again (now hooking the veth), listeners kept */
  if ((rc = hg_gateway_attach(gw, name, NULL)) < 0) return rc;
  if ((rc = sh("ip -n %s link set lo up", guest_netns)) < 0 ||
      (rc = sh("ip -n %s link set eth0 address %s", guest_netns, mac)) < 0 ||
      (rc = sh("ip -n %s addr add %s/%u dev eth0", guest_netns, guest_ip,
               link.prefix_len)) < 0 ||
      (rc = sh("ip -n %s link set eth0 up", guest_netns)) < 0 ||
      (rc = sh("ip -n %s route add default via %s", guest_netns, gw_ip)) < 0)
    return rc;
  return 0;
}
