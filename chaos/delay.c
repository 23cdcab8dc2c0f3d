/* chaos/delay.c: hg-chaos-delay, the delay nemesis's delayer.
 *
 * This kernel has no netem, so delay and reordering are made in userspace:
 * chaos/run puts an nft rule in a node's network namespace that queues
 * what the other nodes send it to NFQUEUE `--queue` (with `bypass`: when
 * nobody listens, packets pass), and runs this in that namespace. Each
 * packet is held for its own random time in [min, max] ms, then accepted,
 * so packets arrive late and out of order. Nothing is dropped here: past
 * HOLD_MAX held at once, a packet passes at once, and the queue is opened
 * fail-open (a full kernel queue lets packets through). Only the packet's
 * metadata is copied to us (the verdict needs its id, not its bytes).
 *
 *   hg-chaos-delay --queue N --min-ms A --max-ms B [--seed S]
 *
 * SIGTERM or SIGINT: every held packet is accepted, then it exits 0. */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <linux/netfilter.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <libnetfilter_queue/libnetfilter_queue.h>

#define HOLD_MAX 8192
#define RCVBUF (4u << 20)

typedef struct held {
  int64_t release_ms;
  uint32_t id;
} held;

/* A binary min-heap of held packets by release time. */
static held heap[HOLD_MAX];
static size_t nheld;
static struct nfq_q_handle *qh;
static int64_t min_ms, max_ms;
static uint64_t rng;
static uint64_t passed_at_once;
static volatile sig_atomic_t stopping;

static void on_signal(int sig) {
  (void)sig;
  stopping = 1;
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t next_rand(void) { /* splitmix64 */
  uint64_t z = (rng += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static void heap_push(held h) {
  size_t i = nheld++;
  while (i > 0 && heap[(i - 1) / 2].release_ms > h.release_ms) {
    heap[i] = heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  heap[i] = h;
}

static held heap_pop(void) {
  held top = heap[0], last = heap[--nheld];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= nheld) break;
    if (c + 1 < nheld && heap[c + 1].release_ms < heap[c].release_ms) c++;
    if (heap[c].release_ms >= last.release_ms) break;
    heap[i] = heap[c];
    i = c;
  }
  if (nheld > 0) heap[i] = last;
  return top;
}

static void accept_packet(uint32_t id) {
  if (nfq_set_verdict(qh, id, NF_ACCEPT, 0, NULL) < 0)
    fprintf(stderr, "hg-chaos-delay: verdict for packet %u: %s\n", id, strerror(errno));
}

static int on_packet(struct nfq_q_handle *q, struct nfgenmsg *msg, struct nfq_data *nfa,
                     void *data) {
  (void)q, (void)msg, (void)data;
  struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
  if (!ph) return 0;
  uint32_t id = ntohl(ph->packet_id);
  if (nheld == HOLD_MAX) {
    passed_at_once++;
    accept_packet(id);
    return 0;
  }
  int64_t d = min_ms + (int64_t)(next_rand() % (uint64_t)(max_ms - min_ms + 1));
  heap_push((held){.release_ms = now_ms() + d, .id = id});
  return 0;
}

static void release_due(int64_t until_ms) {
  while (nheld > 0 && heap[0].release_ms <= until_ms) accept_packet(heap_pop().id);
}

static int usage(void) {
  fprintf(stderr, "usage: hg-chaos-delay --queue N --min-ms A --max-ms B [--seed S]\n");
  return 2;
}

int main(int argc, char **argv) {
  static const struct option opts[] = {{"queue", 1, 0, 'q'}, {"min-ms", 1, 0, 'a'},
                                       {"max-ms", 1, 0, 'b'}, {"seed", 1, 0, 's'},
                                       {0, 0, 0, 0}};
  long queue = -1;
  int c;
  min_ms = max_ms = -1;
  while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
    switch (c) {
    case 'q': queue = strtol(optarg, NULL, 10); break;
    case 'a': min_ms = strtoll(optarg, NULL, 10); break;
    case 'b': max_ms = strtoll(optarg, NULL, 10); break;
    case 's': rng = strtoull(optarg, NULL, 10); break;
    default: return usage();
    }
  }
  if (queue < 0 || queue > 65535 || min_ms < 0 || max_ms < min_ms || max_ms > 60000)
    return usage();
  struct sigaction sa = {.sa_handler = on_signal};
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);

  struct nfq_handle *h = nfq_open();
  if (!h) {
    fprintf(stderr, "hg-chaos-delay: nfq_open: %s\n", strerror(errno));
    return 1;
  }
  qh = nfq_create_queue(h, (uint16_t)queue, on_packet, NULL);
  if (!qh || nfq_set_mode(qh, NFQNL_COPY_META, 0) < 0 ||
      nfq_set_queue_maxlen(qh, HOLD_MAX) < 0 ||
      nfq_set_queue_flags(qh, NFQA_CFG_F_FAIL_OPEN, NFQA_CFG_F_FAIL_OPEN) < 0) {
    fprintf(stderr, "hg-chaos-delay: queue %ld: %s\n", queue, strerror(errno));
    if (qh) nfq_destroy_queue(qh);
    nfq_close(h);
    return 1;
  }
  nfnl_rcvbufsiz(nfq_nfnlh(h), RCVBUF);
  int fd = nfq_fd(h);
  static char buf[65536] __attribute__((aligned));
  uint64_t seen = 0;
  while (!stopping) {
    int64_t now = now_ms();
    release_due(now);
    int timeout = nheld ? (int)(heap[0].release_ms - now) : 1000;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int n = poll(&p, 1, timeout < 0 ? 0 : timeout);
    if (n <= 0) continue;
    ssize_t len = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (len < 0) {
      /* ENOBUFS: the kernel dropped messages to us; fail-open keeps the
       * packets flowing, the held ones still get their verdicts. */
      if (errno != EAGAIN && errno != EINTR && errno != ENOBUFS)
        fprintf(stderr, "hg-chaos-delay: recv: %s\n", strerror(errno));
      continue;
    }
    seen++;
    nfq_handle_packet(h, buf, (int)len);
  }
  release_due(INT64_MAX);
  fprintf(stderr, "hg-chaos-delay: queue %ld: %llu messages, %llu passed at once (full)\n",
          queue, (unsigned long long)seen, (unsigned long long)passed_at_once);
  nfq_destroy_queue(qh);
  nfq_close(h);
  return 0;
}
