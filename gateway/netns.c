/* netns: named network namespaces, taps and sockets inside them. See netns.h.
 * Everything namespace-sensitive runs on a helper thread (ns_call) so that
 * no caller thread ever changes namespace. */
#include "gateway/netns.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <limits.h>
#include <linux/if_tun.h>
#include <linux/magic.h>
#include <linux/neighbour.h>
#include <linux/nsfs.h>
#include <linux/rtnetlink.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "node/core/err.h"
#include "node/core/ident.h"
#include "node/core/log.h"
#include "node/core/util.h"

#ifndef NSFS_MAGIC
#define NSFS_MAGIC 0x6e736673
#endif

/* A netlink answer from the kernel is an ack or an error; this is ample. */
#define NL_BUF 8192
#define NL_TIMEOUT_S 5

struct hg_netns {
  int fd;
  char name[HG_NETNS_NAME_MAX];
  char path[PATH_MAX];
};

/* ---- names and paths ---------------------------------------------------- */

static bool name_valid(const char *name) {
  return hg_name_valid(name, HG_NETNS_NAME_MAX);
}

static int ns_path(char *out, size_t cap, const char *dir, const char *name) {
  if (!dir || !*dir || !name_valid(name)) return -EINVAL;
  return hg_path(out, cap, "%s/%s", dir, name);
}

/* ---- running code inside a namespace ------------------------------------- */

typedef struct ns_call {
  int nsfd;   /* setns into this, or */
  bool fresh; /* unshare a new namespace */
  int (*fn)(void *arg);
  void *arg;
  int rc;
} ns_call;

static void *ns_thread(void *p) {
  ns_call *c = p;
  if (c->fresh ? unshare(CLONE_NEWNET) < 0 : setns(c->nsfd, CLONE_NEWNET) < 0) {
    c->rc = -errno;
    return NULL;
  }
  c->rc = c->fn(c->arg);
  return NULL;
}

/* The helper thread starts with every signal blocked so that process
 * signals keep going to the threads that expect them (the loop's). */
static int ns_call_run(ns_call *c) {
  sigset_t all, old;
  pthread_t t;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int err = pthread_create(&t, NULL, ns_thread, c);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (err != 0) return -err;
  pthread_join(t, NULL);
  return c->rc;
}

int hg_netns_run(const hg_netns *ns, int (*fn)(void *arg), void *arg) {
  if (!ns || !fn) return -EINVAL;
  ns_call c = {.nsfd = ns->fd, .fn = fn, .arg = arg};
  return ns_call_run(&c);
}

/* ---- rtnetlink (in the calling thread's namespace) ---------------------- */

static struct mnl_socket *nl_open(void) {
  struct mnl_socket *nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
  if (!nl) return NULL;
  struct timeval tv = {.tv_sec = NL_TIMEOUT_S};
  if (setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) < 0 ||
      mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
    int e = errno;
    mnl_socket_close(nl);
    errno = e;
    return NULL;
  }
  return nl;
}

/* Sends one request with NLM_F_ACK and waits for its ack. */
static int nl_talk(struct mnl_socket *nl, struct nlmsghdr *nlh) {
  static _Atomic uint32_t next_seq = 1;
  char buf[NL_BUF];
  nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
  nlh->nlmsg_seq = next_seq++;
  if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) return -errno;
  for (;;) {
    ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof buf);
    if (n < 0) return errno == EAGAIN ? -ETIMEDOUT : -errno;
    int rc =
        mnl_cb_run(buf, (size_t)n, nlh->nlmsg_seq, mnl_socket_get_portid(nl), NULL, NULL);
    if (rc < 0) return -errno;
    if (rc == MNL_CB_STOP) return 0;
  }
}

static struct nlmsghdr *nl_msg(char *buf, uint16_t type, uint16_t flags) {
  struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = flags;
  return nlh;
}

/* ifi_flags |= IFF_UP, plus (when given) MAC and MTU, in one RTM_NEWLINK. */
static int nl_link_set(struct mnl_socket *nl, int ifindex, const uint8_t *mac,
                       uint16_t mtu) {
  char buf[NL_BUF];
  struct nlmsghdr *nlh = nl_msg(buf, RTM_NEWLINK, 0);
  struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof *ifi);
  ifi->ifi_family = AF_UNSPEC;
  ifi->ifi_index = ifindex;
  ifi->ifi_flags = IFF_UP;
  ifi->ifi_change = IFF_UP;
  if (mac) mnl_attr_put(nlh, IFLA_ADDRESS, 6, mac);
  if (mtu) mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
  return nl_talk(nl, nlh);
}

static int nl_addr_add(struct mnl_socket *nl, int ifindex, struct in_addr ip,
                       uint8_t plen) {
  char buf[NL_BUF];
  struct nlmsghdr *nlh = nl_msg(buf, RTM_NEWADDR, NLM_F_CREATE | NLM_F_REPLACE);
  struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof *ifa);
  ifa->ifa_family = AF_INET;
  ifa->ifa_prefixlen = plen;
  ifa->ifa_scope = RT_SCOPE_UNIVERSE;
  ifa->ifa_index = (uint32_t)ifindex;
  uint32_t mask = htonl(~0u << (32 - plen));
  struct in_addr brd = {.s_addr = ip.s_addr | ~mask};
  mnl_attr_put(nlh, IFA_LOCAL, 4, &ip);
  mnl_attr_put(nlh, IFA_ADDRESS, 4, &ip);
  mnl_attr_put(nlh, IFA_BROADCAST, 4, &brd);
  return nl_talk(nl, nlh);
}

static int nl_neigh_add(struct mnl_socket *nl, int ifindex, struct in_addr ip,
                        const uint8_t mac[6]) {
  char buf[NL_BUF];
  struct nlmsghdr *nlh = nl_msg(buf, RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE);
  struct ndmsg *nd = mnl_nlmsg_put_extra_header(nlh, sizeof *nd);
  nd->ndm_family = AF_INET;
  nd->ndm_ifindex = ifindex;
  nd->ndm_state = NUD_PERMANENT;
  mnl_attr_put(nlh, NDA_DST, 4, &ip);
  mnl_attr_put(nlh, NDA_LLADDR, 6, mac);
  return nl_talk(nl, nlh);
}

/* ---- set-up that runs inside the namespace ------------------------------- */

static int write_sysctl(const char *path, const char *value) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  ssize_t n = write(fd, value, strlen(value));
  int err = n < 0 ? -errno : 0;
  close(fd);
  return err;
}

/* A new namespace: no IPv6 (the gateway speaks none, and an IPv6 stack on
 * the tap would chat with the guest: router solicitations, DAD), no
 * forwarding even when the host's defaults are inherited, lo up. */
static int ns_init(void) {
  static const char *const v6[] = {"/proc/sys/net/ipv6/conf/all/disable_ipv6",
                                   "/proc/sys/net/ipv6/conf/default/disable_ipv6"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(v6); i++) {
    int rc = write_sysctl(v6[i], "1");
    if (rc < 0 && rc != -ENOENT) return rc; /* -ENOENT: kernel without IPv6 */
  }
  int rc = write_sysctl("/proc/sys/net/ipv4/ip_forward", "0");
  if (rc < 0) return rc;
  struct mnl_socket *nl = nl_open();
  if (!nl) return -errno;
  int lo = (int)if_nametoindex("lo");
  rc = lo > 0 ? nl_link_set(nl, lo, NULL, 0) : -ENODEV;
  mnl_socket_close(nl);
  return rc;
}

typedef struct create_arg {
  const char *path;
  bool mounted;
} create_arg;

static int create_in_ns(void *p) {
  create_arg *a = p;
  if (mount("/proc/thread-self/ns/net", a->path, "none", MS_BIND, NULL) < 0)
    return -errno;
  a->mounted = true;
  return ns_init();
}

/* ---- the directory of namespaces ---------------------------------------- */

/* Makes dir a shared mount point, once: the bind mounts of nsfs files need
 * a mount point they can propagate from (iproute2's netns_add does the
 * same for /run/netns). Serialised so that concurrent creates do not stack
 * several bind mounts of dir onto itself. */
static int dir_prepare(const char *dir) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  int err = hg_mkdir_p(dir, 0755);
  if (err < 0) return err;
  pthread_mutex_lock(&lock);
  bool made = false;
  while (mount("", dir, "none", MS_SHARED | MS_REC, NULL) < 0) {
    if (errno != EINVAL || made) {
      err = -errno;
      break;
    }
    /* Not a mount point yet (EINVAL): make it one. */
    if (mount(dir, dir, "none", MS_BIND | MS_REC, NULL) < 0) {
      err = -errno;
      break;
    }
    made = true;
  }
  pthread_mutex_unlock(&lock);
  if (err < 0) hg_log_error("netns.dir", "dir=%s err=%s", dir, hg_err_str(err));
  return err;
}

int hg_netns_dir_release(const char *dir) {
  if (!dir || !*dir) return -EINVAL;
  if (umount2(dir, MNT_DETACH) < 0) return -errno;
  return 0;
}

/* ---- handles ------------------------------------------------------------- */

static int handle_new(const char *dir, const char *name, int fd, hg_netns **out) {
  hg_netns *ns = calloc(1, sizeof *ns);
  if (!ns) return -ENOMEM;
  ns->fd = fd;
  snprintf(ns->name, sizeof ns->name, "%s", name);
  if (hg_path(ns->path, sizeof ns->path, "%s/%s", dir, name) < 0) {
    free(ns);
    return -ENAMETOOLONG;
  }
  *out = ns;
  return 0;
}

/* Opens path and checks it is a network namespace (a file left behind by a
 * crash between creat and mount is not). */
static int nsfd_open(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  if (ioctl(fd, NS_GET_NSTYPE) != CLONE_NEWNET) {
    close(fd);
    return -ENOENT;
  }
  return fd;
}

int hg_netns_create(const char *dir, const char *name, hg_netns **out) {
  char path[PATH_MAX];
  int err = ns_path(path, sizeof path, dir, name);
  if (err < 0 || !out) return err < 0 ? err : -EINVAL;
  if ((err = dir_prepare(dir)) < 0) return err;

  /* The file to bind onto; O_EXCL makes the name the lock. */
  int fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
  if (fd < 0) return -errno;
  close(fd);

  create_arg a = {.path = path};
  ns_call c = {.nsfd = -1, .fresh = true, .fn = create_in_ns, .arg = &a};
  err = ns_call_run(&c);
  if (err == 0) {
    fd = nsfd_open(path);
    err = fd < 0 ? fd : handle_new(dir, name, fd, out);
    if (err < 0 && fd >= 0) close(fd);
  }
  if (err < 0) {
    if (a.mounted) umount2(path, MNT_DETACH);
    unlink(path);
    hg_log_error("netns.create", "netns=%s err=%s", path, hg_err_str(err));
    return err;
  }
  return 0;
}

int hg_netns_open(const char *dir, const char *name, hg_netns **out) {
  char path[PATH_MAX];
  int err = ns_path(path, sizeof path, dir, name);
  if (err < 0 || !out) return err < 0 ? err : -EINVAL;
  int fd = nsfd_open(path);
  if (fd < 0) return fd;
  if ((err = handle_new(dir, name, fd, out)) < 0) close(fd);
  return err;
}

void hg_netns_close(hg_netns *ns) {
  if (!ns) return;
  close(ns->fd);
  free(ns);
}

int hg_netns_delete(const char *dir, const char *name) {
  char path[PATH_MAX];
  int err = ns_path(path, sizeof path, dir, name);
  if (err < 0) return err;
  /* Normally one mount; a crashed, retried create could have stacked more. */
  int unmounted = 0;
  while (unmounted < 8 && umount2(path, MNT_DETACH) == 0) unmounted++;
  if (unlink(path) < 0) {
    if (errno != ENOENT || unmounted == 0) return -errno;
  }
  return 0;
}

const char *hg_netns_name(const hg_netns *ns) {
  return ns->name;
}
const char *hg_netns_path(const hg_netns *ns) {
  return ns->path;
}
int hg_netns_fd(const hg_netns *ns) {
  return ns->fd;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* An entry is live when an nsfs is mounted on it. */
static bool entry_live(const char *dir, const char *name) {
  char path[PATH_MAX];
  struct statfs fs;
  return ns_path(path, sizeof path, dir, name) == 0 && statfs(path, &fs) == 0 &&
         fs.f_type == NSFS_MAGIC;
}

int hg_netns_list(const char *dir, char ***names, size_t *count) {
  if (!dir || !names || !count) return -EINVAL;
  size_t n = 0, cap = 16;
  char **v = calloc(cap + 1, sizeof *v);
  if (!v) return -ENOMEM;
  DIR *d = opendir(dir);
  if (!d && errno != ENOENT) {
    int e = -errno;
    free(v);
    return e;
  }
  int err = 0;
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
    if (!name_valid(e->d_name) || !entry_live(dir, e->d_name)) continue;
    if (n == cap) {
      char **nv = realloc(v, (cap * 2 + 1) * sizeof *v);
      if (!nv) {
        err = -ENOMEM;
        break;
      }
      v = nv;
      cap *= 2;
    }
    if (!(v[n] = strdup(e->d_name))) {
      err = -ENOMEM;
      break;
    }
    v[++n] = NULL;
  }
  if (d) closedir(d);
  if (err < 0) {
    hg_netns_list_free(v);
    return err;
  }
  qsort(v, n, sizeof *v, cmp_names);
  *names = v;
  *count = n;
  return 0;
}

void hg_netns_list_free(char **names) {
  if (!names) return;
  for (char **p = names; *p; p++) free(*p);
  free(names);
}

/* ---- sockets ------------------------------------------------------------- */

typedef struct sock_arg {
  int domain, type, protocol;
  const struct sockaddr_in *bind; /* NULL: socket only */
  int backlog;
  int fd;
} sock_arg;

static int sock_in_ns(void *p) {
  sock_arg *a = p;
  int fd = socket(a->domain, a->type | SOCK_CLOEXEC, a->protocol);
  if (fd < 0) return -errno;
  if (a->bind) {
    int one = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        bind(fd, (const struct sockaddr *)a->bind, sizeof *a->bind) < 0 ||
        ((a->type & 0xf) == SOCK_STREAM && listen(fd, a->backlog) < 0)) {
      int e = -errno;
      close(fd);
      return e;
    }
  }
  a->fd = fd;
  return 0;
}

int hg_netns_socket(const hg_netns *ns, int domain, int type, int protocol, int *fd) {
  if (!fd) return -EINVAL;
  sock_arg a = {.domain = domain, .type = type, .protocol = protocol, .fd = -1};
  int err = hg_netns_run(ns, sock_in_ns, &a);
  if (err == 0) *fd = a.fd;
  return err;
}

int hg_netns_listen(const hg_netns *ns, int type, const struct sockaddr_in *addr,
                    int backlog, int *fd) {
  if (!addr || !fd || addr->sin_family != AF_INET) return -EINVAL;
  if (type != SOCK_STREAM && type != SOCK_DGRAM) return -EINVAL;
  sock_arg a = {.domain = AF_INET,
                .type = type | SOCK_NONBLOCK,
                .bind = addr,
                .backlog = backlog > 0 ? backlog : SOMAXCONN,
                .fd = -1};
  int err = hg_netns_run(ns, sock_in_ns, &a);
  if (err == 0) *fd = a.fd;
  return err;
}

/* ---- the link ------------------------------------------------------------ */

void hg_netns_link_default(hg_netns_link *link) {
  static const uint8_t gw[6] = {0x02, 0x68, 0x67, 0x00, 0x00, 0x01};
  /* The MAC node/qemu.c gives the guest's virtio-net device. */
  static const uint8_t guest[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
  memset(link, 0, sizeof *link);
  snprintf(link->ifname, sizeof link->ifname, "tap0");
  memcpy(link->gw_mac, gw, 6);
  memcpy(link->guest_mac, guest, 6);
  link->gw_ip.s_addr = htonl(0x0a000201);    /* 10.0.2.1 */
  link->guest_ip.s_addr = htonl(0x0a00020f); /* 10.0.2.15 */
  link->prefix_len = 24;
  link->mtu = 1500;
}

static bool mac_unicast(const uint8_t m[6]) {
  static const uint8_t zero[6];
  return (m[0] & 1) == 0 && memcmp(m, zero, 6) != 0;
}

static bool ifname_valid(const char *s) {
  size_t n = strnlen(s, IFNAMSIZ);
  if (n == 0 || n >= IFNAMSIZ || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
    return false;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '/' || s[i] == ':' || s[i] <= ' ' || s[i] > '~') return false;
  return true;
}

int hg_netns_link_check(const hg_netns_link *l) {
  if (!l || !ifname_valid(l->ifname)) return -EINVAL;
  if (!mac_unicast(l->gw_mac) || !mac_unicast(l->guest_mac) ||
      memcmp(l->gw_mac, l->guest_mac, 6) == 0)
    return -EINVAL;
  if (l->prefix_len < 8 || l->prefix_len > 30 || l->mtu < 68) return -EINVAL;
  uint32_t mask = ~0u << (32 - l->prefix_len);
  uint32_t gw = ntohl(l->gw_ip.s_addr), guest = ntohl(l->guest_ip.s_addr);
  if ((gw & mask) != (guest & mask) || gw == guest) return -EINVAL;
  uint32_t hosts[2] = {gw, guest};
  for (int i = 0; i < 2; i++)
    if ((hosts[i] & ~mask) == 0 || (hosts[i] & ~mask) == ~mask) return -EINVAL;
  return 0;
}

int hg_netns_mac_parse(const char *s, uint8_t mac[6]) {
  unsigned v[6];
  char end;
  if (!s || strlen(s) != 17) return -EINVAL;
  for (int i = 0; i < 17; i++) {
    bool colon = i % 3 == 2;
    if (colon ? s[i] != ':'
              : !((s[i] >= '0' && s[i] <= '9') ||
                  ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f')))
      return -EINVAL;
  }
  if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
             &end) != 6)
    return -EINVAL;
  for (int i = 0; i < 6; i++) mac[i] = (uint8_t)v[i];
  return 0;
}

static int link_up_in_ns(void *p) {
  const hg_netns_link *l = p;
  int ifindex = (int)if_nametoindex(l->ifname);
  if (ifindex <= 0) return -ENODEV;
  struct mnl_socket *nl = nl_open();
  if (!nl) return -errno;
  int err = nl_link_set(nl, ifindex, l->gw_mac, l->mtu);
  if (err == 0) err = nl_addr_add(nl, ifindex, l->gw_ip, l->prefix_len);
  if (err == 0) err = nl_neigh_add(nl, ifindex, l->guest_ip, l->guest_mac);
  mnl_socket_close(nl);
  return err;
}

int hg_netns_link_up(const hg_netns *ns, const hg_netns_link *link) {
  int err = hg_netns_link_check(link);
  if (err < 0) return err;
  err = hg_netns_run(ns, link_up_in_ns, (void *)link);
  if (err < 0)
    hg_log_error("netns.link", "netns=%s if=%s err=%s", ns->name, link->ifname,
                 hg_err_str(err));
  return err;
}

typedef struct tap_arg {
  const hg_netns_link *link;
  int fd;
} tap_arg;

/* The tap is created in the namespace of the thread that opens
 * /dev/net/tun, so both happen here. */
static int tap_in_ns(void *p) {
  tap_arg *a = p;
  int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
  if (fd < 0) return -errno;
  struct ifreq ifr = {0};
  ifr.ifr_flags = IFF_TAP | IFF_NO_PI | (a->link->vnet_hdr ? IFF_VNET_HDR : 0);
  memcpy(ifr.ifr_name, a->link->ifname, strlen(a->link->ifname));
  if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
    int e = -errno;
    close(fd);
    return e;
  }
  /* Persistent: the device lives as long as the namespace, not as long as
   * an fd. Closing the last fd of a non-persistent tap unregisters it in
   * the closer's thread, which waits out RCU grace periods (~25 ms on a
   * busy 2-core host); a persistent one goes with the namespace, in the
   * kernel's namespace cleanup worker. A restarted VMM attaches again. */
  int err = ioctl(fd, TUNSETPERSIST, 1) < 0 ? -errno : 0;
  if (err == 0) err = link_up_in_ns((void *)a->link);
  if (err < 0) {
    ioctl(fd, TUNSETPERSIST, 0);
    close(fd);
    return err;
  }
  a->fd = fd;
  return 0;
}

int hg_netns_tap_create(const hg_netns *ns, const hg_netns_link *link, int *tap_fd) {
  int err = hg_netns_link_check(link);
  if (err < 0 || !ns || !tap_fd) return err < 0 ? err : -EINVAL;
  tap_arg a = {.link = link, .fd = -1};
  err = hg_netns_run(ns, tap_in_ns, &a);
  if (err < 0) {
    hg_log_error("netns.tap", "netns=%s if=%s err=%s", ns->name, link->ifname,
                 hg_err_str(err));
    return err;
  }
  *tap_fd = a.fd;
  return 0;
}
