/* netns with the real kernel: namespaces bind-mounted under a fresh
 * /tmp/hg-netns-<pid>-<random>/netns, taps, sockets inside. Needs root. The
 * teardown deletes every namespace and mount a test left, and each test
 * checks it leaked no fd. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "gateway/netns.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "tests/unit/netns_util.h"

typedef struct fixture {
  char base[64];
  char dir[96]; /* <base>/netns */
  int fds;      /* open fds at setup */
} fixture;

/* ---- helpers --------------------------------------------------------- */

static bool exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

static void sleep_ms(long ms) {
  usleep((useconds_t)ms * 1000);
}

/* Runs in a namespace through hg_netns_run. */
typedef struct ifq {
  const char *ifname;
  unsigned long req;
  struct ifreq ifr;
} ifq;

static int ifq_in_ns(void *p) {
  ifq *q = p;
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -errno;
  memset(&q->ifr, 0, sizeof q->ifr);
  snprintf(q->ifr.ifr_name, IFNAMSIZ, "%s", q->ifname);
  int rc = ioctl(fd, q->req, &q->ifr) < 0 ? -errno : 0;
  close(fd);
  return rc;
}

static int ifreq_in(const hg_netns *ns, const char *ifname, unsigned long req,
                    struct ifreq *out) {
  ifq q = {.ifname = ifname, .req = req};
  int rc = hg_netns_run(ns, ifq_in_ns, &q);
  if (rc == 0) *out = q.ifr;
  return rc;
}

static int read_in_ns(void *p) {
  char **io = p; /* io[0] = path, io[1] = out buffer (64) */
  int fd = open(io[0], O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  ssize_t n = read(fd, io[1], 63);
  close(fd);
  if (n < 0) return -errno;
  io[1][n] = '\0';
  return 0;
}

/* A /proc/sys/net value as seen from inside ns. */
static void assert_sysctl(const hg_netns *ns, const char *path, const char *want) {
  char out[64];
  char *io[2] = {(char *)path, out};
  assert_int_equal(hg_netns_run(ns, read_in_ns, io), 0);
  out[strcspn(out, "\n")] = '\0';
  assert_string_equal(out, want);
}

static ino_t ns_inode(int fd) {
  struct stat st;
  assert_int_equal(fstat(fd, &st), 0);
  return st.st_ino;
}

static uint16_t port_of(int fd) {
  struct sockaddr_in a;
  socklen_t len = sizeof a;
  assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
  return ntohs(a.sin_port);
}

/* connect with a deadline: 0, or the negative errno it ended with. */
static int connect_ms(int fd, const struct sockaddr_in *to, int ms) {
  int fl = fcntl(fd, F_GETFL);
  fcntl(fd, F_SETFL, fl | O_NONBLOCK);
  if (connect(fd, (const struct sockaddr *)to, sizeof *to) == 0) return 0;
  if (errno != EINPROGRESS) return -errno;
  struct pollfd p = {.fd = fd, .events = POLLOUT};
  if (poll(&p, 1, ms) == 0) return -ETIMEDOUT;
  int err = 0;
  socklen_t len = sizeof err;
  getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
  return -err;
}

static bool link_exists_in(const hg_netns *ns, const char *ifname) {
  struct ifreq ifr = {0};
  return ifreq_in(ns, ifname, SIOCGIFINDEX, &ifr) == 0;
}

static bool root_link_exists(const char *ifname) {
  return if_nametoindex(ifname) != 0;
}

/* ---- fixtures ---------------------------------------------------------- */

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (!f) return -1;
  snprintf(f->base, sizeof f->base, "/tmp/hg-netns-%d-XXXXXX", (int)getpid());
  if (!mkdtemp(f->base)) {
    free(f);
    return -1;
  }
  snprintf(f->dir, sizeof f->dir, "%s/netns", f->base);
  f->fds = count_fds();
  *state = f;
  return 0;
}

/* Deletes whatever a test left, then checks that nothing remains. */
static int teardown(void **state) {
  fixture *f = *state;
  char **names;
  size_t n;
  if (hg_netns_list(f->dir, &names, &n) == 0) {
    for (size_t i = 0; i < n; i++) hg_netns_delete(f->dir, names[i]);
    hg_netns_list_free(names);
  }
  int rc = teardown_end(f->base, f->dir, f->fds);
  free(f);
  return rc;
}

static int group_setup(void **state) {
  if (quiet_log_need_root("test_netns", "namespaces, mounts, taps") != 0) return -1;
  sweep_stale("hg-netns");
  return 0;
}

/* ---- tests ------------------------------------------------------------- */

static void create_open_list_delete(void **state) {
  fixture *f = *state;
  hg_netns *a, *b, *a2;
  assert_int_equal(hg_netns_create(f->dir, "sb-b", &b), 0);
  assert_int_equal(hg_netns_create(f->dir, "sb-a", &a), 0);
  assert_string_equal(hg_netns_name(a), "sb-a");
  char want[PATH_MAX];
  snprintf(want, sizeof want, "%s/sb-a", f->dir);
  assert_string_equal(hg_netns_path(a), want);

  /* Both are namespaces of their own, not ours. */
  int self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
  assert_true(self >= 0);
  assert_int_not_equal(ns_inode(hg_netns_fd(a)), ns_inode(self));
  assert_int_not_equal(ns_inode(hg_netns_fd(a)), ns_inode(hg_netns_fd(b)));
  close(self);

  /* The bind mount is the name: reopening finds the same namespace. */
  assert_int_equal(hg_netns_open(f->dir, "sb-a", &a2), 0);
  assert_int_equal(ns_inode(hg_netns_fd(a2)), ns_inode(hg_netns_fd(a)));
  hg_netns_close(a2);

  char **names;
  size_t n;
  assert_int_equal(hg_netns_list(f->dir, &names, &n), 0);
  assert_int_equal(n, 2);
  assert_string_equal(names[0], "sb-a");
  assert_string_equal(names[1], "sb-b");
  assert_null(names[2]);
  hg_netns_list_free(names);

  assert_int_equal(hg_netns_delete(f->dir, "sb-a"), 0);
  assert_false(exists(want));
  assert_int_equal(hg_netns_delete(f->dir, "sb-a"), -ENOENT);
  assert_int_equal(hg_netns_open(f->dir, "sb-a", &a2), -ENOENT);
  assert_int_equal(hg_netns_list(f->dir, &names, &n), 0);
  assert_int_equal(n, 1);
  assert_string_equal(names[0], "sb-b");
  hg_netns_list_free(names);
  /* The handle still works after the name is gone. */
  int fd;
  assert_int_equal(hg_netns_socket(a, AF_INET, SOCK_DGRAM, 0, &fd), 0);
  close(fd);

  assert_int_equal(hg_netns_delete(f->dir, "sb-b"), 0);
  hg_netns_close(a);
  hg_netns_close(b);
  /* Only the directory's own mount point is left, and release undoes it. */
  assert_int_equal(mounts_under(f->dir), 1);
  assert_int_equal(hg_netns_dir_release(f->dir), 0);
  assert_int_equal(mounts_under(f->base), 0);
  assert_int_equal(hg_netns_dir_release(f->dir), -EINVAL);
}

static void create_rejects_bad_names_and_duplicates(void **state) {
  fixture *f = *state;
  hg_netns *ns = NULL;
  char long_name[HG_NETNS_NAME_MAX + 1];
  memset(long_name, 'a', HG_NETNS_NAME_MAX);
  long_name[HG_NETNS_NAME_MAX] = '\0';
  const char *bad[] = {"", ".", "..", "a/b", "../x", "sb x", "sb\n", long_name};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    assert_int_equal(hg_netns_create(f->dir, bad[i], &ns), -EINVAL);
    assert_int_equal(hg_netns_open(f->dir, bad[i], &ns), -EINVAL);
    assert_int_equal(hg_netns_delete(f->dir, bad[i]), -EINVAL);
  }
  assert_int_equal(hg_netns_create(NULL, "sb-x", &ns), -EINVAL);
  assert_int_equal(hg_netns_create(f->dir, "sb-x", NULL), -EINVAL);
  long_name[HG_NETNS_NAME_MAX - 1] = '\0'; /* 63 characters: fine */
  assert_int_equal(hg_netns_create(f->dir, long_name, &ns), 0);
  hg_netns_close(ns);

  assert_int_equal(hg_netns_create(f->dir, "sb-x", &ns), 0);
  hg_netns *dup = NULL;
  assert_int_equal(hg_netns_create(f->dir, "sb-x", &dup), -EEXIST);
  assert_null(dup);
  /* The failed create left the first one alone. */
  int fd;
  assert_int_equal(hg_netns_socket(ns, AF_INET, SOCK_STREAM, 0, &fd), 0);
  close(fd);
  hg_netns_close(ns);
  assert_int_equal(hg_netns_delete(f->dir, "sb-x"), 0);
  assert_int_equal(hg_netns_delete(f->dir, long_name), 0);
}

static void new_namespace_has_lo_up_no_ipv6_no_route(void **state) {
  fixture *f = *state;
  hg_netns *ns;
  assert_int_equal(hg_netns_create(f->dir, "sb-lo", &ns), 0);
  struct ifreq ifr = {0};
  assert_int_equal(ifreq_in(ns, "lo", SIOCGIFFLAGS, &ifr), 0);
  assert_true(ifr.ifr_flags & IFF_UP);
  assert_sysctl(ns, "/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
  assert_sysctl(ns, "/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
  assert_sysctl(ns, "/proc/sys/net/ipv4/ip_forward", "0");

  /* lo works: a listener and a client, both inside. */
  struct sockaddr_in lo = sin_of("127.0.0.1", 0);
  int l, c;
  assert_int_equal(hg_netns_listen(ns, SOCK_STREAM, &lo, 4, &l), 0);
  lo.sin_port = htons(port_of(l));
  assert_int_equal(hg_netns_socket(ns, AF_INET, SOCK_STREAM, 0, &c), 0);
  assert_int_equal(connect_ms(c, &lo, 2000), 0);
  close(c);

  /* No way out: no route anywhere but lo. */
  struct sockaddr_in out = sin_of("8.8.8.8", 53);
  assert_int_equal(hg_netns_socket(ns, AF_INET, SOCK_DGRAM, 0, &c), 0);
  assert_int_equal(connect(c, (struct sockaddr *)&out, sizeof out), -1);
  assert_int_equal(errno, ENETUNREACH);
  close(c);
  close(l);
  hg_netns_close(ns);
  assert_int_equal(hg_netns_delete(f->dir, "sb-lo"), 0);
}

static void sockets_are_bound_inside_the_namespace(void **state) {
  fixture *f = *state;
  hg_netns *ns;
  assert_int_equal(hg_netns_create(f->dir, "sb-sock", &ns), 0);
  struct sockaddr_in addr = sin_of("127.0.0.1", 0);
  int l, c, u, a;
  assert_int_equal(hg_netns_listen(ns, SOCK_STREAM, &addr, 8, &l), 0);
  assert_true(fcntl(l, F_GETFL) & O_NONBLOCK);
  assert_true(fcntl(l, F_GETFD) & FD_CLOEXEC);
  addr.sin_port = htons(port_of(l));

  /* From inside the namespace it answers ... */
  assert_int_equal(hg_netns_socket(ns, AF_INET, SOCK_STREAM, 0, &c), 0);
  assert_int_equal(connect_ms(c, &addr, 2000), 0);
  assert_true(readable(l, 2000));
  a = accept4(l, NULL, NULL, SOCK_CLOEXEC);
  assert_true(a >= 0);
  assert_int_equal(write(c, "hi", 2), 2);
  char buf[4];
  assert_true(readable(a, 2000));
  assert_int_equal(read(a, buf, sizeof buf), 2);
  close(a);
  close(c);

  /* ... from our own namespace nothing listens there. */
  c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  assert_int_equal(connect_ms(c, &addr, 2000), -ECONNREFUSED);
  close(c);

  /* UDP alike. */
  struct sockaddr_in uaddr = sin_of("127.0.0.1", 0);
  assert_int_equal(hg_netns_listen(ns, SOCK_DGRAM, &uaddr, 0, &u), 0);
  uaddr.sin_port = htons(port_of(u));
  assert_int_equal(hg_netns_socket(ns, AF_INET, SOCK_DGRAM, 0, &c), 0);
  assert_int_equal(sendto(c, "q", 1, 0, (struct sockaddr *)&uaddr, sizeof uaddr), 1);
  assert_true(readable(u, 2000));
  assert_int_equal(recv(u, buf, sizeof buf, 0), 1);
  close(c);

  /* Bad arguments; a port taken inside is taken. */
  assert_int_equal(hg_netns_listen(ns, SOCK_RAW, &addr, 1, &c), -EINVAL);
  struct sockaddr_in v6 = {.sin_family = AF_INET6};
  assert_int_equal(hg_netns_listen(ns, SOCK_STREAM, &v6, 1, &c), -EINVAL);
  assert_int_equal(hg_netns_listen(ns, SOCK_STREAM, &addr, 1, &c), -EADDRINUSE);
  struct sockaddr_in foreign = sin_of("10.9.9.9", 0);
  assert_int_equal(hg_netns_listen(ns, SOCK_STREAM, &foreign, 1, &c), -EADDRNOTAVAIL);
  close(u);
  close(l);
  hg_netns_close(ns);
  assert_int_equal(hg_netns_delete(f->dir, "sb-sock"), 0);
}

/* ---- the tap: from the guest's side, frames on the fd ------------------ */

static void tap_is_up_with_the_gateway_address(void **state) {
  fixture *f = *state;
  hg_netns *ns;
  hg_netns_link link;
  hg_netns_link_default(&link);
  assert_int_equal(hg_netns_create(f->dir, "sb-tap", &ns), 0);
  bool root_had_tap0 = root_link_exists("tap0");
  int tap;
  assert_int_equal(hg_netns_tap_create(ns, &link, &tap), 0);
  assert_true(fcntl(tap, F_GETFD) & FD_CLOEXEC);

  /* A tap (no packet info header) as QEMU's -netdev tap,fd= expects. */
  struct ifreq ifr = {0};
  assert_int_equal(ioctl(tap, TUNGETIFF, &ifr), 0);
  assert_string_equal(ifr.ifr_name, "tap0");
  assert_int_equal(ifr.ifr_flags & (IFF_TAP | IFF_TUN | IFF_NO_PI | IFF_VNET_HDR),
                   IFF_TAP | IFF_NO_PI);

  /* Up, with the gateway's address, netmask and MAC, inside the namespace. */
  assert_int_equal(ifreq_in(ns, "tap0", SIOCGIFFLAGS, &ifr), 0);
  assert_true(ifr.ifr_flags & IFF_UP);
  assert_int_equal(ifreq_in(ns, "tap0", SIOCGIFADDR, &ifr), 0);
  assert_int_equal(((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr.s_addr,
                   link.gw_ip.s_addr);
  assert_int_equal(ifreq_in(ns, "tap0", SIOCGIFNETMASK, &ifr), 0);
  assert_int_equal(((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr.s_addr,
                   htonl(0xffffff00));
  assert_int_equal(ifreq_in(ns, "tap0", SIOCGIFHWADDR, &ifr), 0);
  assert_memory_equal(ifr.ifr_hwaddr.sa_data, link.gw_mac, 6);
  assert_int_equal(ifreq_in(ns, "tap0", SIOCGIFMTU, &ifr), 0);
  assert_int_equal(ifr.ifr_mtu, 1500);
  if (!root_had_tap0) assert_false(root_link_exists("tap0"));

  /* A second tap of the same name in the same namespace: taken. */
  int tap2;
  assert_int_equal(hg_netns_tap_create(ns, &link, &tap2), -EBUSY);

  /* The guest's side: a UDP datagram written to the fd reaches a socket
   * the gateway listens on inside; its reply comes back out of the fd,
   * addressed to the guest's MAC without any ARP (permanent neighbour). */
  struct sockaddr_in gw = {.sin_family = AF_INET, .sin_addr = link.gw_ip};
  int u;
  assert_int_equal(hg_netns_listen(ns, SOCK_DGRAM, &gw, 0, &u), 0);
  uint16_t gw_port = port_of(u);
  uint8_t frame[1600];
  size_t len = udp_frame(frame, link.gw_mac, link.guest_mac, link.guest_ip, link.gw_ip,
                         4242, gw_port, "ping");
  assert_int_equal(write(tap, frame, len), (ssize_t)len);
  assert_true(readable(u, 2000));
  char buf[16];
  struct sockaddr_in from;
  socklen_t flen = sizeof from;
  assert_int_equal(recvfrom(u, buf, sizeof buf, 0, (struct sockaddr *)&from, &flen), 4);
  assert_memory_equal(buf, "ping", 4);
  assert_int_equal(from.sin_addr.s_addr, link.guest_ip.s_addr);
  assert_int_equal(ntohs(from.sin_port), 4242);
  assert_int_equal(sendto(u, "pong", 4, 0, (struct sockaddr *)&from, flen), 4);
  bool got = false;
  for (int i = 0; i < 16 && !got && readable(tap, 2000); i++) {
    ssize_t n = read(tap, frame, sizeof frame);
    if (n < 14 + 20 + 8 + 4 || frame[12] != 0x08 || frame[13] != 0x00) continue;
    assert_memory_equal(frame, link.guest_mac, 6);
    assert_memory_equal(frame + 6, link.gw_mac, 6);
    assert_memory_equal(frame + 14 + 12, &link.gw_ip, 4);
    assert_memory_equal(frame + 14 + 16, &link.guest_ip, 4);
    assert_memory_equal(frame + 14 + 28, "pong", 4);
    got = true;
  }
  assert_true(got);
  close(u);

  /* Persistent: closing the fd leaves the device (with the namespace's
   * lifetime, see delete_frees_the_namespace), and a restarted VMM
   * attaches to it again, configured as before. */
  close(tap);
  assert_true(link_exists_in(ns, "tap0"));
  assert_int_equal(hg_netns_tap_create(ns, &link, &tap), 0);
  assert_int_equal(ifreq_in(ns, "tap0", SIOCGIFADDR, &ifr), 0);
  assert_int_equal(((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr.s_addr,
                   link.gw_ip.s_addr);
  assert_int_equal(hg_netns_listen(ns, SOCK_DGRAM, &gw, 0, &u), 0);
  len = udp_frame(frame, link.gw_mac, link.guest_mac, link.guest_ip, link.gw_ip, 4242,
                  port_of(u), "again");
  assert_int_equal(write(tap, frame, len), (ssize_t)len);
  assert_true(readable(u, 2000));
  assert_int_equal(recv(u, buf, sizeof buf, 0), 5);
  close(u);
  close(tap);
  hg_netns_close(ns);
  assert_int_equal(hg_netns_delete(f->dir, "sb-tap"), 0);
}

static void tap_with_vnet_hdr_and_custom_link(void **state) {
  fixture *f = *state;
  hg_netns *ns;
  hg_netns_link link;
  hg_netns_link_default(&link);
  snprintf(link.ifname, sizeof link.ifname, "hgtap-x");
  link.vnet_hdr = true;
  link.mtu = 9000;
  link.gw_ip.s_addr = htonl(0xc0a86401);    /* 192.168.100.1 */
  link.guest_ip.s_addr = htonl(0xc0a86402); /* 192.168.100.2 */
  link.prefix_len = 30;
  assert_int_equal(hg_netns_create(f->dir, "sb-vnet", &ns), 0);
  int tap;
  assert_int_equal(hg_netns_tap_create(ns, &link, &tap), 0);
  struct ifreq ifr = {0};
  assert_int_equal(ioctl(tap, TUNGETIFF, &ifr), 0);
  assert_true(ifr.ifr_flags & IFF_VNET_HDR);
  assert_int_equal(ifreq_in(ns, "hgtap-x", SIOCGIFMTU, &ifr), 0);
  assert_int_equal(ifr.ifr_mtu, 9000);
  assert_int_equal(ifreq_in(ns, "hgtap-x", SIOCGIFNETMASK, &ifr), 0);
  assert_int_equal(((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr.s_addr,
                   htonl(0xfffffffc));
  /* link_up again is harmless (re-applied after a restart). */
  assert_int_equal(hg_netns_link_up(ns, &link), 0);
  close(tap);
  /* ... but needs the device. */
  snprintf(link.ifname, sizeof link.ifname, "nosuchdev");
  assert_int_equal(hg_netns_link_up(ns, &link), -ENODEV);
  hg_netns_close(ns);
  assert_int_equal(hg_netns_delete(f->dir, "sb-vnet"), 0);
}

static void link_check_and_mac_parse(void **state) {
  (void)state;
  hg_netns_link d, l;
  hg_netns_link_default(&d);
  assert_int_equal(hg_netns_link_check(&d), 0);
  char gw[INET_ADDRSTRLEN], guest[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &d.gw_ip, gw, sizeof gw);
  inet_ntop(AF_INET, &d.guest_ip, guest, sizeof guest);
  assert_string_equal(gw, "10.0.2.1");
  assert_string_equal(guest, "10.0.2.15");
  assert_string_equal(d.ifname, "tap0");
  assert_int_equal(d.prefix_len, 24);

#define BAD(stmt)                                       \
  do {                                                  \
    l = d;                                              \
    stmt;                                               \
    assert_int_equal(hg_netns_link_check(&l), -EINVAL); \
  } while (0)
  BAD(l.ifname[0] = '\0');
  BAD(snprintf(l.ifname, sizeof l.ifname, "a/b"));
  BAD(snprintf(l.ifname, sizeof l.ifname, "a b"));
  BAD(l.gw_mac[0] = 0x01);               /* multicast */
  BAD(memset(l.guest_mac, 0, 6));        /* zero */
  BAD(memcpy(l.guest_mac, l.gw_mac, 6)); /* same */
  BAD(l.prefix_len = 31);
  BAD(l.prefix_len = 4);
  BAD(l.mtu = 67);
  BAD(l.guest_ip.s_addr = htonl(0x0a000301)); /* other subnet */
  BAD(l.guest_ip = l.gw_ip);
  BAD(l.guest_ip.s_addr = htonl(0x0a0002ff)); /* broadcast */
  BAD(l.gw_ip.s_addr = htonl(0x0a000200));    /* network */
#undef BAD
  assert_int_equal(hg_netns_link_check(NULL), -EINVAL);

  uint8_t mac[6];
  static const uint8_t want[6] = {0x02, 0x68, 0x67, 0x0a, 0xbc, 0xff};
  assert_int_equal(hg_netns_mac_parse("02:68:67:0a:BC:ff", mac), 0);
  assert_memory_equal(mac, want, 6);
  const char *bad[] = {"",
                       "02:68:67:0a:bc",
                       "02:68:67:0a:bc:ff:",
                       "02-68-67-0a-bc-ff",
                       "2:68:67:0a:bc:ff0",
                       "02:68:67:0a:bc:fg",
                       " 2:68:67:0a:bc:ff",
                       NULL};
  for (size_t i = 0; bad[i]; i++)
    assert_int_equal(hg_netns_mac_parse(bad[i], mac), -EINVAL);
  assert_int_equal(hg_netns_mac_parse(NULL, mac), -EINVAL);
}

/* The namespace really goes: a veth end moved inside vanishes from our
 * namespace (the kernel destroys its pair with the namespace) once the name
 * is deleted and the last fd into it closed, and not before. */
static void delete_frees_the_namespace(void **state) {
  fixture *f = *state;
  hg_netns *ns;
  hg_netns_link link;
  hg_netns_link_default(&link);
  assert_int_equal(hg_netns_create(f->dir, "sb-free", &ns), 0);
  char outer[IFNAMSIZ], cmd[512];
  snprintf(outer, sizeof outer, "hgv%d", (int)(getpid() % 100000));
  snprintf(cmd, sizeof cmd, "ip link add %s type veth peer name inner netns %s", outer,
           hg_netns_path(ns));
  assert_int_equal(system(cmd), 0);
  assert_true(root_link_exists(outer));
  assert_true(link_exists_in(ns, "inner"));

  int tap, l;
  assert_int_equal(hg_netns_tap_create(ns, &link, &tap), 0);
  struct sockaddr_in gw = {.sin_family = AF_INET, .sin_addr = link.gw_ip};
  assert_int_equal(hg_netns_listen(ns, SOCK_STREAM, &gw, 4, &l), 0);
  assert_int_equal(hg_netns_delete(f->dir, "sb-free"), 0);
  /* Still alive: our handle, the tap and the listener hold it. */
  sleep_ms(200);
  assert_true(root_link_exists(outer));
  close(tap);
  close(l);
  hg_netns_close(ns);
  bool gone = false;
  /* the kernel tears a namespace down asynchronously: slow on a busy host */
  for (int i = 0; i < 3000 && !gone; i++, sleep_ms(20)) gone = !root_link_exists(outer);
  if (!gone) {
    snprintf(cmd, sizeof cmd, "ip link del %s 2>/dev/null", outer);
    (void)system(cmd);
  }
  assert_true(gone);
  assert_int_equal(mounts_under(f->dir), 1); /* the directory's own */
}

typedef struct worker {
  const char *dir;
  int i;
  int rc;
  hg_netns *ns;
  ino_t ino;
} worker;

static void *create_worker(void *p) {
  worker *w = p;
  char name[32];
  hg_netns_link link;
  hg_netns_link_default(&link);
  snprintf(name, sizeof name, "sb-%02d", w->i);
  int tap = -1, l = -1;
  w->rc = hg_netns_create(w->dir, name, &w->ns);
  if (w->rc == 0) w->rc = hg_netns_tap_create(w->ns, &link, &tap);
  struct sockaddr_in gw = {
      .sin_family = AF_INET, .sin_addr = link.gw_ip, .sin_port = htons(8443)};
  /* The same address and port in every namespace: they are separate. */
  if (w->rc == 0) w->rc = hg_netns_listen(w->ns, SOCK_STREAM, &gw, 4, &l);
  if (w->rc == 0) {
    struct stat st;
    fstat(hg_netns_fd(w->ns), &st);
    w->ino = st.st_ino;
  }
  if (tap >= 0) close(tap);
  if (l >= 0) close(l);
  return NULL;
}

static void *delete_worker(void *p) {
  worker *w = p;
  char name[32];
  snprintf(name, sizeof name, "sb-%02d", w->i);
  hg_netns_close(w->ns);
  w->ns = NULL;
  w->rc = hg_netns_delete(w->dir, name);
  return NULL;
}

static void twenty_concurrent_creates(void **state) {
  fixture *f = *state;
  enum { N = 20 };
  worker w[N];
  pthread_t t[N];
  for (int i = 0; i < N; i++) {
    w[i] = (worker){.dir = f->dir, .i = i, .rc = -1};
    assert_int_equal(pthread_create(&t[i], NULL, create_worker, &w[i]), 0);
  }
  for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < N; i++) {
    assert_int_equal(w[i].rc, 0);
    for (int j = 0; j < i; j++) assert_int_not_equal(w[i].ino, w[j].ino);
  }
  char **names;
  size_t n;
  assert_int_equal(hg_netns_list(f->dir, &names, &n), 0);
  assert_int_equal(n, N);
  for (int i = 0; i < N; i++) {
    char want[32];
    snprintf(want, sizeof want, "sb-%02d", i);
    assert_string_equal(names[i], want);
  }
  hg_netns_list_free(names);
  /* One mount per namespace plus the directory's: no stacked dir mounts. */
  assert_int_equal(mounts_under(f->dir), N + 1);

  for (int i = 0; i < N; i++)
    assert_int_equal(pthread_create(&t[i], NULL, delete_worker, &w[i]), 0);
  for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < N; i++) assert_int_equal(w[i].rc, 0);
  assert_int_equal(hg_netns_list(f->dir, &names, &n), 0);
  assert_int_equal(n, 0);
  assert_null(names[0]);
  hg_netns_list_free(names);
  assert_int_equal(mounts_under(f->dir), 1);
}

static void stale_file_is_not_a_namespace(void **state) {
  fixture *f = *state;
  hg_netns *ns;
  /* What a crash between creat and mount leaves behind. */
  assert_int_equal(hg_netns_create(f->dir, "sb-live", &ns), 0);
  char stale[PATH_MAX];
  snprintf(stale, sizeof stale, "%s/sb-stale", f->dir);
  int fd = open(stale, O_CREAT | O_WRONLY | O_CLOEXEC, 0);
  assert_true(fd >= 0);
  close(fd);
  char **names;
  size_t n;
  assert_int_equal(hg_netns_list(f->dir, &names, &n), 0);
  assert_int_equal(n, 1);
  assert_string_equal(names[0], "sb-live");
  hg_netns_list_free(names);
  hg_netns *s = NULL;
  assert_int_equal(hg_netns_open(f->dir, "sb-stale", &s), -ENOENT);
  assert_null(s);
  assert_int_equal(hg_netns_create(f->dir, "sb-stale", &s), -EEXIST);
  assert_int_equal(hg_netns_delete(f->dir, "sb-stale"), 0);
  assert_false(exists(stale));
  assert_int_equal(hg_netns_create(f->dir, "sb-stale", &s), 0);
  hg_netns_close(s);
  hg_netns_close(ns);
  assert_int_equal(hg_netns_delete(f->dir, "sb-stale"), 0);
  assert_int_equal(hg_netns_delete(f->dir, "sb-live"), 0);

  /* A directory that does not exist lists as empty. */
  char missing[PATH_MAX];
  snprintf(missing, sizeof missing, "%s/nope", f->base);
  assert_int_equal(hg_netns_list(missing, &names, &n), 0);
  assert_int_equal(n, 0);
  hg_netns_list_free(names);
}

/* A daemon restart: the process that made the namespace is gone; the next
 * one finds it by name and works in it. */
static void namespace_outlives_its_creator(void **state) {
  fixture *f = *state;
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    hg_netns *ns;
    hg_netns_link link;
    hg_netns_link_default(&link);
    int tap;
    int rc = hg_netns_create(f->dir, "sb-restart", &ns);
    if (rc == 0) rc = hg_netns_tap_create(ns, &link, &tap);
    _exit(rc == 0 ? 0 : 1);
  }
  int st;
  assert_int_equal(waitpid(pid, &st, 0), pid);
  assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  hg_netns *ns;
  assert_int_equal(hg_netns_open(f->dir, "sb-restart", &ns), 0);
  /* The child's tap stays with the namespace; lo is still up. */
  assert_true(link_exists_in(ns, "tap0"));
  struct ifreq ifr = {0};
  assert_int_equal(ifreq_in(ns, "tap0", SIOCGIFFLAGS, &ifr), 0);
  assert_true(ifr.ifr_flags & IFF_UP);
  hg_netns_link link;
  hg_netns_link_default(&link);
  int tap;
  assert_int_equal(hg_netns_tap_create(ns, &link, &tap), 0);
  close(tap);
  assert_int_equal(ifreq_in(ns, "lo", SIOCGIFFLAGS, &ifr), 0);
  assert_true(ifr.ifr_flags & IFF_UP);
  hg_netns_close(ns);
  assert_int_equal(hg_netns_delete(f->dir, "sb-restart"), 0);
}

static int return_ns_inode(void *arg) {
  struct stat st;
  if (stat("/proc/thread-self/ns/net", &st) < 0) return -errno;
  *(ino_t *)arg = st.st_ino;
  return 7;
}

static void run_executes_inside_and_leaves_the_caller_alone(void **state) {
  fixture *f = *state;
  hg_netns *ns;
  assert_int_equal(hg_netns_create(f->dir, "sb-run", &ns), 0);
  struct stat before, after;
  assert_int_equal(stat("/proc/thread-self/ns/net", &before), 0);
  ino_t inside = 0;
  assert_int_equal(hg_netns_run(ns, return_ns_inode, &inside), 7);
  assert_int_equal(inside, ns_inode(hg_netns_fd(ns)));
  assert_int_equal(stat("/proc/thread-self/ns/net", &after), 0);
  assert_int_equal(before.st_ino, after.st_ino);
  assert_int_equal(hg_netns_run(NULL, return_ns_inode, &inside), -EINVAL);
  assert_int_equal(hg_netns_run(ns, NULL, NULL), -EINVAL);
  hg_netns_close(ns);
  assert_int_equal(hg_netns_delete(f->dir, "sb-run"), 0);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(create_open_list_delete),
      T(create_rejects_bad_names_and_duplicates),
      T(new_namespace_has_lo_up_no_ipv6_no_route),
      T(sockets_are_bound_inside_the_namespace),
      T(tap_is_up_with_the_gateway_address),
      T(tap_with_vnet_hdr_and_custom_link),
      T(link_check_and_mac_parse),
      T(delete_frees_the_namespace),
      T(twenty_concurrent_creates),
      T(stale_file_is_not_a_namespace),
      T(namespace_outlives_its_creator),
      T(run_executes_inside_and_leaves_the_caller_alone),
  };
#undef T
  return cmocka_run_group_tests(tests, group_setup, NULL);
}
