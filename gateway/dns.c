/* dns: bounded DNS message reader/writer for the gateway's responder. */
#include "gateway/dns.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define F_QR 0x8000u
#define F_TC 0x0200u
#define F_RD 0x0100u
#define F_RA 0x0080u
#define OPCODE(f) (((f) >> 11) & 0xfu)

static uint16_t get16(const uint8_t *p) {
  return (uint16_t)(p[0] << 8 | p[1]);
}
static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static uint8_t lower(uint8_t c) {
  return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c;
}

/* Reads the name at off into out (uncompressed wire form, root label
 * included). *next is where the name ended in place: after its first
 * pointer, or after its root label. A pointer must aim before the start of
 * the stretch that contains it, so every jump goes strictly back and loops
 * cannot exist; the hop cap bounds the work on top of that. */
static int read_name(const uint8_t *m, size_t len, size_t off, uint8_t *out,
                     size_t *out_len, size_t *next) {
  size_t pos = off, seg = off, n = 0, after = 0;
  int hops = 0;
  for (;;) {
    if (pos >= len) return -EPROTO;
    uint8_t c = m[pos];
    if ((c & 0xc0) == 0xc0) {
      if (pos + 1 >= len) return -EPROTO;
      size_t ptr = (size_t)(c & 0x3f) << 8 | m[pos + 1];
      if (hops == 0) after = pos + 2;
      if (ptr < HG_DNS_HEADER || ptr >= seg || ++hops > HG_DNS_MAX_HOPS) return -EPROTO;
      pos = seg = ptr;
      continue;
    }
    if (c & 0xc0) return -EPROTO; /* 0x40/0x80: extended label types, unused */
    /* room for this label and, after it, at least the root label */
    if (n + 1 + c + (c ? 1 : 0) > HG_DNS_MAX_NAME) return -EPROTO;
    if (pos + 1 + c > len) return -EPROTO;
    memcpy(out + n, m + pos, 1 + (size_t)c);
    n += 1 + (size_t)c;
    pos += 1 + (size_t)c;
    if (c == 0) break;
  }
  *out_len = n;
  *next = hops ? after : pos;
  return 0;
}

static int wire_eq(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
  if (alen != blen) return 0;
  for (size_t i = 0; i < alen; i++)
    if (lower(a[i]) != lower(b[i])) return 0;
  return 1;
}

static int is_ldh(uint8_t c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c == '-';
}

/* Wire to hostname. Each label is checked for LDH before labels are
 * joined, so a label holding a '.' cannot pass for two labels. */
static int wire_to_host(const uint8_t *w, size_t wlen, char out[HG_NAME_MAX + 1]) {
  char text[HG_DNS_MAX_NAME];
  size_t n = 0;
  for (size_t i = 0; i < wlen && w[i] != 0; i += 1 + (size_t)w[i]) {
    for (size_t j = 1; j <= w[i]; j++)
      if (!is_ldh(w[i + j])) return -EINVAL;
    if (n > 0) text[n++] = '.';
    memcpy(text + n, w + i + 1, w[i]);
    n += w[i];
  }
  return hg_name_normalize(text, n, out);
}

static int host_to_wire(const char *name, uint8_t out[HG_DNS_MAX_NAME], size_t *out_len) {
  char host[HG_NAME_MAX + 1];
  size_t n = 0, start = 0, hl;
  if (hg_name_normalize(name, strlen(name), host) < 0) return -EINVAL;
  hl = strlen(host);
  for (size_t i = 0; i <= hl; i++) {
    if (i < hl && host[i] != '.') continue;
    out[n++] = (uint8_t)(i - start);
    memcpy(out + n, host + start, i - start);
    n += i - start;
    start = i + 1;
  }
  out[n++] = 0;
  *out_len = n;
  return 0;
}

/* One resource record's fixed part after its name. */
typedef struct rr {
  size_t owner; /* offset of the owner name */
  uint16_t type, cls;
  uint32_t ttl;
  size_t rdata, rdlen;
} rr;

static int read_rr(const uint8_t *m, size_t len, size_t *pos, rr *r, uint8_t *owner,
                   size_t *owner_len) {
  size_t p;
  if (read_name(m, len, *pos, owner, owner_len, &p) < 0) return -EPROTO;
  if (len - p < 10) return -EPROTO;
  r->owner = *pos;
  r->type = get16(m + p);
  r->cls = get16(m + p + 2);
  r->ttl = get32(m + p + 4);
  r->rdlen = get16(m + p + 8);
  r->rdata = p + 10;
  if (len - r->rdata < r->rdlen) return -EPROTO;
  *pos = r->rdata + r->rdlen;
  return 0;
}

int hg_dns_parse_query(const uint8_t *msg, size_t len, hg_dns_query *q) {
  hg_dns_query t;
  size_t pos;
  if (len < HG_DNS_HEADER) return -EMSGSIZE;
  memset(&t, 0, sizeof(t));
  t.id = get16(msg);
  t.flags = get16(msg + 2);
  if (t.flags & F_QR) return -EBADMSG;
  if (OPCODE(t.flags) != 0) return -ENOTSUP;
  if (get16(msg + 4) != 1 || get16(msg + 6) != 0 || get16(msg + 8) != 0) return -EPROTO;
  unsigned ar = get16(msg + 10);
  if (read_name(msg, len, HG_DNS_HEADER, t.qname, &t.qname_len, &pos) < 0) return -EPROTO;
  if (len - pos < 4) return -EPROTO;
  t.qtype = get16(msg + pos);
  t.qclass = get16(msg + pos + 2);
  pos += 4;
  t.udp_size = HG_DNS_UDP_MIN;
  /* additional records: an OPT is read, others (a TSIG, say) skipped;
   * every record takes >= 11 bytes, so the loop ends with the message */
  for (unsigned i = 0; i < ar; i++) {
    uint8_t owner[HG_DNS_MAX_NAME];
    size_t olen;
    rr r;
    if (read_rr(msg, len, &pos, &r, owner, &olen) < 0) return -EPROTO;
    if (r.type != HG_DNS_T_OPT) continue;
    if (t.edns || olen != 1) return -EPROTO; /* RFC 6891 6.1.1: one, at the root */
    t.edns = 1;
    if (r.cls > HG_DNS_UDP_MIN) t.udp_size = r.cls;
  }
  if (pos != len) return -EPROTO;
  t.name_err = wire_to_host(t.qname, t.qname_len, t.name);
  if (t.name_err < 0) t.name[0] = '\0';
  *q = t;
  return 0;
}

typedef struct wr {
  uint8_t *out;
  size_t cap, len;
  int err;
} wr;

static void put(wr *w, const void *p, size_t n) {
  if (w->err || w->cap - w->len < n) {
    w->err = -ENOBUFS;
    return;
  }
  memcpy(w->out + w->len, p, n);
  w->len += n;
}
static void put16(wr *w, uint16_t v) {
  uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};
  put(w, b, 2);
}
static void put32(wr *w, uint32_t v) {
  uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
  put(w, b, 4);
}
static void put_header(wr *w, uint16_t id, uint16_t flags, uint16_t qd, uint16_t an,
                       uint16_t ar) {
  put16(w, id);
  put16(w, flags);
  put16(w, qd);
  put16(w, an);
  put16(w, 0);
  put16(w, ar);
}
/* OPT at the root: our payload size, extended rcode 0, version 0, no flags */
static void put_opt(wr *w) {
  put(w, "", 1);
  put16(w, HG_DNS_T_OPT);
  put16(w, HG_DNS_EDNS_SIZE);
  put32(w, 0);
  put16(w, 0);
}

static int rcode_ok(int rcode) {
  return rcode >= HG_DNS_NOERROR && rcode <= HG_DNS_REFUSED;
}

static uint32_t cap_ttl(uint32_t ttl) {
  if (ttl > 0x7fffffffu) return 0; /* RFC 2181 8: such a TTL means zero */
  return ttl > HG_DNS_MAX_TTL ? HG_DNS_MAX_TTL : ttl;
}

int hg_dns_build_answer(const hg_dns_query *q, int rcode, const uint32_t *ips, size_t n,
                        uint32_t ttl, uint8_t *out, size_t cap, size_t *out_len) {
  wr w = {out, cap, 0, 0};
  if (!rcode_ok(rcode) || (n > 0 && rcode != HG_DNS_NOERROR) || n > UINT16_MAX)
    return -EINVAL;
  /* A records only ever answer an A question */
  if (n > 0 && (q->qtype != HG_DNS_T_A || q->qclass != HG_DNS_C_IN)) return -EINVAL;
  if (q->qname_len == 0 || q->qname_len > HG_DNS_MAX_NAME) return -EINVAL;
  put_header(&w, q->id, (uint16_t)(F_QR | (q->flags & F_RD) | F_RA | (unsigned)rcode), 1,
             (uint16_t)n, q->edns ? 1 : 0);
  put(&w, q->qname, q->qname_len);
  put16(&w, q->qtype);
  put16(&w, q->qclass);
  for (size_t i = 0; i < n; i++) {
    put16(&w, 0xc000 | HG_DNS_HEADER); /* the question's name */
    put16(&w, HG_DNS_T_A);
    put16(&w, HG_DNS_C_IN);
    put32(&w, cap_ttl(ttl));
    put16(&w, 4);
    put32(&w, ips[i]);
  }
  if (q->edns) put_opt(&w);
  if (w.err) return w.err;
  *out_len = w.len;
  return 0;
}

int hg_dns_build_error(const uint8_t *msg, size_t len, int rcode, uint8_t *out,
                       size_t cap, size_t *out_len) {
  wr w = {out, cap, 0, 0};
  if (len < HG_DNS_HEADER) return -EMSGSIZE;
  uint16_t flags = get16(msg + 2);
  if (flags & F_QR) return -EBADMSG;
  if (!rcode_ok(rcode)) return -EINVAL;
  put_header(&w, get16(msg),
             (uint16_t)(F_QR | (flags & (0x7800u | F_RD)) | F_RA | (unsigned)rcode), 0, 0,
             0);
  if (w.err) return w.err;
  *out_len = w.len;
  return 0;
}

int hg_dns_build_query(uint16_t id, const char *name, uint16_t qtype, int edns,
                       uint8_t *out, size_t cap, size_t *out_len) {
  uint8_t wire[HG_DNS_MAX_NAME];
  size_t wlen;
  wr w = {out, cap, 0, 0};
  if (host_to_wire(name, wire, &wlen) < 0) return -EINVAL;
  put_header(&w, id, F_RD, 1, 0, edns ? 1 : 0);
  put(&w, wire, wlen);
  put16(&w, qtype);
  put16(&w, HG_DNS_C_IN);
  if (edns) put_opt(&w);
  if (w.err) return w.err;
  *out_len = w.len;
  return 0;
}

static void add_ip(hg_dns_result *res, uint32_t ip) {
  for (size_t i = 0; i < res->n; i++)
    if (res->ips[i] == ip) return;
  if (res->n < HG_DNS_MAX_ADDRS) res->ips[res->n++] = ip;
}

/* Follows name through the answer records: its A records, or its CNAME
 * and then the target's, and so on. */
static int follow_chain(const uint8_t *m, size_t len, const rr *rrs, size_t nrr,
                        const uint8_t *qname, size_t qlen, hg_dns_result *res) {
  uint8_t cur[HG_DNS_MAX_NAME], owner[HG_DNS_MAX_NAME];
  size_t cur_len = qlen, olen, end;
  uint32_t ttl = UINT32_MAX;
  memcpy(cur, qname, qlen);
  for (int hop = 0;; hop++) {
    const rr *cname = NULL;
    for (size_t i = 0; i < nrr; i++) {
      const rr *r = &rrs[i];
      if (r->cls != HG_DNS_C_IN) continue;
      if (r->type != HG_DNS_T_A && r->type != HG_DNS_T_CNAME) continue;
      if (read_name(m, len, r->owner, owner, &olen, &end) < 0) return -EPROTO;
      if (!wire_eq(owner, olen, cur, cur_len)) continue;
      if (r->type == HG_DNS_T_A && r->rdlen == 4) {
        add_ip(res, get32(m + r->rdata));
        if (cap_ttl(r->ttl) < ttl) ttl = cap_ttl(r->ttl);
      } else if (r->type == HG_DNS_T_CNAME && !cname) {
        cname = r;
      }
    }
    if (res->n > 0 || !cname) break;
    if (hop == HG_DNS_MAX_CNAME) return -ELOOP;
    if (cap_ttl(cname->ttl) < ttl) ttl = cap_ttl(cname->ttl);
    if (read_name(m, len, cname->rdata, cur, &cur_len, &end) < 0 ||
        end != cname->rdata + cname->rdlen)
      return -EPROTO;
  }
  res->ttl = res->n > 0 ? ttl : 0;
  return 0;
}

int hg_dns_parse_response(const uint8_t *msg, size_t len, uint16_t id, const char *name,
                          hg_dns_result *out) {
  uint8_t want[HG_DNS_MAX_NAME], qname[HG_DNS_MAX_NAME], owner[HG_DNS_MAX_NAME];
  size_t want_len, qlen, olen, pos;
  rr rrs[HG_DNS_MAX_RR];
  size_t nrr = 0;
  hg_dns_result res = {0};
  if (host_to_wire(name, want, &want_len) < 0) return -EINVAL;
  if (len < HG_DNS_HEADER) return -EPROTO;
  uint16_t flags = get16(msg + 2);
  if (get16(msg) != id || !(flags & F_QR) || OPCODE(flags) != 0 || get16(msg + 4) != 1)
    return -EBADMSG;
  if (read_name(msg, len, HG_DNS_HEADER, qname, &qlen, &pos) < 0 || len - pos < 4)
    return -EPROTO;
  if (!wire_eq(qname, qlen, want, want_len) || get16(msg + pos) != HG_DNS_T_A ||
      get16(msg + pos + 2) != HG_DNS_C_IN)
    return -EBADMSG;
  pos += 4;
  if (flags & F_TC) return -EMSGSIZE;
  res.rcode = flags & 0xf;
  if (res.rcode == HG_DNS_NOERROR) {
    unsigned an = get16(msg + 6);
    for (unsigned i = 0; i < an && nrr < HG_DNS_MAX_RR; i++)
      if (read_rr(msg, len, &pos, &rrs[nrr++], owner, &olen) < 0) return -EPROTO;
    int rc = follow_chain(msg, len, rrs, nrr, want, want_len, &res);
    if (rc < 0) return rc;
  }
  *out = res;
  return 0;
}

void hg_dns_name_text(const uint8_t *w, size_t len, char *out, size_t cap) {
  size_t n = 0;
  if (cap == 0) return;
  out[0] = '\0';
  if (len == 0 || w[0] == 0) {
    snprintf(out, cap, ".");
    return;
  }
  for (size_t i = 0; i < len && w[i] != 0; i += 1 + (size_t)w[i]) {
    for (size_t j = 0; j <= w[i] && i + j < len; j++) {
      char e[5];
      uint8_t c = w[i + j];
      if (j == 0)
        snprintf(e, sizeof(e), "%s", i ? "." : "");
      else if (is_ldh(c) || c == '_')
        snprintf(e, sizeof(e), "%c", c);
      else if (c == '.')
        snprintf(e, sizeof(e), "\\.");
      else
        snprintf(e, sizeof(e), "\\%03u", c);
      size_t el = strlen(e);
      if (n + el + 4 > cap) { /* room for "..." and the NUL */
        snprintf(out + n, cap - n, "...");
        return;
      }
      memcpy(out + n, e, el + 1);
      n += el;
    }
  }
}

void hg_dns_limiter_init(hg_dns_limiter *l, uint32_t rate, uint32_t burst,
                         uint64_t now_ms) {
  l->rate = rate;
  l->burst = burst;
  l->milli = (uint64_t)burst * 1000;
  l->last_ms = now_ms;
}

int hg_dns_limiter_take(hg_dns_limiter *l, uint64_t now_ms) {
  uint64_t full = (uint64_t)l->burst * 1000;
  if (now_ms > l->last_ms) {
    uint64_t dt = now_ms - l->last_ms;
    /* rate tokens/s is rate milli-tokens/ms; past "full" the product is
     * not needed (and could overflow) */
    if (l->rate == 0 || dt < full / l->rate + 1)
      l->milli += dt * l->rate;
    else
      l->milli = full;
    if (l->milli > full) l->milli = full;
    l->last_ms = now_ms;
  }
  if (l->milli < 1000) return 0;
  l->milli -= 1000;
  return 1;
}
