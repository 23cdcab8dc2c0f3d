/* template: building and finding the read-only template subvolumes. */
#include "node/template.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/agentcli.h"
#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"

#define TEMPLATE_JSON_MAX (64 * 1024)
#define TEMPLATE_BOOT_TIMEOUT_MS 120000
#define DEFAULT_CMDLINE "console=ttyS0 quiet panic=-1 tsc_early_khz=2000000"

static const char *const template_files[] = {"vmlinuz", "initrd.img", "rootfs.img"};

static bool name_part_ok(const char *s, size_t len) {
  if (len == 0 || len > 40) return false;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              (i > 0 && (c == '.' || c == '_' || c == '-'));
    if (!ok) return false;
  }
  return true;
}

int hg_template_name(const char *ref, char out[HG_TEMPLATE_NAME_MAX]) {
  if (!ref || !*ref) ref = "default";
  const char *colon = strchr(ref, ':');
  size_t nlen = colon ? (size_t)(colon - ref) : strlen(ref);
  const char *tag = colon ? colon + 1 : "latest";
  if (!name_part_ok(ref, nlen) || !name_part_ok(tag, strlen(tag))) return -EINVAL;
  return hg_path(out, HG_TEMPLATE_NAME_MAX, "%.*s:%s", (int)nlen, ref, tag);
}

static int info_from_json(const char *rel, json_t *j, hg_template_info *out) {
  const char *name = json_string_value(json_object_get(j, "name"));
  const char *digest = json_string_value(json_object_get(j, "digest"));
  const char *cmdline = json_string_value(json_object_get(j, "cmdline"));
  json_int_t mem = json_integer_value(json_object_get(j, "memory_mib"));
  json_int_t vcpus = json_integer_value(json_object_get(j, "vcpus"));
  if (!name || !digest || strlen(digest) != 64 || mem <= 0 || mem > 1 << 20)
    return -EPROTO;
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "%s", name);
  snprintf(out->digest, sizeof out->digest, "%s", digest);
  snprintf(out->cmdline, sizeof out->cmdline, "%s", cmdline ? cmdline : DEFAULT_CMDLINE);
  out->memory_mib = (unsigned)mem;
  out->vcpus = vcpus > 0 && vcpus <= 64 ? (unsigned)vcpus : 1;
  /* Absent in templates made before sandboxes had NICs: none. */
  out->nic = json_is_true(json_object_get(j, "nic"));
  /* Absent in templates made before the accelerator was recorded: TCG, the
   * only one those nodes could prove. */
  const char *accel = json_string_value(json_object_get(j, "accel"));
  snprintf(out->accel, sizeof out->accel, "%s", accel && !strcmp(accel, "kvm") ? "kvm" : "tcg");
  const char *profile = json_string_value(json_object_get(j, "profile"));
  snprintf(out->profile, sizeof out->profile, "%s", profile ? profile : "");
  out->created_ms = hg_iso_parse(json_string_value(json_object_get(j, "created_at")));
  return hg_path(out->rel, sizeof out->rel, "%s", rel);
}

static int read_info(hg_store *st, const char *rel, hg_template_info *out) {
  char path[4096], *text;
  int rc = hg_store_abs(st, rel, path, sizeof path - 16);
  if (rc < 0) return rc;
  strcat(path, "/template.json");
  rc = hg_read_file(path, TEMPLATE_JSON_MAX, &text, NULL);
  if (rc < 0) return rc;
  json_t *j = json_loads(text, 0, NULL);
  free(text);
  if (!j) return -EPROTO;
  rc = info_from_json(rel, j, out);
  json_decref(j);
  return rc;
}

/* Calls fn for every valid template; stops early when fn returns nonzero. */
static void each_template(hg_store *st, int (*fn)(void *, const hg_template_info *),
                          void *ud) {
  char dir[4096];
  if (hg_store_abs(st, "templates", dir, sizeof dir) < 0) return;
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.' || !strchr(e->d_name, '@')) continue;
    char rel[256];
    hg_template_info info;
    if (hg_path(rel, sizeof rel, "templates/%s", e->d_name) < 0) continue;
    if (read_info(st, rel, &info) < 0) continue;
    if (fn(ud, &info)) break;
  }
  closedir(d);
}

typedef struct resolve_ctx {
  const char *name;
  hg_template_info *best;
  bool found;
} resolve_ctx;

static int resolve_one(void *ud, const hg_template_info *info) {
  resolve_ctx *c = ud;
  if (strcmp(info->name, c->name) != 0) return 0;
  if (!c->found || info->created_ms > c->best->created_ms) *c->best = *info;
  c->found = true;
  return 0;
}

/* The template the last import under name made or found, as its record
 * names it; -ENOENT when there is no record or the template is gone. */
static int recorded(hg_store *st, const char *name, hg_template_info *out) {
  hg_template_source src;
  char rel[192];
  int rc = hg_template_source_read(st, name, &src);
  if (rc == 0) rc = hg_path(rel, sizeof rel, "templates/%s@%.16s", name, src.digest);
  if (rc == 0 && !hg_store_is_subvol(st, rel)) rc = -ENOENT;
  if (rc == 0) rc = read_info(st, rel, out);
  if (rc == 0 && strcmp(out->digest, src.digest) != 0) rc = -ENOENT;
  return rc;
}

int hg_template_resolve(hg_store *st, const char *ref, hg_template_info *out) {
  char name[HG_TEMPLATE_NAME_MAX];
  int rc = hg_template_name(ref, name);
  if (rc < 0) return rc;
  hg_template_info best;
  /* The last import wins even when it matched an older template; without
   * a record (a template received from a peer), the newest does. */
  if (recorded(st, name, &best) == 0) {
    *out = best;
    return 0;
  }
  resolve_ctx c = {name, &best, false};
  each_template(st, resolve_one, &c);
  if (!c.found) return -ENOENT;
  *out = best;
  return 0;
}

typedef struct list_ctx {
  hg_store *st;
  json_t *arr;
} list_ctx;

/* Flat entries (no nested objects), so a shell script can pick one out. */
static int list_one(void *ud, const hg_template_info *info) {
  list_ctx *c = ud;
  char at[32];
  hg_template_info cur;
  hg_template_source src;
  hg_iso_time(info->created_ms, at);
  bool is_default = hg_template_resolve(c->st, info->name, &cur) == 0 &&
                    strcmp(cur.digest, info->digest) == 0;
  json_t *e = json_pack("{s:s, s:s, s:s, s:b, s:i, s:i, s:b, s:s, s:s}", "name", info->name,
                        "digest", info->digest, "profile", info->profile, "default",
                        is_default, "memory_mib", (int)info->memory_mib, "vcpus",
                        (int)info->vcpus, "nic", info->nic, "accel", info->accel,
                        "created_at", at);
  if (is_default && hg_template_source_read(c->st, info->name, &src) == 0 &&
      strcmp(src.digest, info->digest) == 0) {
    json_object_set_new(e, "source_dir", json_string(src.dir));
    json_object_set_new(e, "source_manifest", json_string(src.manifest));
  }
  json_array_append_new(c->arr, e);
  return 0;
}

json_t *hg_template_list_store(hg_store *st) {
  list_ctx c = {st, json_array()};
  each_template(st, list_one, &c);
  return c.arr;
}

/* --- where templates come from ------------------------------------------- */

static int source_record_path(hg_store *st, const char *name, char *out, size_t cap) {
  char dir[4096];
  int rc = hg_store_abs(st, "templates", dir, sizeof dir);
  return rc < 0 ? rc : hg_path(out, cap, "%s/.source-%s.json", dir, name);
}

static void sha256_hex(const void *data, size_t len, char out[65]) {
  unsigned char raw[32];
  unsigned n = 0;
  EVP_Digest(data, len, raw, &n, EVP_sha256(), NULL);
  hg_hex_encode(raw, 32, out);
}

/* Fingerprint and manifest of src_dir as it is now (digest left empty).
 * The artifacts are stat'ed, not read: a rootfs is gigabytes, and mkimage
 * renames new files into place, so a rebuild changes inode and mtime. */
int hg_template_source_scan(const char *src_dir, hg_template_source *out) {
  char text[4096], path[4096], *manifest = NULL;
  size_t off = 0, mlen = 0;
  memset(out, 0, sizeof *out);
  /* The same dir named another way (relative, via a symlink) is the same source. */
  char real[PATH_MAX];
  if (hg_path(out->dir, sizeof out->dir, "%s", realpath(src_dir, real) ? real : src_dir) <
      0)
    return -ENAMETOOLONG;
  for (size_t i = 0; i < HG_ARRAY_SIZE(template_files); i++) {
    struct stat sb;
    if (hg_path(path, sizeof path, "%s/%s", src_dir, template_files[i]) < 0)
      return -ENAMETOOLONG;
    if (stat(path, &sb) < 0) return -errno;
    off += (size_t)snprintf(text + off, sizeof text - off, "%s %lld %lld.%09ld %llu\n",
                            template_files[i], (long long)sb.st_size,
                            (long long)sb.st_mtim.tv_sec, sb.st_mtim.tv_nsec,
                            (unsigned long long)sb.st_ino);
  }
  if (hg_path(path, sizeof path, "%s/template.json", src_dir) == 0 &&
      hg_read_file(path, TEMPLATE_JSON_MAX, &manifest, &mlen) == 0)
    sha256_hex(manifest, mlen, out->manifest);
  free(manifest);
  snprintf(text + off, sizeof text - off, "template.json %s\n", out->manifest);
  sha256_hex(text, strlen(text), out->fingerprint);
  return 0;
}

int hg_template_source_read(hg_store *st, const char *name, hg_template_source *out) {
  char path[4096], *text = NULL;
  int rc = source_record_path(st, name, path, sizeof path);
  if (rc == 0) rc = hg_read_file(path, TEMPLATE_JSON_MAX, &text, NULL);
  if (rc < 0) return rc;
  json_t *j = json_loads(text, 0, NULL);
  free(text);
  const char *dir = json_string_value(json_object_get(j, "dir"));
  const char *fp = json_string_value(json_object_get(j, "fingerprint"));
  const char *man = json_string_value(json_object_get(j, "manifest"));
  const char *digest = json_string_value(json_object_get(j, "digest"));
  rc = dir && fp && man && digest && strlen(digest) == 64 ? 0 : -EPROTO;
  if (rc == 0) {
    memset(out, 0, sizeof *out);
    snprintf(out->dir, sizeof out->dir, "%s", dir);
    snprintf(out->fingerprint, sizeof out->fingerprint, "%s", fp);
    snprintf(out->manifest, sizeof out->manifest, "%s", man);
    snprintf(out->digest, sizeof out->digest, "%s", digest);
  }
  json_decref(j);
  return rc;
}

int hg_template_source_write(hg_store *st, const char *name,
                             const hg_template_source *src) {
  char path[4096];
  int rc = source_record_path(st, name, path, sizeof path);
  if (rc < 0) return rc;
  json_t *j =
      json_pack("{s:s, s:s, s:s, s:s}", "dir", src->dir, "fingerprint", src->fingerprint,
                "manifest", src->manifest, "digest", src->digest);
  char *text = json_dumps(j, JSON_INDENT(2));
  json_decref(j);
  rc = text ? hg_write_file_atomic(path, text, strlen(text)) : -ENOMEM;
  free(text);
  return rc;
}

int hg_template_source_check(hg_store *st, const char *name_tag, const char *src_dir,
                             const char **why) {
  char name[HG_TEMPLATE_NAME_MAX];
  hg_template_source now, was;
  hg_template_info have;
  int rc = hg_template_name(name_tag, name);
  if (rc == 0) rc = hg_template_source_scan(src_dir, &now);
  if (rc < 0) return rc;
  if (hg_template_resolve(st, name, &have) < 0)
    *why = "missing";
  else if (hg_template_source_read(st, name, &was) < 0)
    *why = "no_record";
  else if (strcmp(was.digest, have.digest) != 0)
    *why = "template_gone";
  else if (strcmp(was.dir, now.dir) != 0)
    *why = "dir_changed";
  else if (strcmp(was.fingerprint, now.fingerprint) != 0)
    *why = "source_changed";
  else
    return 0;
  return 1;
}

/* --- building ----------------------------------------------------------- */

static int hash_file(EVP_MD_CTX *md, const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  static __thread char buf[1 << 16];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) EVP_DigestUpdate(md, buf, (size_t)n);
  int rc = n < 0 ? -errno : 0;
  close(fd);
  return rc;
}

static int template_digest(const char *src, const char *cmdline, unsigned mem, bool nic,
                           bool kvm, char out[65]) {
  EVP_MD_CTX *md = EVP_MD_CTX_new();
  if (!md) return -ENOMEM;
  EVP_DigestInit_ex(md, EVP_sha256(), NULL);
  int rc = 0;
  for (size_t i = 0; i < HG_ARRAY_SIZE(template_files) && rc == 0; i++) {
    char path[4096];
    rc = hg_path(path, sizeof path, "%s/%s", src, template_files[i]);
    if (rc == 0) rc = hash_file(md, path);
    EVP_DigestUpdate(md, template_files[i], strlen(template_files[i]) + 1);
  }
  char extra[600];
  /* A NIC and KVM change the saved machine; TCG templates without one keep
   * the digests they had before NICs (and the accelerator) were recorded. */
  snprintf(extra, sizeof extra, "cmdline=%s\nmemory_mib=%u\n%s%s", cmdline, mem,
           nic ? "nic=1\n" : "", kvm ? "accel=kvm\n" : "");
  EVP_DigestUpdate(md, extra, strlen(extra));
  unsigned char raw[32];
  unsigned len = 0;
  EVP_DigestFinal_ex(md, raw, &len);
  EVP_MD_CTX_free(md);
  if (rc == 0) hg_hex_encode(raw, 32, out);
  return rc;
}

/* Writes all n bytes of buf at off. */
static int pwrite_all(int fd, const char *buf, size_t n, off_t off) {
  for (size_t w = 0; w < n;) {
    ssize_t m = pwrite(fd, buf + w, n - w, off + (off_t)w);
    if (m < 0 && errno == EINTR) continue;
    if (m <= 0) return m < 0 ? -errno : -EIO;
    w += (size_t)m;
  }
  return 0;
}

/* Copies [off, end) of in to out with plain reads and writes. */
static int copy_range(int in, int out, off_t off, off_t end) {
  static __thread char buf[1 << 16];
  while (off < end) {
    size_t want = (size_t)(end - off) < sizeof buf ? (size_t)(end - off) : sizeof buf;
    ssize_t n = pread(in, buf, want, off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? -errno : -EIO;
    int rc = pwrite_all(out, buf, (size_t)n, off);
    if (rc < 0) return rc;
    off += n;
  }
  return 0;
}

/* Reflink when source and destination share a filesystem; else copy the
 * data regions only (publish fills the holes once the boot is done). */
static int copy_file(const char *from, const char *to) {
  int in = open(from, O_RDONLY | O_CLOEXEC);
  if (in < 0) return -errno;
  int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) {
    int rc = -errno;
    close(in);
    return rc;
  }
  int rc = 0;
  struct stat st;
  if (fstat(in, &st) < 0) rc = -errno;
  if (rc == 0 && ioctl(out, FICLONE, in) < 0) {
    off_t data = 0, hole;
    while (rc == 0 && (data = lseek(in, data, SEEK_DATA)) >= 0) {
      hole = lseek(in, data, SEEK_HOLE);
      if (hole < 0) hole = st.st_size;
      rc = copy_range(in, out, data, hole);
      data = hole;
    }
    if (rc == 0 && ftruncate(out, st.st_size) < 0) rc = -errno;
  }
  if (rc == 0 && fsync(out) < 0) rc = -errno;
  close(in);
  close(out);
  return rc;
}

static void load_build_hints(const char *src, char cmdline[512], unsigned *mem,
                             char profile[32]) {
  char path[4096], *text;
  snprintf(cmdline, 512, "%s", DEFAULT_CMDLINE);
  *mem = 256;
  profile[0] = '\0';
  if (hg_path(path, sizeof path, "%s/template.json", src) < 0) return;
  if (hg_read_file(path, TEMPLATE_JSON_MAX, &text, NULL) < 0) return;
  json_t *j = json_loads(text, 0, NULL);
  free(text);
  const char *c = json_string_value(json_object_get(j, "cmdline"));
  json_int_t m = json_integer_value(json_object_get(j, "memory_mib"));
  if (c && strlen(c) < 512) snprintf(cmdline, 512, "%s", c);
  if (m >= 64 && m <= 65536) *mem = (unsigned)m;
  const char *p = json_string_value(json_object_get(j, "profile"));
  if (p && strlen(p) < 32) snprintf(profile, 32, "%s", p);
  json_decref(j);
}

static void report(hg_template_progress progress, void *ud, const char *text) {
  hg_log_info("template.build", "step=\"%s\"", text);
  if (progress) progress(ud, text);
}

/* The build's boot prints the kernel's messages: with "quiet" a boot that
 * fails leaves nothing on the console to say why. The saved machine is the
 * same either way. */
static void boot_cmdline(const char *cmdline, char out[512]) {
  size_t n = 0;
  for (const char *p = cmdline; *p;) {
    size_t len = strcspn(p, " ");
    if (len && !(len == 5 && !strncmp(p, "quiet", 5)) && n + len + 2 < 512) {
      if (n) out[n++] = ' ';
      memcpy(out + n, p, len);
      n += len;
    }
    p += len;
    p += strspn(p, " ");
  }
  out[n] = '\0';
}

/* Why a boot failed, for the operation's error: the code and the console. */
static void boot_why(const char *dir, const char *accel, int rc, char *why) {
  char path[4096], tail[HG_TEMPLATE_WHY_MAX - 160];
  if (!why) return;
  if (hg_path(path, sizeof path, "%s/console.log", dir) < 0 ||
      hg_file_tail(path, tail, sizeof tail) < 0 || !tail[0])
    snprintf(tail, sizeof tail, "(empty)");
  snprintf(why, HG_TEMPLATE_WHY_MAX, "the template did not boot under %s: %s; console: %s",
           accel && !strcmp(accel, "kvm") ? "KVM" : "TCG", hg_err_str(rc), tail);
}

/* Boots the staged files, waits for the agent, saves the booted memory.
 * tap_fd: the NIC's tap (closed here once the VMM has its own), or -1. */
static int boot_and_save(const hg_template_build_args *a, const char *dir,
                         const char *cmdline, unsigned mem, int tap_fd, const char *mac,
                         char *why) {
  char kernel[4096], initrd[4096], rootfs[4096], vmstate[4096], console[4096], line[512];
  hg_path(kernel, sizeof kernel, "%s/vmlinuz", dir);
  hg_path(initrd, sizeof initrd, "%s/initrd.img", dir);
  hg_path(rootfs, sizeof rootfs, "%s/rootfs.img", dir);
  hg_path(vmstate, sizeof vmstate, "%s/vmstate", dir);
  hg_path(console, sizeof console, "%s/console.log", dir);
  boot_cmdline(cmdline, line);
  hg_vm_config cfg = {.dir = dir, .kernel = kernel, .initrd = initrd, .cmdline = line,
                      .rootfs = rootfs, .vcpus = 1, .memory_mib = mem, .tap_fd = tap_fd,
                      .mac = mac, .accel = a->accel, .shim_path = a->shim_path,
                      .log_path = console};
  const hg_vmm_ops *vmm = a->vmm;
  hg_vm *vm;
  int rc = vmm->start(&cfg, &vm);
  if (tap_fd >= 0) close(tap_fd);
  if (rc < 0) {
    boot_why(dir, a->accel, rc, why);
    return rc;
  }
  hg_agent *agent = NULL;
  rc = hg_agent_connect(vmm->agent_path(vm), TEMPLATE_BOOT_TIMEOUT_MS, &agent);
  if (rc == 0) rc = hg_agent_ping(agent, TEMPLATE_BOOT_TIMEOUT_MS);
  if (rc < 0) boot_why(dir, a->accel, rc, why);
  /* Disconnect before saving: the saved guest then waits for a host, and
   * every sandbox restored from it connects afresh. */
  hg_agent_free(agent);
  if (rc == 0) rc = vmm->save(vm, vmstate);
  int stop_rc = vmm->stop(vm);
  vmm->release(vm);
  return rc < 0 ? rc : stop_rc;
}

static int write_template_json(const char *dir, const char *name, const char *digest,
                               const char *cmdline, unsigned mem, bool nic, bool kvm,
                               const char *profile) {
  char at[32], path[4096];
  hg_iso_time(hg_wall_ns() / 1000000, at);
  json_t *j = json_pack("{s:s, s:s, s:s, s:i, s:i, s:b, s:s, s:s, s:s}", "name", name,
                        "digest", digest, "cmdline", cmdline, "memory_mib", (int)mem,
                        "vcpus", 1, "nic", nic, "accel", kvm ? "kvm" : "tcg", "created_at",
                        at, "profile", profile);
  char *text = json_dumps(j, JSON_INDENT(2));
  json_decref(j);
  int rc = hg_path(path, sizeof path, "%s/template.json", dir);
  if (rc == 0) rc = hg_write_file_atomic(path, text, strlen(text));
  free(text);
  return rc;
}

static int stage_files(hg_store *st, const char *src, const char *stage_rel,
                       char dir[4096]) {
  int rc = hg_store_subvol_create(st, stage_rel);
  if (rc == 0) rc = hg_store_abs(st, stage_rel, dir, 4096);
  for (size_t i = 0; i < HG_ARRAY_SIZE(template_files) && rc == 0; i++) {
    char from[4096], to[4096];
    rc = hg_path(from, sizeof from, "%s/%s", src, template_files[i]);
    if (rc == 0) rc = hg_path(to, sizeof to, "%s/%s", dir, template_files[i]);
    if (rc == 0) rc = copy_file(from, to);
  }
  return rc;
}

/* The boot with the template's NIC, when it has one: the tap lives in a
 * namespace of its own for the length of the build. */
static int boot_with_net(const hg_template_build_args *a, const char *dir,
                         const char *cmdline, unsigned mem, const char *digest, char *why) {
  const hg_net_ops *net = a->net;
  if (!net) return boot_and_save(a, dir, cmdline, mem, -1, NULL, why);
  char ns[32];
  snprintf(ns, sizeof ns, "tpl-%.16s", digest);
  int tap = -1;
  int rc = net->attach(net->ud, ns, &tap);
  if (rc < 0) {
    hg_log_error("template.net", "netns=%s err=\"%s\"", ns, hg_err_str(rc));
    if (why) snprintf(why, HG_TEMPLATE_WHY_MAX, "cannot attach the build's NIC: %s", hg_err_str(rc));
    return rc;
  }
  rc = boot_and_save(a, dir, cmdline, mem, tap, net->mac, why);
  int drc = net->detach(net->ud, ns);
  if (drc < 0)
    hg_log_warn("template.net", "netns=%s detach_err=\"%s\"", ns, hg_err_str(drc));
  return rc;
}

static void fail_why(char *why, const char *what, int rc) {
  if (why && !why[0]) snprintf(why, HG_TEMPLATE_WHY_MAX, "%s: %s", what, hg_err_str(rc));
}

/* The import's record (the source, and the digest it makes), written
 * before the template appears: the template is name's default from the
 * moment it does, and a listing never shows it without its source. A
 * record whose template never appears (a build that failed, a crash)
 * names nothing: resolve falls back to the newest, and the next start
 * imports again (template_gone). One that cannot be written only costs a
 * re-import at the next start. */
static void record_source(hg_store *st, const char *name, hg_template_source *src,
                          const char *digest) {
  snprintf(src->digest, sizeof src->digest, "%s", digest);
  int rc = hg_template_source_write(st, name, src);
  if (rc < 0)
    hg_log_warn("template.source", "template=%s err=\"%s\"", name, hg_err_str(rc));
}

/* What one build is about, past its arguments. */
/* Writes zeros over every hole of dir/name. btrfs send (kernel 6.x,
 * is_extent_unchanged) takes a piece of a parent's extent that a hole
 * follows for changed, and walks its back references for a clone source;
 * past SEND_MAX_EXTENT_REFS (1024) it sends the piece as data. Each
 * sandbox made from the template adds references to the template's
 * extents (a guest's write splits one), so from the ~15th sandbox of a
 * template on a node, a first generation's stream carried 70-110 MB of
 * the template's unchanged memory instead of ~1.4 MB (bench_failover's
 * mass round; tools/bench/bench_send_holes.sh measures it). With no
 * hole no piece is walked at all. Zeros, not fallocate: an unwritten
 * (preallocated) extent is walked too. */
static int fill_holes(const char *dir, const char *name) {
  static __thread char zeros[1 << 16];
  char path[4096];
  int rc = hg_path(path, sizeof path, "%s/%s", dir, name);
  int fd = rc < 0 ? -1 : open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) return rc < 0 ? rc : errno == ENOENT ? 0 : -errno;
  struct stat st;
  if (fstat(fd, &st) < 0) rc = -errno;
  for (off_t off = 0; rc == 0 && off < st.st_size;) {
    off_t hole = lseek(fd, off, SEEK_HOLE);
    if (hole < 0 || hole >= st.st_size) break;
    off_t data = lseek(fd, hole, SEEK_DATA);
    if (data < 0) data = st.st_size; /* ENXIO: a hole to the end */
    for (off_t at = hole; rc == 0 && at < data; at += (off_t)sizeof zeros) {
      size_t n = (size_t)(data - at) < sizeof zeros ? (size_t)(data - at) : sizeof zeros;
      rc = pwrite_all(fd, zeros, n, at);
    }
    off = data;
  }
  if (rc == 0 && fsync(fd) < 0) rc = -errno;
  close(fd);
  return rc;
}

typedef struct build_job {
  const char *name, *src_dir, *rel, *cmdline, *profile, *digest;
  unsigned mem;
  bool kvm;
} build_job;

/* Stages, boots once and publishes as rel. */
static int publish(const hg_template_build_args *a, const build_job *b, char *why) {
  char stage_rel[64], dir[4096], tag[HG_ID_MAX];
  int rc;
  if ((rc = hg_id_new("tpl", tag)) < 0) return rc;
  if ((rc = hg_path(stage_rel, sizeof stage_rel, "staging/%s", tag)) < 0) return rc;
  report(a->progress, a->ud, "copying kernel, initrd and rootfs");
  rc = stage_files(a->store, b->src_dir, stage_rel, dir);
  if (rc < 0) fail_why(why, "cannot copy the template's files", rc);
  if (rc == 0) {
    report(a->progress, a->ud, b->kvm ? "booting the template once (KVM)"
                                      : "booting the template once (TCG)");
    rc = boot_with_net(a, dir, b->cmdline, b->mem, b->digest, why);
  }
  if (rc == 0) {
    report(a->progress, a->ud, "filling the memory and disk images' holes");
    rc = fill_holes(dir, "mem");
    if (rc == 0) rc = fill_holes(dir, "rootfs.img");
    if (rc < 0) fail_why(why, "cannot fill the template's holes", rc);
  }
  if (rc == 0) {
    report(a->progress, a->ud, "publishing");
    a->vmm->clear(dir);
    rc = write_template_json(dir, b->name, b->digest, b->cmdline, b->mem, a->net != NULL,
                             b->kvm, b->profile);
  }
  if (rc == 0) rc = hg_store_freeze(a->store, stage_rel);
  if (rc == 0) rc = hg_store_move(a->store, stage_rel, b->rel);
  if (rc < 0) {
    fail_why(why, "cannot publish the template", rc);
    hg_store_subvol_delete(a->store, stage_rel);
  }
  return rc;
}

static void log_failure(const char *name, const char *src_dir, int rc, const char *why) {
  char line[HG_TEMPLATE_WHY_MAX];
  snprintf(line, sizeof line, "%s", why ? why : "");
  for (char *p = line; *p; p++) /* one log line */
    if (*p == '\n') *p = '|';
    else if (*p == '"') *p = '\'';
  hg_log_error("template.build", "template=%s src=%s err=\"%s\" why=\"%s\"", name, src_dir,
               hg_err_str(rc), line);
}

int hg_template_build(const hg_template_build_args *a, const char *name_tag,
                      const char *src_dir, hg_template_info *out,
                      char why[HG_TEMPLATE_WHY_MAX]) {
  char name[HG_TEMPLATE_NAME_MAX], cmdline[512], digest[65], profile[32], rel[192];
  unsigned mem;
  hg_template_source src;
  bool kvm = a->accel && !strcmp(a->accel, "kvm");
  if (why) why[0] = '\0';
  int rc = hg_template_name(name_tag, name);
  if (rc < 0) {
    fail_why(why, "bad template name", rc);
    return rc;
  }
  /* Scanned before hashing: a source that changes during the import is
   * seen as changed at the next start. */
  rc = hg_template_source_scan(src_dir, &src);
  load_build_hints(src_dir, cmdline, &mem, profile);
  report(a->progress, a->ud, "hashing artifacts");
  if (rc == 0) rc = template_digest(src_dir, cmdline, mem, a->net != NULL, kvm, digest);
  if (rc < 0) fail_why(why, "cannot read the template's kernel, initrd and rootfs", rc);
  if (rc == 0) rc = hg_path(rel, sizeof rel, "templates/%s@%.16s", name, digest);
  /* Identical artifacts were built before: that template is reused. */
  bool fresh = rc == 0 && !hg_store_is_subvol(a->store, rel);
  if (rc == 0) record_source(a->store, name, &src, digest);
  if (fresh) {
    build_job b = {.name = name, .src_dir = src_dir, .rel = rel, .cmdline = cmdline,
                   .profile = profile, .digest = digest, .mem = mem, .kvm = kvm};
    rc = publish(a, &b, why);
  }
  if (rc < 0) {
    log_failure(name, src_dir, rc, why);
    return rc;
  }
  hg_log_info("template.ready", "template=%s digest=%s profile=%s accel=%s built=%s", name,
              digest, profile[0] ? profile : "-", kvm ? "kvm" : "tcg",
              fresh ? "new" : "existing");
  return read_info(a->store, rel, out);
}
