/* gateway_test: a seam for benches and tests that drive a sandbox's gateway
 * from a network namespace standing in for the VM, so they measure the
 * gateway and not a TCG emulator. Not part of hangard: built only into
 * the targets that link hg_gateway_test (tools/bench/bench_gateway).
 *
 * hg_gateway_test_attach_veth() attaches the sandbox as hg_gateway_attach()
 * does (namespace, rules, listeners, policy), then puts one end of a veth
 * pair in the tap's place, under the tap's name (so the rules that hook the
 * tap by name hook the veth), and the other end, "eth0", into the existing
 * namespace /run/netns/<guest_netns>, configured as a guest is: the guest
 * MAC and 10.0.2.15/24, default route via the gateway 10.0.2.1. The rules
 * are applied again once the veth is in place (hg_gateway_attach on the
 * open namespace does that, with the current policy's allow set).
 * hg_gateway_detach() undoes it all; delete the guest namespace yourself.
 *
 * The swap is done with iproute2 (ip, nsenter) from the outside; a native
 * version belongs in gateway.c (hg_gateway_attach with a "veth into this
 * netns fd" option instead of a tap, the veth made over rtnetlink with
 * IFLA_NET_NS_FD, then hg_netns_link_up() and the rules as for a tap).
 * Returns 0 or a negative errno. */
#ifndef HG_GATEWAY_GATEWAY_TEST_H
#define HG_GATEWAY_GATEWAY_TEST_H

#include "gateway/gateway.h"

/* netns_dir: the gateway's (hg_gateway_config.netns_dir). */
int hg_gateway_test_attach_veth(hg_gateway *gw, const char *netns_dir, const char *name,
                                const char *guest_netns);

#endif
