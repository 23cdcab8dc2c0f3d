/* cp: one file into or out of a sandbox, streamed (never held whole in
 * memory), with a progress line on a terminal once it is large enough to
 * wait for. A download lands in a temporary file that is renamed into place
 * when complete, so a failed copy never leaves half a file under the real
 * name. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/core/util.h"
#include "tools/cli/cmdutil.h"
#include "tools/cli/commands.h"

#define CP_PROGRESS_MIN (4u << 20) /* smaller files are done before a line would help */

typedef struct cp_job {
  hg_client *c;
  hg_xfer x;
  const char *label; /* what the progress line names: the remote side */
  bool upload;
  int fd;            /* the source (upload) or the temp file (download) */
  int64_t size;      /* upload size; -1: unknown (a pipe) */
  int64_t start_ms, drawn_ms;
  bool drawing;
  int io_errno;
} cp_job;

/* ---- progress -------------------------------------------------------------------- */

static void transferred(cp_job *j, curl_off_t *done, curl_off_t *total) {
  *done = 0;
  *total = -1;
  if (j->upload) {
    curl_easy_getinfo(j->x.easy, CURLINFO_SIZE_UPLOAD_T, done);
    *total = j->size;
  } else {
    curl_easy_getinfo(j->x.easy, CURLINFO_SIZE_DOWNLOAD_T, done);
    curl_easy_getinfo(j->x.easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, total);
  }
}

static void cp_tick(void *arg) {
  cp_job *j = arg;
  int64_t now = hg_now_ms();
  if (!j->c->err_tty || now - j->drawn_ms < HG_CLIENT_TICK_MS - 20) return;
  curl_off_t done, total;
  transferred(j, &done, &total);
  if (!j->drawing && done < CP_PROGRESS_MIN && total < (curl_off_t)CP_PROGRESS_MIN) return;
  char d[32], t[32], r[32];
  double secs = (double)(now - j->start_ms) / 1000;
  hg_cli_fmt_bytes((uint64_t)done, d, sizeof d);
  hg_cli_fmt_bytes(secs > 0 ? (uint64_t)((double)done / secs) : 0, r, sizeof r);
  if (total > 0) {
    hg_cli_fmt_bytes((uint64_t)total, t, sizeof t);
    fprintf(stderr, "\r\033[K%s  %s / %s  %d%%  %s/s", j->label, d, t,
            (int)(done * 100 / total), r);
  } else {
    fprintf(stderr, "\r\033[K%s  %s  %s/s", j->label, d, r);
  }
  fflush(stderr);
  j->c->line_open = j->drawing = true;
  j->drawn_ms = now;
}

static void cp_finish_line(cp_job *j) {
  if (!j->drawing) return;
  curl_off_t done, total;
  transferred(j, &done, &total);
  int64_t ms = hg_now_ms() - j->start_ms;
  char d[32], el[32], r[32];
  hg_cli_fmt_bytes((uint64_t)done, d, sizeof d);
  hg_cli_fmt_duration(ms, el, sizeof el);
  hg_cli_fmt_bytes(ms > 0 ? (uint64_t)(done * 1000 / ms) : 0, r, sizeof r);
  fprintf(stderr, "\r\033[K%s  %s in %s (%s/s)\n", j->label, d, el, r);
  j->c->line_open = false;
}

/* Runs the transfer; 0 when it and our side of the I/O both went well. */
static int cp_run(cp_job *j) {
  j->start_ms = hg_now_ms();
  int rc = hg_xfer_start(&j->x);
  if (rc < 0) return rc;
  hg_xfer_wait(&j->x, cp_tick, j);
  if (j->io_errno) {
    hg_client_end_line(j->c);
    fprintf(stderr, "hangar: cp: %s\n", strerror(j->io_errno));
    return -j->io_errno;
  }
  if ((rc = hg_xfer_check(&j->x)) == 0) cp_finish_line(j);
  return rc;
}

static int files_path(hg_client *c, hg_buf *out, const char *route, const char *sb,
                      const char *gpath) {
  char *esc = hg_client_escape(c, gpath);
  if (!esc) return -ENOMEM;
  int rc = hg_buf_printf(out, "/v1/sandboxes/%s/%s?path=%s", sb, route, esc);
  curl_free(esc);
  return rc;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* ---- upload ------------------------------------------------------------------------- */

static size_t read_src(char *p, size_t size, size_t n, void *arg) {
  cp_job *j = arg;
  for (;;) {
    ssize_t r = read(j->fd, p, size * n);
    if (r >= 0) return (size_t)r;
    if (errno != EINTR) {
      j->io_errno = errno;
      return CURL_READFUNC_ABORT;
    }
  }
}

/* Whether the guest path names a directory (then the file keeps its name
 * inside it, as cp(1) does). A path that does not exist yet is a file. */
static bool remote_is_dir(hg_client *c, const char *sb, const char *gpath) {
  size_t n = strlen(gpath);
  if (n && gpath[n - 1] == '/') return true;
  hg_buf path;
  hg_buf_init(&path, 16384);
  long status = 0;
  json_t *st = NULL;
  bool dir = false;
  if (files_path(c, &path, "files/stat", sb, gpath) == 0 &&
      hg_client_try_json(c, "GET", path.data, NULL, &status, &st) == 0 && status == 200) {
    const char *type = hg_json_str(st, "type");
    dir = type && (!strcmp(type, "dir") || !strcmp(type, "directory"));
  }
  json_decref(st);
  hg_buf_free(&path);
  return dir;
}

static int upload_target(hg_client *c, const char *sb, const char *gpath, const char *src,
                         hg_buf *out) {
  if (!remote_is_dir(c, sb, gpath)) return hg_buf_printf(out, "%s", gpath);
  if (strcmp(src, "-") == 0) {
    fprintf(stderr, "hangar: cp: %s is a directory; name the file to write stdin to\n", gpath);
    return -EINVAL;
  }
  size_t n = strlen(gpath);
  return hg_buf_printf(out, "%s%s%s", gpath, n && gpath[n - 1] == '/' ? "" : "/", base_name(src));
}

static int open_source(const char *src, int *fd, struct stat *st) {
  *fd = strcmp(src, "-") == 0 ? STDIN_FILENO : open(src, O_RDONLY | O_CLOEXEC);
  if (*fd < 0 || fstat(*fd, st) < 0) {
    fprintf(stderr, "hangar: cp: %s: %s\n", src, strerror(errno));
    return -ENOENT;
  }
  if (S_ISDIR(st->st_mode)) {
    fprintf(stderr, "hangar: cp: %s is a directory; cp copies one file "
                    "(tar c %s | hangar cp - ID:/path.tar)\n", src, src);
    return -EISDIR;
  }
  return 0;
}

static int upload(hg_client *c, const char *src, const hg_cli_spec *dst, const char *label) {
  char sb[HG_CLI_ID_MAX];
  cp_job j = {.c = c, .label = label, .upload = true, .fd = -1};
  struct stat st;
  hg_buf gpath, path;
  hg_buf_init(&gpath, 8192);
  hg_buf_init(&path, 32768);
  int rc = open_source(src, &j.fd, &st);
  if (rc == 0) rc = hg_cmd_sandbox_id(c, dst->id, sb);
  if (rc == 0) rc = upload_target(c, sb, dst->path, src, &gpath);
  if (rc == 0) rc = files_path(c, &path, "files", sb, gpath.data);
  if (rc == 0 && S_ISREG(st.st_mode)) rc = hg_buf_printf(&path, "&mode=%04o", st.st_mode & 07777);
  if (rc == 0) rc = hg_xfer_init(&j.x, c, "PUT", path.data);
  if (rc == 0) {
    /* A file's size is known; a pipe goes chunked. */
    j.size = S_ISREG(st.st_mode) ? (int64_t)st.st_size : -1;
    curl_easy_setopt(j.x.easy, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(j.x.easy, CURLOPT_READFUNCTION, read_src);
    curl_easy_setopt(j.x.easy, CURLOPT_READDATA, &j);
    if (j.size >= 0) curl_easy_setopt(j.x.easy, CURLOPT_INFILESIZE_LARGE, (curl_off_t)j.size);
    rc = hg_xfer_add_header(&j.x, "Content-Type: application/octet-stream");
  }
  if (rc == 0) rc = cp_run(&j);
  hg_xfer_cleanup(&j.x);
  if (j.fd > STDIN_FILENO) close(j.fd);
  hg_buf_free(&gpath);
  hg_buf_free(&path);
  return rc;
}

/* ---- download ----------------------------------------------------------------------- */

static size_t write_dst(char *p, size_t size, size_t n, void *arg) {
  cp_job *j = arg;
  size_t len = size * n;
  if (!hg_xfer_status_ok(&j->x)) { /* an error answer: keep it for the message */
    hg_buf_append(&j->x.body, p, len);
    return len;
  }
  int rc = hg_cmd_write_all(j->fd, p, len);
  if (rc < 0) {
    j->io_errno = -rc;
    return 0;
  }
  return len;
}

/* Where a download lands: DST itself, or DST/<name> when DST is a directory. */
static int local_target(const char *dst, const char *gpath, hg_buf *out) {
  struct stat st;
  size_t n = strlen(dst);
  bool dir = (n && dst[n - 1] == '/') || (stat(dst, &st) == 0 && S_ISDIR(st.st_mode));
  if (!dir) return hg_buf_printf(out, "%s", dst);
  const char *name = base_name(gpath);
  if (!*name) {
    fprintf(stderr, "hangar: cp: %s names a directory; cp copies one file\n", gpath);
    return -EINVAL;
  }
  return hg_buf_printf(out, "%s%s%s", dst, dst[n - 1] == '/' ? "" : "/", name);
}

/* An existing file keeps its mode, as with cp(1); a new one gets 0666 less the umask. */
static mode_t new_mode(const char *target) {
  struct stat st;
  if (stat(target, &st) == 0 && S_ISREG(st.st_mode)) return st.st_mode & 07777;
  mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

static int open_temp(const char *target, hg_buf *tmp, int *fd) {
  int rc = hg_buf_printf(tmp, "%s.hangar-XXXXXX", target);
  if (rc < 0) return rc;
  *fd = mkostemp(tmp->data, O_CLOEXEC);
  if (*fd < 0) {
    fprintf(stderr, "hangar: cp: cannot write next to %s: %s\n", target, strerror(errno));
    return -errno;
  }
  return 0;
}

/* Puts the finished temp file in place. */
static int commit_temp(cp_job *j, const char *tmp, const char *target) {
  int rc = 0;
  if (fchmod(j->fd, new_mode(target)) < 0 || close(j->fd) < 0 || rename(tmp, target) < 0) {
    rc = -errno;
    fprintf(stderr, "hangar: cp: %s: %s\n", target, strerror(errno));
  }
  j->fd = -1;
  return rc;
}

static int download(hg_client *c, const hg_cli_spec *src, const char *dst, const char *label) {
  char sb[HG_CLI_ID_MAX];
  cp_job j = {.c = c, .label = label, .fd = -1};
  bool to_stdout = strcmp(dst, "-") == 0;
  hg_buf target, tmp, path;
  hg_buf_init(&target, 8192);
  hg_buf_init(&tmp, 8192);
  hg_buf_init(&path, 32768);
  int rc = hg_cmd_sandbox_id(c, src->id, sb);
  if (rc == 0 && !to_stdout) rc = local_target(dst, src->path, &target);
  if (rc == 0 && !to_stdout) rc = open_temp(target.data, &tmp, &j.fd);
  if (rc == 0 && to_stdout) j.fd = STDOUT_FILENO;
  if (rc == 0) rc = files_path(c, &path, "files", sb, src->path);
  if (rc == 0) rc = hg_xfer_init(&j.x, c, "GET", path.data);
  if (rc == 0) {
    hg_buf_init(&j.x.body, HG_CLIENT_MAX_ERROR);
    curl_easy_setopt(j.x.easy, CURLOPT_WRITEFUNCTION, write_dst);
    curl_easy_setopt(j.x.easy, CURLOPT_WRITEDATA, &j);
    rc = cp_run(&j);
  }
  if (rc == 0 && !to_stdout) rc = commit_temp(&j, tmp.data, target.data);
  if (j.fd > STDOUT_FILENO) close(j.fd);
  if (rc < 0 && tmp.len) unlink(tmp.data);
  hg_xfer_cleanup(&j.x);
  hg_buf_free(&target);
  hg_buf_free(&tmp);
  hg_buf_free(&path);
  return rc;
}

int hg_cmd_cp(hg_client *c, const hg_cli_args *a) {
  hg_cli_spec src, dst;
  if (hg_cli_parse_spec(a->args[0], &src) < 0 || hg_cli_parse_spec(a->args[1], &dst) < 0) {
    fprintf(stderr, "hangar: cp: a sandbox side is ID:/guest/path\n");
    return HG_CLI_EXIT_USAGE;
  }
  if (src.remote == dst.remote) {
    fputs(src.remote ? "hangar: cp: both sides are in sandboxes; copy through a local file\n"
                     : "hangar: cp: one side must be ID:/guest/path\n",
          stderr);
    return HG_CLI_EXIT_USAGE;
  }
  int rc = dst.remote ? upload(c, a->args[0], &dst, a->args[1])
                      : download(c, &src, a->args[1], a->args[0]);
  return hg_cmd_exit(rc);
}
