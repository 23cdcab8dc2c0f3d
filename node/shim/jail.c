/* jail: a VMM's uid, mount namespace, privileges and cgroups (jail.h). */
#include "node/shim/jail.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "node/core/log.h"
#include "node/core/util.h"

/* What QEMU needs of the host, read-only: its libraries and loader (a
 * symlink such as merged-/usr's /lib -> usr/lib is recreated, not bound)
 * and its firmware (bios-microvm.bin, option ROMs). Missing ones are
 * skipped. */
static const char *const system_paths[] = {
    "/lib",
    "/lib64",
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib64",
    "/usr/share/qemu",
    "/usr/share/seabios",
    "/usr/share/qboot",
    "/etc/ld.so.cache",
};
static const char *const dev_paths[] = {"/dev/null", "/dev/zero", "/dev/random",
                                        "/dev/urandom"};

/* ------------------------------------------------------------ helpers */

static bool under(const char *path, const char *dir) {
  size_t n = strlen(dir);
  return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static int write_text(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  ssize_t n = write(fd, text, strlen(text));
  int rc = n == (ssize_t)strlen(text) ? 0 : n < 0 ? -errno : -EIO;
  close(fd);
  return rc;
}

/* The VMM binary as execve would find it, resolved. */
static int resolve_exe(const char *vmm, char *out) {
  if (strchr(vmm, '/')) return realpath(vmm, out) ? 0 : -errno;
  const char *path = getenv("PATH");
  char copy[4096], cand[PATH_MAX];
  snprintf(copy, sizeof copy, "%s", path ? path : "/usr/bin:/bin");
  for (char *save, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    if (hg_path(cand, sizeof cand, "%s/%s", d, vmm) == 0 && access(cand, X_OK) == 0)
      return realpath(cand, out) ? 0 : -errno;
  }
  return -ENOENT;
}

/* --------------------------------------------------------------- uid */

static uint32_t fnv1a(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

/* The first free uid from a slot the dir hashes to: free means nobody
 * holds its lock file (a shim holds it while it lives, so a crashed one
 * frees it by dying). */
static int take_uid(hg_jail *j) {
  char path[PATH_MAX];
  int rc = hg_path(path, sizeof path, "%s/uids", HG_JAIL_RUN_DIR);
  if (rc == 0) rc = hg_mkdir_p(path, 0700);
  if (rc < 0) return rc;
  uint32_t start = fnv1a(j->dir) % HG_JAIL_UID_SLOTS;
  for (uint32_t i = 0; i < HG_JAIL_UID_SLOTS; i++) {
    uid_t uid = HG_JAIL_UID_BASE + (start + i) % HG_JAIL_UID_SLOTS;
    snprintf(path, sizeof path, "%s/uids/%u", HG_JAIL_RUN_DIR, (unsigned)uid);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return -errno;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      j->uid = uid;
      j->lock_fd = fd;
      return 0;
    }
    close(fd);
  }
  return -EAGAIN;
}

/* ------------------------------------------------------------ files */

/* rw files become the jail's; ro files too unless others may read them
 * (the template's kernel is world-readable and shared: left alone). A
 * device node keeps its owner; the jail joins its group instead. */
static int hand_over(hg_jail *j, const char *path, bool rw) {
  struct stat st;
  if (stat(path, &st) < 0) return -errno;
  if (S_ISCHR(st.st_mode)) {
    if (j->n_groups < HG_JAIL_MAX_PATHS) j->groups[j->n_groups++] = st.st_gid;
    return 0;
  }
  if (!S_ISREG(st.st_mode)) return S_ISDIR(st.st_mode) ? 0 : -EINVAL;
  if (!rw && (st.st_mode & S_IROTH)) return 0;
  if (st.st_uid == j->uid) return 0;
  return chown(path, j->uid, j->uid) < 0 ? -errno : 0;
}

/* ---------------------------------------------------------- cgroups */

typedef struct cg_knob {
  const char *ctrl, *v2_file, *v1_file;
  unsigned long long v2, v1;
} cg_knob;

/* Where the cgroup fs of kind fstype ("cgroup2", or "cgroup" holding
 * controller ctrl) is mounted, into out. */
static int cg_mount(const char *fstype, const char *ctrl, char *out, size_t cap) {
  FILE *f = fopen("/proc/self/mountinfo", "re");
  if (!f) return -errno;
  char line[4096];
  int rc = -ENOENT;
  while (rc < 0 && fgets(line, sizeof line, f)) {
    char mnt[PATH_MAX], type[64], opts[1024];
    const char *dash = strstr(line, " - ");
    if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
        sscanf(dash + 3, "%63s %*s %1023s", type, opts) != 2 || strcmp(type, fstype))
      continue;
    bool has = !ctrl;
    for (char *save, *t = strtok_r(opts, ",", &save); t && !has;
         t = strtok_r(NULL, ",", &save))
      has = strcmp(t, ctrl) == 0;
    if (has) rc = hg_path(out, cap, "%s", mnt);
  }
  fclose(f);
  return rc;
}

/* The shim's own cgroup in the hierarchy of ctrl (NULL: the v2 one). */
static int cg_self(const char *ctrl, char *out, size_t cap) {
  FILE *f = fopen("/proc/self/cgroup", "re");
  if (!f) return -errno;
  char line[4096];
  int rc = -ENOENT;
  while (rc < 0 && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2) continue;
    *c2 = '\0';
    bool has = false;
    if (!ctrl) {
      has = c1[1] == '\0';
    } else {
      for (char *save, *t = strtok_r(c1 + 1, ",", &save); t && !has;
           t = strtok_r(NULL, ",", &save))
        has = strcmp(t, ctrl) == 0;
    }
    if (has) rc = hg_path(out, cap, "%s", c2 + 1);
  }
  fclose(f);
  return rc;
}

static bool cg_has(const char *dir, const char *ctrl) {
  char path[PATH_MAX], *text = NULL;
  if (hg_path(path, sizeof path, "%s/cgroup.controllers", dir) < 0 ||
      hg_read_file(path, 4096, &text, NULL) < 0)
    return false;
  bool has = false;
  for (char *save, *t = strtok_r(text, " \n", &save); t && !has;
       t = strtok_r(NULL, " \n", &save))
    has = strcmp(t, ctrl) == 0;
  free(text);
  return has;
}

static int cg_add(hg_jail *j, const char *dir) {
  for (int i = 0; i < j->n_cgroups; i++)
    if (strcmp(j->cgroups[i], dir) == 0) return 0;
  if (j->n_cgroups == HG_JAIL_MAX_CGROUPS) return -ENOSPC;
  if (mkdir(dir, 0755) < 0 && errno != EEXIST) return -errno;
  snprintf(j->cgroups[j->n_cgroups++], PATH_MAX, "%s", dir);
  return 0;
}

static int cg_set(const char *dir, const char *file, unsigned long long v) {
  char path[PATH_MAX], text[32];
  int rc = hg_path(path, sizeof path, "%s/%s", dir, file);
  snprintf(text, sizeof text, "%llu", v);
  return rc < 0 ? rc : write_text(path, text);
}

/* One knob: in the v2 cgroup when its controller is there (enabled for
 * the shim's children, or enabled now), else in its v1 hierarchy. */
static int cg_knob_apply(hg_jail *j, const cg_knob *k, const char *name) {
  char mnt[PATH_MAX], self[PATH_MAX], parent[PATH_MAX], dir[PATH_MAX];
  if (cg_mount("cgroup2", NULL, mnt, sizeof mnt) == 0 &&
      cg_self(NULL, self, sizeof self) == 0 &&
      hg_path(parent, sizeof parent, "%s%s", mnt, self) == 0 && cg_has(parent, k->ctrl)) {
    char sub[PATH_MAX], on[32];
    snprintf(on, sizeof on, "+%s", k->ctrl);
    if (hg_path(sub, sizeof sub, "%s/cgroup.subtree_control", parent) == 0)
      (void)write_text(sub, on); /* EBUSY where the shim's cgroup holds processes */
    if (hg_path(dir, sizeof dir, "%s/%s", parent, name) == 0 && cg_add(j, dir) == 0 &&
        cg_has(dir, k->ctrl))
      return cg_set(dir, k->v2_file, k->v2);
  }
  int rc = cg_mount("cgroup", k->ctrl, mnt, sizeof mnt);
  if (rc == 0) rc = cg_self(k->ctrl, self, sizeof self);
  if (rc == 0) rc = hg_path(dir, sizeof dir, "%s%s/%s", mnt, self, name);
  if (rc == 0) rc = cg_add(j, dir);
  if (rc == 0) rc = cg_set(dir, k->v1_file, k->v1);
  return rc;
}

static void cg_remove(hg_jail *j) {
  for (int i = 0; i < j->n_cgroups; i++)
    if (rmdir(j->cgroups[i]) < 0 && errno != ENOENT)
      hg_log_warn("shim.cgroup_rmdir_failed", "cgroup=%s err=%d", j->cgroups[i], -errno);
  j->n_cgroups = 0;
}

/* Cgroups of VMMs whose shim died without removing them (SIGKILL): an
 * entry hangar-vmm-<uid> in parent whose uid nobody holds. Taking the uid's
 * lock while removing it keeps a new shim from starting to use it. */
static void cg_collect(const hg_jail *j, const char *parent) {
  DIR *d = opendir(parent);
  if (!d) return;
  struct dirent *e;
  unsigned uid;
  char end;
  while ((e = readdir(d))) {
    if (sscanf(e->d_name, "hangar-vmm-%u%c", &uid, &end) != 1 || uid == j->uid) continue;
    char lock[PATH_MAX], dir[PATH_MAX];
    snprintf(lock, sizeof lock, "%s/uids/%u", HG_JAIL_RUN_DIR, uid);
    int fd = open(lock, O_RDWR | O_CLOEXEC);
    if (fd < 0) continue; /* not one of ours */
    if (flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        hg_path(dir, sizeof dir, "%s/%s", parent, e->d_name) == 0 && rmdir(dir) == 0)
      hg_log_info("shim.cgroup_collected", "cgroup=%s", dir);
    close(fd);
  }
  closedir(d);
}

static void cg_setup(hg_jail *j) {
  unsigned vcpus = j->vcpus ? j->vcpus : 1;
  unsigned long long mem = ((unsigned long long)j->memory_mib + HG_JAIL_MEM_OVERHEAD_MIB)
                           << 20;
  const cg_knob knobs[] = {
      {"memory", "memory.max", "memory.limit_in_bytes", mem, mem},
      {"pids", "pids.max", "pids.max", HG_JAIL_PIDS_MAX, HG_JAIL_PIDS_MAX},
      {"cpu", "cpu.weight", "cpu.shares", 100ull * vcpus, 1024ull * vcpus},
  };
  char name[64];
  snprintf(name, sizeof name, "hangar-vmm-%u", (unsigned)j->uid);
  for (size_t i = 0; i < HG_ARRAY_SIZE(knobs); i++) {
    if (i == 0 && j->memory_mib == 0) continue; /* no size given: no memory limit */
    int rc = cg_knob_apply(j, &knobs[i], name);
    if (rc < 0)
      hg_log_warn("shim.cgroup_unavailable", "controller=%s err=%d", knobs[i].ctrl, rc);
  }
  for (int i = 0; i < j->n_cgroups; i++) {
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", j->cgroups[i]);
    *strrchr(parent, '/') = '\0';
    cg_collect(j, parent);
  }
}

/* ------------------------------------------------------------ prepare */

int hg_jail_prepare(hg_jail *j, const char *vmm) {
  j->lock_fd = -1;
  int rc = resolve_exe(vmm, j->exe);
  if (rc < 0) {
    hg_log_error("shim.jail_failed", "step=exe vmm=%s err=%d", vmm, rc);
    return rc;
  }
  char magic[2] = {0};
  int fd = open(j->exe, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    j->wrapper = read(fd, magic, 2) == 2 && magic[0] == '#' && magic[1] == '!';
    close(fd);
  }
  rc = hg_mkdir_p(HG_JAIL_RUN_DIR, 0700);
  if (rc == 0) rc = take_uid(j);
  if (rc < 0) {
    hg_log_error("shim.jail_failed", "step=uid err=%d", rc);
    return rc;
  }
  /* Reachable, not listable, not writable: its files are named to it. */
  if (chmod(j->dir, 0711) < 0) rc = -errno;
  for (int i = 0; rc == 0 && i < j->n_rw; i++) rc = hand_over(j, j->rw[i], true);
  for (int i = 0; rc == 0 && i < j->n_ro; i++) rc = hand_over(j, j->ro[i], false);
  if (rc < 0) {
    hg_log_error("shim.jail_failed", "step=files err=%d", rc);
    hg_jail_release(j);
    return rc;
  }
  cg_setup(j);
  hg_log_info("shim.jail", "uid=%u cgroups=%d exe=%s wrapper=%d", (unsigned)j->uid,
              j->n_cgroups, j->exe, j->wrapper);
  return 0;
}

void hg_jail_release(hg_jail *j) {
  cg_remove(j);
  if (j->lock_fd >= 0) close(j->lock_fd);
  j->lock_fd = -1;
}

/* -------------------------------------------------------------- enter */

static int mkdirs_in(const char *root, const char *path, mode_t mode) {
  char full[PATH_MAX];
  int rc = hg_path(full, sizeof full, "%s%s", root, path);
  return rc < 0 ? rc : hg_mkdir_p(full, mode);
}

/* A mount point in the jail for path: a dir, or an empty file; what a
 * bound dir already shows there will do. */
static int make_target(const char *root, const char *path, bool dir, char *out) {
  int rc = hg_path(out, PATH_MAX, "%s%s", root, path);
  if (rc < 0) return rc;
  struct stat st;
  if (lstat(out, &st) == 0) return 0;
  if (dir) return hg_mkdir_p(out, 0755);
  char parent[PATH_MAX];
  snprintf(parent, sizeof parent, "%s", out);
  *strrchr(parent, '/') = '\0';
  rc = hg_mkdir_p(parent, 0755);
  if (rc < 0) return rc;
  int fd = open(out, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return -errno;
  close(fd);
  return 0;
}

static int bind_in(const char *root, const char *path, bool ro, unsigned long flags) {
  struct stat st;
  char target[PATH_MAX];
  if (stat(path, &st) < 0) return -errno;
  int rc = make_target(root, path, S_ISDIR(st.st_mode), target);
  if (rc < 0) return rc;
  if (mount(path, target, NULL, MS_BIND, NULL) < 0) return -errno;
  flags |= MS_REMOUNT | MS_BIND | (ro ? MS_RDONLY : 0);
  if (mount(NULL, target, NULL, flags, NULL) < 0) return -errno;
  return 0;
}

/* A system path: a symlink is made again (merged /usr), else bound ro. */
static int system_in(const char *root, const char *path) {
  struct stat st;
  if (lstat(path, &st) < 0) return 0; /* not on this host */
  if (!S_ISLNK(st.st_mode)) return bind_in(root, path, true, MS_NOSUID | MS_NODEV);
  char link[PATH_MAX], target[PATH_MAX];
  ssize_t n = readlink(path, link, sizeof link - 1);
  if (n < 0) return -errno;
  link[n] = '\0';
  int rc = hg_path(target, sizeof target, "%s%s", root, path);
  if (rc == 0) {
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", target);
    *strrchr(parent, '/') = '\0';
    rc = hg_mkdir_p(parent, 0755);
  }
  if (rc == 0 && symlink(link, target) < 0 && errno != EEXIST) rc = -errno;
  return rc;
}

static int build_tree(const hg_jail *j, const char *root) {
  int rc = 0;
  const char *step = "tmpfs";
  if (mount("hangar-vmm", root, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
            "mode=0755,size=64k,nr_inodes=1024") < 0)
    rc = -errno;
  for (size_t i = 0; rc == 0 && i < HG_ARRAY_SIZE(system_paths); i++)
    if ((rc = system_in(root, system_paths[i])) < 0) step = system_paths[i];
  /* A wrapper script (#!) as the VMM, the operator's choice (HANGAR_QEMU):
   * it needs a shell and finds QEMU on PATH, so the host's binaries are
   * visible, read-only, nosuid (and no_new_privs holds anyway). */
  if (rc == 0 && j->wrapper) {
    static const char *const bins[] = {"/bin", "/usr/bin", "/usr/local/bin"};
    for (size_t i = 0; rc == 0 && i < HG_ARRAY_SIZE(bins); i++)
      if ((rc = system_in(root, bins[i])) < 0) step = bins[i];
  }
  /* The binary itself; exec needs it executable, so no MS_NOEXEC here. */
  if (rc == 0 && (rc = bind_in(root, j->exe, true, MS_NOSUID | MS_NODEV)) < 0)
    step = "exe";
  for (size_t i = 0; rc == 0 && i < HG_ARRAY_SIZE(dev_paths); i++)
    if ((rc = bind_in(root, dev_paths[i], false, MS_NOSUID | MS_NOEXEC)) < 0)
      step = dev_paths[i];
  if (rc == 0 &&
      (rc = bind_in(root, j->dir, false, MS_NOSUID | MS_NODEV | MS_NOEXEC)) < 0)
    step = "dir";
  for (int i = 0; rc == 0 && i < j->n_rw; i++) {
    if (under(j->rw[i], j->dir)) continue;
    bool dev = strncmp(j->rw[i], "/dev/", 5) == 0;
    rc = bind_in(root, j->rw[i], false, MS_NOSUID | MS_NOEXEC | (dev ? 0 : MS_NODEV));
    if (rc < 0) step = j->rw[i];
  }
  for (int i = 0; rc == 0 && i < j->n_ro; i++) {
    if (under(j->ro[i], j->dir)) continue;
    if ((rc = bind_in(root, j->ro[i], true, MS_NOSUID | MS_NODEV | MS_NOEXEC)) < 0)
      step = j->ro[i];
  }
  /* Only the VMM's own processes: other uids' are invisible (hidepid), and
   * nothing but the pids (subset=pid: no /proc/sys, no kcore). */
  if (rc == 0 && (rc = mkdirs_in(root, "/proc", 0555)) == 0) {
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/proc", root);
    if (mount("proc", p, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
              "hidepid=invisible,subset=pid") < 0)
      rc = -errno;
  }
  if (rc < 0 && !strcmp(step, "tmpfs")) step = "proc";
  if (rc < 0) hg_log_error("shim.jail_failed", "step=mount path=%s err=%d", step, rc);
  return rc;
}

int hg_jail_enter(const hg_jail *j) {
  const char *step = "cgroup";
  int rc = 0;
  for (int i = 0; rc == 0 && i < j->n_cgroups; i++) {
    char p[PATH_MAX];
    rc = hg_path(p, sizeof p, "%s/cgroup.procs", j->cgroups[i]);
    if (rc == 0) rc = write_text(p, "0");
  }
  if (rc == 0) {
    step = "namespace";
    if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
      rc = -errno;
  }
  const char *root = HG_JAIL_RUN_DIR;
  /* The tree's dirs must be reachable by the jail's uid (the shim's umask
   * is 077); what QEMU creates later keeps the shim's. */
  if (rc == 0) {
    mode_t mask = umask(022);
    rc = build_tree(j, root);
    umask(mask);
    if (rc < 0) return rc; /* build_tree logged it */
  }
  if (rc == 0) {
    step = "pivot_root";
    if (chdir(root) < 0 || syscall(SYS_pivot_root, ".", ".") < 0 ||
        umount2(".", MNT_DETACH) < 0 || chdir("/") < 0)
      rc = -errno;
  }
  if (rc == 0) {
    step = "readonly_root";
    if (mount(NULL, "/", NULL,
              MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
              NULL) < 0)
      rc = -errno;
  }
  if (rc == 0) {
    step = "credentials";
    if (setgroups((size_t)j->n_groups, j->groups) < 0 ||
        setresgid(j->uid, j->uid, j->uid) < 0 || setresuid(j->uid, j->uid, j->uid) < 0)
      rc = -errno;
  }
  if (rc == 0) {
    step = "no_new_privs";
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) rc = -errno;
  }
  if (rc < 0) hg_log_error("shim.jail_failed", "step=%s err=%d", step, rc);
  return rc;
}
