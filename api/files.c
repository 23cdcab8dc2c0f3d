/* Guest files: read, write, remove, list, stat, mkdir (through the agent). */
#include "api/api_internal.h"

/* ---- files ------------------------------------------------------------------------
 * Paths are guest paths handed to the agent as they are: "../../etc" is
 * resolved by the guest, inside the guest. Nothing here opens a host file. */

static int op_file_read(hg_call *c, hg_agent *a) {
  return hg_agent_file_read(a, c->u.fi.path, HG_API_MAX_UPLOAD, &c->u.fi.data);
}

/* A write; envd's (E2B's files.write) make the missing directories above
 * the path as E2B's envd does, hangar's own PUT does not. Only after the
 * guest said ENOENT: the common write costs no extra round trip. */
int hg__api_file_write_at(hg_call *c, hg_agent *a, const char *path, const void *data,
                          size_t len, uint64_t off, uint32_t mode) {
  int rc = hg_agent_file_write_at(a, path, data, len, off, mode);
  const char *slash = strrchr(path, '/');
  if (rc != -ENOENT || !hg__api_route_envd(c->rt) || !slash || slash == path) return rc;
  char dir[HG_API_MAX_PATH + 2];
  snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
  if ((rc = hg_agent_mkdir(a, dir, true)) < 0) return rc;
  return hg_agent_file_write_at(a, path, data, len, off, mode);
}

/* The whole body, or what is left of one that came in pieces. */
static int op_file_write(hg_call *c, hg_agent *a) {
  if (c->u.fi.whole)
    return hg__api_file_write_at(c, a, c->u.fi.path, c->u.fi.part, c->u.fi.part_len, 0,
                                 c->u.fi.mode);
  return hg__api_file_write_at(c, a, c->u.fi.path, c->req->body, c->req->body_len,
                               c->req->body_offset, c->u.fi.mode);
}

static int op_file_remove(hg_call *c, hg_agent *a) {
  return hg_agent_remove(a, c->u.fi.path, c->u.fi.flag);
}

static int op_mkdir(hg_call *c, hg_agent *a) { return hg_agent_mkdir(a, c->u.fi.path, c->u.fi.flag); }

static json_t *stat_json(const hg_file_stat *st);

/* envd's Move: rename, then stat the destination (its EntryInfo is the
 * answer); path becomes the destination for the answer's "path". */
static int op_rename(hg_call *c, hg_agent *a) {
  hg_file *f = &c->u.fi;
  int rc = hg_agent_rename(a, f->path, f->dest);
  if (rc == 0) rc = hg_agent_stat(a, f->dest, &f->st);
  if (rc == 0) {
    memcpy(f->path, f->dest, strlen(f->dest) + 1);
    c->out = stat_json(&f->st);
  }
  return rc;
}

static json_t *stat_json(const hg_file_stat *st) {
  return json_pack("{s:s,s:I,s:i,s:I}", "type", st->type, "size", (json_int_t)st->size, "mode",
                   (int)st->mode, "mtime", (json_int_t)st->mtime);
}

static int op_stat(hg_call *c, hg_agent *a) {
  int rc = hg_agent_stat(a, c->u.fi.path, &c->u.fi.st);
  if (rc == 0) c->out = stat_json(&c->u.fi.st);
  return rc;
}

static void list_entry(void *ud, const char *name, const hg_file_stat *st) {
  json_t *o = stat_json(st);
  if (!o) return;
  json_object_set_new(o, "name", json_string(name));
  json_array_append_new(ud, o);
}

static int op_list(hg_call *c, hg_agent *a) {
  json_t *arr = json_array();
  if (!arr) return -ENOMEM;
  int rc = hg_agent_list(a, c->u.fi.path, list_entry, arr);
  if (rc == 0) c->out = json_pack("{s:o}", "entries", arr);
  else json_decref(arr);
  return rc;
}

enum { FOP_READ, FOP_WRITE, FOP_REMOVE, FOP_MKDIR, FOP_STAT, FOP_LIST, FOP_RENAME };

static void w_file(hg_call *c) {
  static int (*const ops[])(hg_call *, hg_agent *) = {
    [FOP_READ] = op_file_read, [FOP_WRITE] = op_file_write, [FOP_REMOVE] = op_file_remove,
    [FOP_MKDIR] = op_mkdir,    [FOP_STAT] = op_stat,        [FOP_LIST] = op_list,
    [FOP_RENAME] = op_rename,
  };
  c->rc = hg__api_with_agent(c, ops[c->u.fi.op]);
}

static void a_file(hg_call *c) {
  hg_file *f = &c->u.fi;
  if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, f->path);
    return;
  }
  if (c->out) {
    json_t *o = c->out;
    c->out = NULL;
    hg__api_call_json(c, 200, o, NULL);
  } else if (f->op == FOP_READ) {
    hg__api_call_respond(c, 200, "application/octet-stream", NULL,
                         f->data.data ? f->data.data : "", f->data.len);
  } else {
    hg__api_call_json(c, 204, NULL, NULL); /* E2B's upload answers a body */
  }
}

static void file_cleanup(hg_call *c) { hg_buf_free(&c->u.fi.data); }

/* Validates ?path= (and the flag named flag, default dflt) and runs op. */
static void file_start(hg_call *c, int op, const char *flag, bool dflt) {
  hg_file *f = &c->u.fi;
  c->cleanup = file_cleanup;
  hg_buf_init(&f->data, HG_API_MAX_UPLOAD);
  f->flag = dflt;
  int rc = hg__api_q_path(c, f->path);
  if (rc == 0 && flag) rc = hg__api_q_bool(c, flag, &f->flag);
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  f->op = op;
  hg__api_call_queue(c, w_file, a_file);
}

/* The same with the path given (envd's Filesystem RPCs carry it in the
 * body): op one of "stat", "list", "mkdir", "remove", "rename" (to dest,
 * NULL for the others). */
void hg__api_file_op(hg_call *c, const char *op, const char *path, const char *dest,
                     bool flag) {
  hg_file *f = &c->u.fi;
  c->cleanup = file_cleanup;
  hg_buf_init(&f->data, 16);
  f->flag = flag;
  f->op = !strcmp(op, "stat") ? FOP_STAT : !strcmp(op, "list") ? FOP_LIST
          : !strcmp(op, "mkdir") ? FOP_MKDIR : !strcmp(op, "rename") ? FOP_RENAME : FOP_REMOVE;
  const char *pf = f->op == FOP_RENAME ? "field \"source\"" : "field \"path\"";
  int rc = path && strlen(path) <= HG_API_MAX_PATH
               ? hg__api_path_check(pf, path, c->msg)
               : hg__api_bad(c->msg, "%s: required, at most %d bytes", pf,
                             HG_API_MAX_PATH);
  if (rc == 0 && f->op == FOP_RENAME)
    rc = dest && strlen(dest) <= HG_API_MAX_PATH
             ? hg__api_path_check("field \"destination\"", dest, c->msg)
             : hg__api_bad(c->msg, "field \"destination\": required, at most %d bytes",
                           HG_API_MAX_PATH);
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  memcpy(f->path, path, strlen(path) + 1);
  if (f->op == FOP_RENAME) memcpy(f->dest, dest, strlen(dest) + 1);
  hg__api_call_queue(c, w_file, a_file);
}

void hg__api_h_file_get(hg_call *c) {
  file_start(c, FOP_READ, NULL, false);
}
void hg__api_h_file_delete(hg_call *c) {
  file_start(c, FOP_REMOVE, "recursive", false);
}
void hg__api_h_file_list(hg_call *c) {
  file_start(c, FOP_LIST, NULL, false);
}
void hg__api_h_file_stat(hg_call *c) {
  file_start(c, FOP_STAT, NULL, false);
}
void hg__api_h_file_mkdir(hg_call *c) {
  file_start(c, FOP_MKDIR, "parents", true);
}

/* ?mode= into c->u.fi.mode (0644 when absent); else answers 400. */
static int file_put_mode(hg_call *c) {
  char m[8];
  c->u.fi.mode = 0644;
  int rc = hg__api_q_get(c, "mode", m, sizeof m);
  if (rc == 0) {
    char *end;
    unsigned long v = strtoul(m, &end, 8);
    if (!m[0] || *end || v > 07777 || m[0] == '-' || m[0] == '+' || m[0] == ' ')
      rc = hg__api_bad(c->msg, "query parameter \"mode\": octal permissions, 0 to 7777");
    c->u.fi.mode = (uint32_t)v;
  }
  if (rc < 0 && rc != -ENOENT) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return rc;
  }
  return 0;
}

int hg__api_file_put_begin(hg_call *c) {
  hg_file *f = &c->u.fi;
  c->cleanup = file_cleanup;
  hg_buf_init(&f->data, HG_API_MAX_UPLOAD);
  int rc = c->rt->handle == hg__api_h_envd_file_post ? hg__api_envd_upload_check(c) : 0;
  if (rc < 0) return rc;
  if ((rc = file_put_mode(c)) < 0) return rc;
  if ((rc = hg__api_q_path(c, f->path)) < 0) hg__api_call_error(c, rc, "%s", c->msg);
  return rc;
}

static int op_file_piece(hg_call *c, hg_agent *a) {
  hg_file *f = &c->u.fi;
  return hg__api_file_write_at(c, a, f->path, f->piece, f->piece_len, c->req->body_offset,
                               f->mode);
}

static void w_file_piece(hg_call *c) { c->rc = hg__api_with_agent(c, op_file_piece); }

static void a_file_piece(hg_call *c) {
  if (atomic_load(&c->aborted)) {
    hg__api_call_respond(c, 499, NULL, NULL, NULL, 0);
  } else if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, c->u.fi.path); /* the rest is not read */
  } else if (hg_http_body_next(c->req) < 0) {
    hg__api_call_respond(c, 499, NULL, NULL, NULL, 0); /* the client left */
  }
}

void hg__api_file_piece(hg_call *c, const char *data, size_t len) {
  c->u.fi.piece = data;
  c->u.fi.piece_len = len;
  hg__api_call_queue(c, w_file_piece, a_file_piece);
}

void hg__api_h_file_put(hg_call *c) {
  if (file_put_mode(c) < 0) return;
  if (c->req->body_len >
      HG_API_MAX_UPLOAD) { /* the server should have said 413 already */
    hg__api_call_error(c, -EFBIG, "file larger than %u bytes", HG_API_MAX_UPLOAD);
    return;
  }
  file_start(c, FOP_WRITE, NULL, false);
}
