/* netns: a sandbox's network namespace, the tap its VMM attaches to, and
 * sockets the daemon opens inside it (DESIGN §11).
 *
 * A namespace is named by a bind mount of its nsfs file onto <dir>/<name>
 * (e.g. <data>/netns/sb-0123…), the way iproute2 keeps /run/netns, so it
 * outlives the daemon and is found again after a restart (hg_netns_list).
 * <dir> is made a shared mount point, as iproute2 does, so the bind mounts
 * work and unmounts propagate to mount namespaces forked after them.
 *
 * Work that must happen "inside" (unshare, socket(), open of /dev/net/tun,
 * rtnetlink, /proc/sys/net) runs on a short-lived helper thread that enters
 * the namespace and exits, so the caller's thread (the event loop) never
 * changes namespace, even when something fails half way. A socket, tap or
 * netlink fd keeps the namespace it was made in for its whole life, so the
 * fds work from any thread afterwards.
 *
 * A new namespace holds only `lo` (up) and, once made, the tap; IPv6 is
 * disabled and forwarding is off. There is no route out: the only exits are
 * the sockets the daemon opened inside (and nft.h's rules send the guest to
 * them).
 *
 * Thread-safe. Functions return 0 or a negative errno; fds are O_CLOEXEC
 * and owned by the caller. */
#ifndef HG_GATEWAY_NETNS_H
#define HG_GATEWAY_NETNS_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Names: 1..63 characters of [A-Za-z0-9._-], not "." or "..". */
#define HG_NETNS_NAME_MAX 64

typedef struct hg_netns hg_netns;

/* Creates the namespace <dir>/<name> (mkdir -p <dir> first) and returns a
 * handle to it. -EEXIST when the name is taken, -EINVAL for a bad name. */
int hg_netns_create(const char *dir, const char *name, hg_netns **out);
/* Opens an existing namespace (after a daemon restart). -ENOENT when there
 * is none by that name (also when only a stale file is left there). */
int hg_netns_open(const char *dir, const char *name, hg_netns **out);
/* Frees the handle; the namespace stays until hg_netns_delete. */
void hg_netns_close(hg_netns *ns);
/* Unmounts and unlinks <dir>/<name>. The kernel frees the namespace (and
 * the tap, rules and sockets in it) when the last fd into it is closed:
 * handles, taps (the VMM's too) and sockets from hg_netns_socket. -ENOENT
 * when there was nothing to delete. */
int hg_netns_delete(const char *dir, const char *name);
/* The names of the live namespaces under dir, sorted; *names is a NULL-
 * terminated array freed with hg_netns_list_free. A missing dir is empty. */
int hg_netns_list(const char *dir, char ***names, size_t *count);
void hg_netns_list_free(char **names);
/* Undoes the mount point hg_netns_create made of dir (for a data dir about
 * to be unmounted, and tests). Delete the namespaces first: a lazy unmount
 * takes any left under it along. -EINVAL when dir is not a mount point. */
int hg_netns_dir_release(const char *dir);

const char *hg_netns_name(const hg_netns *ns);
const char *hg_netns_path(const hg_netns *ns);
int hg_netns_fd(const hg_netns *ns); /* the nsfs fd, for setns(2) */

/* Runs fn(arg) on a helper thread inside ns and returns what it returned
 * (or a negative errno when the thread could not be started or enter). */
int hg_netns_run(const hg_netns *ns, int (*fn)(void *arg), void *arg);

/* socket(2) inside ns; SOCK_CLOEXEC is added. */
int hg_netns_socket(const hg_netns *ns, int domain, int type, int protocol, int *fd);
/* A non-blocking socket inside ns bound to addr (SO_REUSEADDR) and, for
 * SOCK_STREAM, listening: the gateway's DNS responder, proxy and relay
 * listen here while the daemon lives in the root namespace. type is
 * SOCK_STREAM or SOCK_DGRAM. Binding the gateway address needs the tap to
 * exist (-EADDRNOTAVAIL before); 0.0.0.0 does not, and is as closed (the
 * namespace has only lo and the tap). */
int hg_netns_listen(const hg_netns *ns, int type, const struct sockaddr_in *addr,
                    int backlog, int *fd);

/* The link between a sandbox and its gateway. Every sandbox uses the same
 * addresses (namespaces are separate). Both MACs are fixed, not random: a
 * guest restored from a template snapshot still has the template's ARP
 * entry for the gateway in memory, and the template's NIC had this MAC. */
typedef struct hg_netns_link {
  char ifname[IFNAMSIZ];   /* the tap, "tap0" */
  uint8_t gw_mac[6];       /* 02:68:67:00:00:01 */
  struct in_addr gw_ip;    /* 10.0.2.1 */
  uint8_t prefix_len;      /* 24 */
  uint8_t guest_mac[6];    /* 52:54:00:12:34:56 (QEMU's -device ...,mac=) */
  struct in_addr guest_ip; /* 10.0.2.15 */
  uint16_t mtu;            /* 1500 */
  bool vnet_hdr;           /* IFF_VNET_HDR on the tap (QEMU probes it); off */
} hg_netns_link;

void hg_netns_link_default(hg_netns_link *link);
/* -EINVAL unless: ifname valid, unicast non-zero MACs that differ, prefix
 * 8..30, guest_ip in gw_ip's subnet and neither of them its network or
 * broadcast address, mtu 68..65535. */
int hg_netns_link_check(const hg_netns_link *link);
/* "52:54:00:12:34:56" -> mac; -EINVAL when malformed. */
int hg_netns_mac_parse(const char *s, uint8_t mac[6]);

/* Creates link->ifname in ns as a tap (IFF_TAP | IFF_NO_PI, plus
 * IFF_VNET_HDR when asked), or attaches to it when it exists and nobody
 * holds it, configures it with hg_netns_link_up, and returns an fd for the
 * VMM (`-netdev tap,id=n0,fd=N`; dup2 into the child clears O_CLOEXEC).
 * The tap is persistent: closing fds leaves it (a restarted VMM calls this
 * again to get a new fd); it goes with the namespace. -EBUSY while another
 * fd is attached. */
int hg_netns_tap_create(const hg_netns *ns, const hg_netns_link *link, int *tap_fd);
/* Configures the existing interface link->ifname in ns as the gateway's
 * side: MAC gw_mac, mtu, address gw_ip/prefix_len, a permanent neighbour
 * entry guest_ip -> guest_mac (the gateway never trusts ARP for it), up.
 * hg_netns_tap_create uses it; a veth standing in for a tap (tests, bench)
 * too. */
int hg_netns_link_up(const hg_netns *ns, const hg_netns_link *link);

#endif
