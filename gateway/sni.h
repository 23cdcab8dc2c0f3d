/* sni: the server name of a TLS ClientHello, read from the guest's first
 * bytes on a port-443 connection, for the L7 proxy's allow decision.
 *
 * The guest controls every byte, so the reader is incremental and bounded:
 * feed bytes as they arrive, in any segmentation (one byte at a time, many
 * TLS records, a handshake message split across records). It holds one
 * allocation, the ClientHello body, sized from the handshake header and
 * never more than HG_SNI_MAX_HELLO; the wire bytes it will look at are
 * capped at HG_SNI_MAX_WIRE, so the caller's replay buffer (the proxy keeps
 * every byte it fed, to send upstream once allowed) needs no more either.
 *
 * Time is the caller's: start a deadline when the connection is accepted
 * and close it if the verdict is still HG_SNI_NEED_MORE when it fires
 * (slowloris). The reader never blocks, never reads a clock.
 *
 * A verdict is final: once OK or DENY, further feeds return it unchanged
 * and look at nothing.
 *
 * Deny rules (DESIGN §11, reference/egress.md): no server_name, an IP
 * literal, a name hg_name_normalize() refuses (NUL, non-LDH, > 253 bytes),
 * two server_name extensions, several host_names in one, ECH (0xfe0d), the
 * ech_outer_extensions marker (0xfd00) and the old ESNI (0xffce); a
 * ClientHello over 16 KiB; anything structurally off, including bytes
 * left over after the extensions block or after the ClientHello in its
 * record. GREASE and unknown extensions are skipped.
 */
#ifndef HG_GATEWAY_SNI_H
#define HG_GATEWAY_SNI_H

#include <stddef.h>
#include <stdint.h>

#include "gateway/names.h"

#define HG_SNI_MAX_HELLO 16384u /* ClientHello body, after its 4-byte header */
/* Wire bytes looked at: the ClientHello and its header, in records whose
 * 5-byte headers may each carry as little as one byte. Four times the
 * message is generous for real clients and still bounds a guest that
 * splits records to the byte. */
#define HG_SNI_MAX_WIRE (4u * (HG_SNI_MAX_HELLO + 4u))
#define HG_TLS_RECORD_MAX 16384u /* plaintext fragment, RFC 8446 5.1 */

typedef enum hg_sni_verdict {
  HG_SNI_NEED_MORE = 0,
  HG_SNI_OK = 1,   /* name holds the normalised server name */
  HG_SNI_DENY = 2, /* reason says why */
} hg_sni_verdict;

typedef enum hg_sni_reason {
  HG_SNI_R_NONE = 0,
  HG_SNI_R_NOT_TLS,       /* first bytes are not a TLS handshake record */
  HG_SNI_R_NO_SNI,        /* ClientHello without server_name */
  HG_SNI_R_IP_LITERAL,    /* server_name is an address */
  HG_SNI_R_BAD_NAME,      /* server_name is not a hostname */
  HG_SNI_R_DUPLICATE_SNI, /* two server_name extensions */
  HG_SNI_R_SEVERAL_NAMES, /* one server_name extension, several host_names */
  HG_SNI_R_ECH,           /* encrypted ClientHello: the real name is hidden */
  HG_SNI_R_TOO_LARGE,     /* ClientHello over HG_SNI_MAX_HELLO (or the wire cap) */
  HG_SNI_R_MALFORMED,     /* record or ClientHello structure is wrong */
} hg_sni_reason;

/* Embed it in the connection; private fields are the reader's. */
typedef struct hg_sni {
  /* results */
  hg_sni_verdict verdict;
  hg_sni_reason reason;
  char name[HG_NAME_MAX + 1]; /* "" unless verdict is OK */
  /* private */
  size_t wire;     /* bytes consumed so far */
  size_t records;  /* record headers read whole */
  size_t rec_left; /* payload bytes of the current record not yet seen */
  uint8_t rec_hdr[5];
  uint8_t rec_hdr_len;
  uint8_t hs_hdr[4];
  uint8_t hs_hdr_len;
  uint8_t *msg; /* ClientHello body, msg_len bytes once the header is in */
  size_t msg_len, msg_have;
} hg_sni;

void hg_sni_init(hg_sni *s);
/* Frees the reassembly buffer; s can be init'ed again. */
void hg_sni_free(hg_sni *s);
/* Consumes len bytes (all of them until a verdict; none after). Returns
 * the verdict (>= 0), or -ENOMEM (then close the connection). */
int hg_sni_feed(hg_sni *s, const void *data, size_t len);
/* "not_tls", "no_sni", ... ("none" for HG_SNI_R_NONE): for the egress log. */
const char *hg_sni_reason_str(hg_sni_reason r);

/* Quick look at a connection's first bytes (e.g. to catch TLS sent to port
 * 80): 1 when they start a TLS handshake record (0x16 0x03 0x00-0x04),
 * 0 when they cannot, -EAGAIN when too few bytes are in to tell. */
int hg_tls_sniff(const void *data, size_t len);

#endif
