/* sni: incremental TLS ClientHello reader (RFC 8446 4.1.2, RFC 6066 3). */
#include "gateway/sni.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TLS_HANDSHAKE 0x16
#define HS_CLIENT_HELLO 0x01
#define EXT_SERVER_NAME 0x0000
#define EXT_ECH 0xfe0d       /* encrypted_client_hello */
#define EXT_ECH_OUTER 0xfd00 /* ech_outer_extensions */
#define EXT_ESNI 0xffce      /* draft encrypted_server_name */
#define SNI_HOST_NAME 0
/* version(2) random(32) session_id(1+0) suites(2+2) compression(1+1) */
#define HELLO_MIN 41u

static const char *const reason_str[] = {
    [HG_SNI_R_NONE] = "none",
    [HG_SNI_R_NOT_TLS] = "not_tls",
    [HG_SNI_R_NO_SNI] = "no_sni",
    [HG_SNI_R_IP_LITERAL] = "ip_literal",
    [HG_SNI_R_BAD_NAME] = "bad_name",
    [HG_SNI_R_DUPLICATE_SNI] = "duplicate_sni",
    [HG_SNI_R_SEVERAL_NAMES] = "several_names",
    [HG_SNI_R_ECH] = "ech",
    [HG_SNI_R_TOO_LARGE] = "too_large",
    [HG_SNI_R_MALFORMED] = "malformed",
};

const char *hg_sni_reason_str(hg_sni_reason r) {
  if ((unsigned)r >= sizeof(reason_str) / sizeof(reason_str[0])) return "unknown";
  return reason_str[r];
}

int hg_tls_sniff(const void *data, size_t len) {
  const uint8_t *p = data;
  if (len >= 1 && p[0] != TLS_HANDSHAKE) return 0;
  if (len >= 2 && p[1] != 3) return 0;
  if (len >= 3 && p[2] > 4) return 0;
  return len >= 3 ? 1 : -EAGAIN;
}

void hg_sni_init(hg_sni *s) {
  memset(s, 0, sizeof(*s));
}

void hg_sni_free(hg_sni *s) {
  free(s->msg);
  s->msg = NULL;
}

static int deny(hg_sni *s, hg_sni_reason r) {
  s->verdict = HG_SNI_DENY;
  s->reason = r;
  hg_sni_free(s);
  return s->verdict;
}

/* ---- ClientHello body ------------------------------------------------------ */

typedef struct rd {
  const uint8_t *p, *end;
} rd;

static int rd_u8(rd *r, unsigned *v) {
  if (r->end - r->p < 1) return -1;
  *v = r->p[0];
  r->p += 1;
  return 0;
}
static int rd_u16(rd *r, unsigned *v) {
  if (r->end - r->p < 2) return -1;
  *v = (unsigned)r->p[0] << 8 | r->p[1];
  r->p += 2;
  return 0;
}
/* A length-prefixed vector: sub covers its body, r moves past it. */
static int rd_vec(rd *r, unsigned len, rd *sub) {
  if ((size_t)(r->end - r->p) < len) return -1;
  sub->p = r->p;
  sub->end = r->p + len;
  r->p += len;
  return 0;
}

typedef struct hello_facts {
  int sni_exts;   /* server_name extensions seen */
  int host_names; /* host_name entries in the first one */
  int ech;        /* any ECH/ESNI extension */
  const uint8_t *name;
  size_t name_len;
} hello_facts;

/* server_name extension data: ServerNameList (RFC 6066 3). */
static int read_server_name(rd ext, hello_facts *f) {
  unsigned list_len, type, len;
  rd list, name;
  if (rd_u16(&ext, &list_len) < 0 || list_len == 0) return -1;
  if (rd_vec(&ext, list_len, &list) < 0 || ext.p != ext.end) return -1;
  while (list.p < list.end) {
    if (rd_u8(&list, &type) < 0 || rd_u16(&list, &len) < 0) return -1;
    if (rd_vec(&list, len, &name) < 0) return -1;
    /* host_name is the only type ever defined; any other is no client's */
    if (type != SNI_HOST_NAME) return -1;
    if (f->host_names++ == 0) {
      f->name = name.p;
      f->name_len = len;
    }
  }
  return 0;
}

/* Structure first: a ClientHello that does not parse is "malformed" even
 * if it also carries ECH or two names. */
static int read_hello(const uint8_t *msg, size_t len, hello_facts *f) {
  rd r = {msg, msg + len}, v;
  unsigned major, minor, n, ext_type, ext_len;
  if (rd_u8(&r, &major) < 0 || rd_u8(&r, &minor) < 0 || major != 3) return -1;
  if (rd_vec(&r, 32, &v) < 0) return -1; /* random */
  if (rd_u8(&r, &n) < 0 || n > 32 || rd_vec(&r, n, &v) < 0) return -1;
  if (rd_u16(&r, &n) < 0 || n < 2 || n % 2 || rd_vec(&r, n, &v) < 0) return -1;
  if (rd_u8(&r, &n) < 0 || n < 1 || rd_vec(&r, n, &v) < 0) return -1;
  if (r.p == r.end) return 0; /* no extensions at all: no SNI either */
  if (rd_u16(&r, &n) < 0 || (size_t)(r.end - r.p) != n) return -1;
  while (r.p < r.end) {
    rd ext;
    if (rd_u16(&r, &ext_type) < 0 || rd_u16(&r, &ext_len) < 0) return -1;
    if (rd_vec(&r, ext_len, &ext) < 0) return -1;
    switch (ext_type) {
      case EXT_SERVER_NAME:
        if (f->sni_exts++ == 0 && read_server_name(ext, f) < 0) return -1;
        break;
      case EXT_ECH:
      case EXT_ECH_OUTER:
      case EXT_ESNI:
        f->ech = 1;
        break;
      default: /* GREASE (0x?a?a) and everything else: not ours to judge */
        break;
    }
  }
  return 0;
}

static int decide(hg_sni *s) {
  hello_facts f = {0};
  char name[HG_NAME_MAX + 1];
  int rc;
  if (read_hello(s->msg, s->msg_len, &f) < 0) return deny(s, HG_SNI_R_MALFORMED);
  if (f.ech) return deny(s, HG_SNI_R_ECH);
  if (f.sni_exts > 1) return deny(s, HG_SNI_R_DUPLICATE_SNI);
  if (f.host_names > 1) return deny(s, HG_SNI_R_SEVERAL_NAMES);
  if (f.sni_exts == 0) return deny(s, HG_SNI_R_NO_SNI);
  rc = hg_name_normalize((const char *)f.name, f.name_len, name);
  if (rc == -EAFNOSUPPORT) return deny(s, HG_SNI_R_IP_LITERAL);
  if (rc < 0) return deny(s, HG_SNI_R_BAD_NAME);
  memcpy(s->name, name, sizeof(name));
  s->verdict = HG_SNI_OK;
  hg_sni_free(s);
  return s->verdict;
}

/* ---- records and the handshake header ------------------------------------- */

/* Takes bytes of one record's payload into the handshake message. Returns
 * bytes taken (< len only when the message is complete), or a negative
 * errno with the verdict set by deny(). */
static long take_handshake(hg_sni *s, const uint8_t *p, size_t len) {
  size_t used = 0;
  while (used < len && s->hs_hdr_len < 4) s->hs_hdr[s->hs_hdr_len++] = p[used++];
  if (s->hs_hdr_len < 4) return (long)used;
  if (!s->msg) {
    size_t mlen = (size_t)s->hs_hdr[1] << 16 | (size_t)s->hs_hdr[2] << 8 | s->hs_hdr[3];
    if (s->hs_hdr[0] != HS_CLIENT_HELLO) return deny(s, HG_SNI_R_MALFORMED), -EPROTO;
    if (mlen > HG_SNI_MAX_HELLO) return deny(s, HG_SNI_R_TOO_LARGE), -EPROTO;
    if (mlen < HELLO_MIN) return deny(s, HG_SNI_R_MALFORMED), -EPROTO;
    s->msg = malloc(mlen);
    if (!s->msg) return -ENOMEM;
    s->msg_len = mlen;
  }
  size_t n = len - used;
  if (n > s->msg_len - s->msg_have) n = s->msg_len - s->msg_have;
  memcpy(s->msg + s->msg_have, p + used, n);
  s->msg_have += n;
  return (long)(used + n);
}

/* Collects a record header; judges it once whole. 0, or -EPROTO denied. */
static int take_record_header(hg_sni *s, uint8_t c) {
  int first = s->records == 0;
  s->rec_hdr[s->rec_hdr_len++] = c;
  /* The first record decides "is this TLS at all"; a later one that is
   * not a handshake record interleaves something into the ClientHello. */
  hg_sni_reason bad = first ? HG_SNI_R_NOT_TLS : HG_SNI_R_MALFORMED;
  if (s->rec_hdr_len == 1 && c != TLS_HANDSHAKE) return deny(s, bad), -EPROTO;
  if (s->rec_hdr_len == 2 && c != 3) return deny(s, bad), -EPROTO;
  if (s->rec_hdr_len == 3 && c > 4) return deny(s, bad), -EPROTO;
  if (s->rec_hdr_len < 5) return 0;
  size_t rlen = (size_t)s->rec_hdr[3] << 8 | s->rec_hdr[4];
  if (rlen == 0 || rlen > HG_TLS_RECORD_MAX) return deny(s, HG_SNI_R_MALFORMED), -EPROTO;
  s->rec_left = rlen;
  s->rec_hdr_len = 0;
  s->records++;
  return 0;
}

int hg_sni_feed(hg_sni *s, const void *data, size_t len) {
  const uint8_t *p = data;
  while (len > 0 && s->verdict == HG_SNI_NEED_MORE) {
    if (s->rec_left == 0) {
      if (take_record_header(s, *p) < 0) break;
      s->wire++;
      p++;
      len--;
    } else {
      size_t n = len < s->rec_left ? len : s->rec_left;
      long used = take_handshake(s, p, n);
      if (used == -ENOMEM) return -ENOMEM;
      if (used < 0) break;
      s->rec_left -= (size_t)used;
      s->wire += (size_t)used;
      p += used;
      len -= (size_t)used;
      if (s->msg && s->msg_have == s->msg_len) {
        /* The ClientHello must end its record (RFC 8446 5.1: messages
         * before a key change align with record boundaries). */
        if (s->rec_left != 0) return deny(s, HG_SNI_R_MALFORMED);
        return decide(s);
      }
    }
    if (s->verdict == HG_SNI_NEED_MORE && s->wire > HG_SNI_MAX_WIRE)
      return deny(s, HG_SNI_R_TOO_LARGE);
  }
  return s->verdict;
}
