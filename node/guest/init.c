/* What PID 1 owes the guest before it serves anything: the kernel
 * filesystems, a name, a loopback, an environment for commands; and finding
 * the agent's virtio-serial port. Every step is best effort: PID 1 logs and
 * goes on, because exiting would panic the kernel. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "node/core/log.h"
#include "node/core/util.h"
#include "node/guest/agent.h"

#define PORT_NAME "agent"
#define PORTS_SYS "/sys/class/virtio-ports"

/* Reads a short sysfs/procfs file into buf (NUL-terminated, trailing
 * whitespace cut). Their sizes lie (sysfs says 4096, procfs 0), so this
 * reads rather than trusting stat. */
static int read_small(const char *path, char *buf, size_t cap) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  size_t got = 0;
  ssize_t n;
  while (got + 1 < cap && (n = read(fd, buf + got, cap - 1 - got)) > 0) got += (size_t)n;
  close(fd);
  while (got && (buf[got - 1] == '\n' || buf[got - 1] == ' ')) got--;
  buf[got] = '\0';
  return 0;
}

/* True when something is mounted at path already (the initramfs may have
 * done it): its device differs from its parent's. */
static bool is_mountpoint(const char *path) {
  struct stat a, b;
  char parent[256];
  if (hg_path(parent, sizeof parent, "%s/..", path) < 0) return false;
  return stat(path, &a) == 0 && stat(parent, &b) == 0 && a.st_dev != b.st_dev;
}

static void mount_one(const char *src, const char *dir, const char *type,
                      unsigned long flags, const char *opts) {
  if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
    hg_log_warn("agent.mount", "dir=%s err=%d", dir, errno);
    return;
  }
  if (is_mountpoint(dir)) return;
  if (mount(src, dir, type, flags, opts) < 0)
    hg_log_warn("agent.mount", "dir=%s type=%s err=%d", dir, type, errno);
}

static void mount_all(void) {
  mount_one("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
  mount_one("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
  mount_one("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
  mount_one("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
            "gid=5,mode=620,ptmxmode=666");
  mount_one("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
  mount_one("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
  mount_one("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755");
}

/* Commands must never get the agent's channel or pipes as 0/1/2. */
void hg_guest_std_fds(void) {
  for (int fd = 0; fd < 3; fd++) {
    if (fcntl(fd, F_GETFD) >= 0) continue;
    int n = open(fd == 0 ? "/dev/null" : "/dev/console", fd == 0 ? O_RDONLY : O_WRONLY);
    if (n < 0) n = open("/dev/null", O_RDWR);
    if (n >= 0 && n != fd) {
      dup2(n, fd);
      close(n);
    }
  }
}

static void set_hostname(void) {
  char *name = NULL;
  size_t len = 0;
  if (hg_read_file("/etc/hostname", 256, &name, &len) == 0) {
    len = strcspn(name, " \t\r\n");
  }
  if (!name || len == 0 || len > 64) {
    free(name);
    name = strdup("hangar");
    len = name ? strlen(name) : 0;
  }
  if (name && sethostname(name, len) < 0) hg_log_warn("agent.hostname", "err=%d", errno);
  free(name);
}

static void loopback_up(void) {
  int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (s < 0) return;
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  strcpy(ifr.ifr_name, "lo");
  if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
    ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
    if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0) hg_log_warn("agent.lo", "err=%d", errno);
  }
  close(s);
}

/* Every sandbox sees the same network (DESIGN §11): its own namespace on
 * the host holds the gateway at 10.0.2.1, so forks and resumes on another
 * node need no re-addressing. Without a NIC (no network device given to the
 * VM) there is nothing to do. */
#define GUEST_IP "10.0.2.15"
#define GUEST_GW "10.0.2.1"
#define GUEST_MASK "255.255.255.0"

static int if_set_addr(int s, const char *ifname, unsigned long req, const char *ip) {
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
  struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
  sin->sin_family = AF_INET;
  inet_pton(AF_INET, ip, &sin->sin_addr);
  return ioctl(s, req, &ifr);
}

static int default_route(int s, const char *gw) {
  struct rtentry rt;
  memset(&rt, 0, sizeof rt);
  struct sockaddr_in *dst = (struct sockaddr_in *)&rt.rt_dst;
  struct sockaddr_in *mask = (struct sockaddr_in *)&rt.rt_genmask;
  struct sockaddr_in *via = (struct sockaddr_in *)&rt.rt_gateway;
  dst->sin_family = mask->sin_family = via->sin_family = AF_INET;
  inet_pton(AF_INET, gw, &via->sin_addr);
  rt.rt_flags = RTF_UP | RTF_GATEWAY;
  return ioctl(s, SIOCADDRT, &rt);
}

/* The gateway drops all IPv6; a guest that keeps trying only fills the
 * drop counters with router solicitations. */
static void ipv6_off(void) {
  static const char *const knobs[] = {"/proc/sys/net/ipv6/conf/all/disable_ipv6",
                                      "/proc/sys/net/ipv6/conf/default/disable_ipv6"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(knobs); i++) {
    int fd = open(knobs[i], O_WRONLY | O_CLOEXEC);
    if (fd < 0) continue;
    if (write(fd, "1", 1) != 1) hg_log_warn("agent.ipv6", "err=%d", errno);
    close(fd);
  }
}

static void eth0_up(void) {
  if (if_nametoindex("eth0") == 0) return;
  ipv6_off();
  int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (s < 0) return;
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  strcpy(ifr.ifr_name, "eth0");
  if (if_set_addr(s, "eth0", SIOCSIFADDR, GUEST_IP) < 0 ||
      if_set_addr(s, "eth0", SIOCSIFNETMASK, GUEST_MASK) < 0 ||
      ioctl(s, SIOCGIFFLAGS, &ifr) < 0 ||
      (ifr.ifr_flags |= IFF_UP | IFF_RUNNING, ioctl(s, SIOCSIFFLAGS, &ifr) < 0) ||
      (default_route(s, GUEST_GW) < 0 && errno != EEXIST))
    hg_log_warn("agent.eth0", "err=%d", errno);
  close(s);
  static const char resolv[] = "nameserver " GUEST_GW "\n";
  /* 0644: every user resolves names (apt's _apt, nobody), not just root. */
  if (hg_write_file_atomic_mode("/etc/resolv.conf", resolv, sizeof resolv - 1, 0644) < 0)
    hg_log_warn("agent.resolv", "msg=\"cannot write /etc/resolv.conf\"");
}

/* "hangar.agent_debug" on the kernel command line turns on debug logs. */
static void log_level_from_cmdline(void) {
  char cmdline[4096];
  if (read_small("/proc/cmdline", cmdline, sizeof cmdline) < 0) return;
  char *p = strstr(cmdline, "hangar.agent_debug");
  if (p && (p == cmdline || p[-1] == ' ')) hg_log_set_level(HG_LOG_DEBUG);
}

void hg_guest_pid1_setup(void) {
  umask(022);
  if (chdir("/") < 0) hg_log_warn("agent.init", "err=%d", errno);
  mount_all();
  hg_guest_std_fds();
  /* The console is a slow UART under TCG: a full one must drop log lines,
   * not stall the only thread of PID 1. */
  for (int fd = 1; fd <= 2; fd++) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  setenv("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", 1);
  setenv("HOME", "/root", 0);
  setenv("TERM", "linux", 0);
  setenv("LANG", "C.UTF-8", 0);
  log_level_from_cmdline();
  set_hostname();
  loopback_up();
  eth0_up();
}

/* ---- the port ---------------------------------------------------------- */

/* /dev/<vportNpM> may be missing without udev and before devtmpfs catches
 * up: make the node from sysfs' major:minor. */
static int open_dev(const char *name) {
  char dev[64], sys[128], mm[32];
  if (hg_path(dev, sizeof dev, "/dev/%s", name) < 0) return -ENAMETOOLONG;
  int fd = open(dev, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd >= 0 || errno != ENOENT) return fd >= 0 ? fd : -errno;
  unsigned maj, min;
  if (hg_path(sys, sizeof sys, PORTS_SYS "/%s/dev", name) < 0 ||
      read_small(sys, mm, sizeof mm) < 0 || sscanf(mm, "%u:%u", &maj, &min) != 2)
    return -ENOENT;
  if (mknod(dev, S_IFCHR | 0600, makedev(maj, min)) < 0 && errno != EEXIST) return -errno;
  fd = open(dev, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  return fd >= 0 ? fd : -errno;
}

static bool port_named(const char *entry) {
  char path[128], name[64];
  return hg_path(path, sizeof path, PORTS_SYS "/%s/name", entry) == 0 &&
         read_small(path, name, sizeof name) == 0 && strcmp(name, PORT_NAME) == 0;
}

int hg_guest_port_open(const char *explicit_path) {
  if (explicit_path) {
    int fd = open(explicit_path, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    return fd >= 0 ? fd : -errno;
  }
  int fd =
      open("/dev/virtio-ports/" PORT_NAME, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd >= 0) return fd;
  DIR *d = opendir(PORTS_SYS);
  if (!d) return -errno;
  struct dirent *e;
  fd = -ENOENT;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.' || !port_named(e->d_name)) continue;
    fd = open_dev(e->d_name);
    break;
  }
  closedir(d);
  return fd;
}
