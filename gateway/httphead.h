/* httphead: HTTP/1.x request heads from the guest, for the L7 proxy on
 * port 80 (RFC 9112), read strictly: where the RFC lets a recipient be
 * lenient (bare LF, whitespace before ':', obs-fold, several lengths) this
 * reader refuses, because the proxy and the upstream server must never
 * disagree about where a request ends or which host it is for.
 *
 * Use: the proxy appends the connection's bytes to one buffer and calls
 * hg_httphead_parse() with the whole buffer after each read (the same
 * bytes first, new ones after: the scan resumes where it stopped, so a
 * head costs O(size) however it is split). On HG_HEAD_OK the head is
 * buf[0..head_len); spans below point into buf. The body that follows is
 * framed by body/content_length; after it, the proxy drops the request's
 * bytes from its buffer, calls hg_httphead_reset() and parses the next
 * request the same way, so Host is checked on every keep-alive request.
 * Time is the caller's (a deadline per head, against slowloris).
 *
 * Denied (verdict HG_HEAD_DENY, reason says why): TLS bytes (a first byte
 * 0x16), heads over HG_HEAD_MAX, NUL, bare CR or LF, obs-fold, invalid
 * method/target/version/field names/values, more than HG_HEAD_MAX_FIELDS
 * fields, Host missing or repeated or not a hostname (IP literals
 * included), an absolute-form target whose host:port differs from Host,
 * userinfo ("allowed@evil"), Transfer-Encoding together with
 * Content-Length, Content-Length repeated with different values or not a
 * plain number, any Transfer-Encoding but a single "chunked", or one in an
 * HTTP/1.0 request. CONNECT gets its own verdict so the proxy can refuse
 * it with a proper answer.
 */
#ifndef HG_GATEWAY_HTTPHEAD_H
#define HG_GATEWAY_HTTPHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "gateway/names.h"

#define HG_HEAD_MAX (16u * 1024) /* request line + fields + final CRLF */
#define HG_HEAD_MAX_FIELDS 100
#define HG_HEAD_MAX_METHOD 32
#define HG_HEAD_MAX_NAME 256 /* bytes of one field name */

typedef enum hg_head_verdict {
  HG_HEAD_NEED_MORE = 0,
  HG_HEAD_OK = 1,
  HG_HEAD_CONNECT = 2, /* a CONNECT request: host/port hold its target if valid */
  HG_HEAD_DENY = 3,
} hg_head_verdict;

typedef enum hg_head_reason {
  HG_HEAD_R_NONE = 0,
  HG_HEAD_R_TLS,          /* TLS handshake bytes, not HTTP */
  HG_HEAD_R_TOO_LARGE,    /* no end of head within HG_HEAD_MAX */
  HG_HEAD_R_NUL,          /* a NUL byte */
  HG_HEAD_R_BAD_LINE_END, /* CR not followed by LF, or LF without CR */
  HG_HEAD_R_BAD_METHOD,   /* not a token, or too long */
  HG_HEAD_R_BAD_TARGET,   /* not one of the forms (or a scheme but http) */
  HG_HEAD_R_BAD_VERSION,  /* not HTTP/1.0 or HTTP/1.1 */
  HG_HEAD_R_BAD_FIELD,    /* invalid field name or value, space before ':' */
  HG_HEAD_R_OBS_FOLD,     /* a field line starting with SP/HTAB */
  HG_HEAD_R_TOO_MANY_FIELDS,
  HG_HEAD_R_NO_HOST,
  HG_HEAD_R_DUPLICATE_HOST,
  HG_HEAD_R_BAD_HOST,      /* Host (or the target's host) is not host[:port] */
  HG_HEAD_R_IP_LITERAL,    /* ... is an IP address, in any notation */
  HG_HEAD_R_USERINFO,      /* user@host in the target or Host */
  HG_HEAD_R_HOST_MISMATCH, /* absolute-form host:port differs from Host */
  HG_HEAD_R_CL_AND_TE,     /* Content-Length and Transfer-Encoding together */
  HG_HEAD_R_BAD_CONTENT_LENGTH,
  HG_HEAD_R_BAD_TRANSFER_ENCODING,
  HG_HEAD_R_CONNECT, /* reason reported with the CONNECT verdict */
} hg_head_reason;

typedef enum hg_head_form {
  HG_HEAD_ORIGIN = 0, /* /path?query */
  HG_HEAD_ABSOLUTE,   /* http://host[:port]/path */
  HG_HEAD_AUTHORITY,  /* host:port (CONNECT) */
  HG_HEAD_ASTERISK,   /* * (OPTIONS) */
} hg_head_form;

typedef enum hg_head_body {
  HG_HEAD_BODY_NONE = 0, /* no body: the next request starts at head_len */
  HG_HEAD_BODY_LENGTH,   /* content_length bytes */
  HG_HEAD_BODY_CHUNKED,
} hg_head_body;

typedef struct hg_span {
  uint32_t off, len; /* into the caller's buffer */
} hg_span;

typedef struct hg_head_field {
  hg_span line;  /* the whole line with its CRLF */
  hg_span name;  /* as sent (compare case-insensitively) */
  hg_span value; /* without surrounding whitespace */
} hg_head_field;

typedef struct hg_httphead {
  /* results, valid for OK (and, where said, CONNECT) */
  hg_head_verdict verdict;
  hg_head_reason reason;
  size_t head_len;        /* OK and CONNECT */
  hg_span method, target; /* OK and CONNECT */
  int minor;              /* HTTP/1.<minor>: 0 or 1 */
  hg_head_form form;
  char host[HG_NAME_MAX + 1]; /* normalised Host (CONNECT: the target's) */
  uint16_t port;              /* port from Host, 0 when none was given */
  hg_head_body body;
  uint64_t content_length;
  size_t nfields;
  hg_head_field fields[HG_HEAD_MAX_FIELDS];
  /* private: the incremental scan */
  size_t scanned;
  size_t line_len; /* request line with its CRLF */
  int in_method;
} hg_httphead;

void hg_httphead_init(hg_httphead *h);
/* Forgets the previous request (same as init). */
void hg_httphead_reset(hg_httphead *h);
/* Reads buf[0..len) (see the top for how the proxy calls it). Returns the
 * verdict; once it is not NEED_MORE it is final until reset. */
int hg_httphead_parse(hg_httphead *h, const char *buf, size_t len);
const char *hg_head_reason_str(hg_head_reason r);

/* Index of the first field at or after from whose name is name (any
 * case), or -ENOENT. */
int hg_httphead_find(const hg_httphead *h, const char *buf, const char *name,
                     size_t from);

/* One field's new value; NULL value drops the field. */
typedef struct hg_head_edit {
  size_t field; /* index into h->fields */
  const char *value;
  size_t value_len;
} hg_head_edit;

/* Writes the head of an OK request to out with the edits applied: the
 * request line and untouched field lines byte for byte, edited fields as
 * "<name as sent>: <value>\r\n", then the final CRLF. Returns 0 and sets
 * *out_len, or -EINVAL (not an OK head, a field index out of range or
 * edited twice, a value with CR, LF, NUL or another control byte but
 * HTAB, or with leading/trailing whitespace), -ENOBUFS (cap too small;
 * out is then unspecified). At most HG_HEAD_MAX_FIELDS edits. */
int hg_httphead_rebuild(const hg_httphead *h, const char *buf, const hg_head_edit *edits,
                        size_t nedits, char *out, size_t cap, size_t *out_len);

#endif
