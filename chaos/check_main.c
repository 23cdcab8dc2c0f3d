/* chaos/check DIR: checks DIR/history.jsonl, writes DIR/report.json and
 * DIR/report.html. Exit status: 0 clean, 1 a violation, 2 cannot check. */
#include "checker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 2 || argv[1][0] == '-') {
    fprintf(stderr, "usage: chaos/check DIR   (DIR holds history.jsonl from chaos/run)\n");
    return 2;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/history.jsonl", argv[1]);
  json_t *events = NULL, *report = NULL;
  int rc = hg_chaos_load(path, &events);
  if (rc < 0) {
    fprintf(stderr, "chaos/check: cannot read %s: %s\n", path, strerror(-rc));
    return 2;
  }
  int n = hg_chaos_check(events, &report);
  if (n < 0) {
    fprintf(stderr, "chaos/check: %s\n", strerror(-n));
    return 2;
  }
  snprintf(path, sizeof path, "%s/wall.txt", argv[1]);
  FILE *w = fopen(path, "r");
  double wall;
  if (w && fscanf(w, "%lf", &wall) == 1) json_object_set_new(report, "wall_s", json_real(wall));
  if (w) fclose(w);
  /* the commands that run this again, from the run's own settings */
  snprintf(path, sizeof path, "%s/run.json", argv[1]);
  json_t *run = json_load_file(path, 0, NULL);
  if (run) {
    char cmd[1024], nem[256] = "";
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(run, "nemesis"), i, k) {
      size_t len = strlen(nem);
      snprintf(nem + len, sizeof nem - len, "%s%s", len ? "," : "", json_string_value(k));
    }
    snprintf(cmd, sizeof cmd, "chaos/run --seed %lld --nodes %lld --duration %lld --nemesis %s --sandboxes %lld",
             json_integer_value(json_object_get(run, "seed")), json_integer_value(json_object_get(run, "nodes")),
             json_integer_value(json_object_get(run, "duration")), nem,
             json_integer_value(json_object_get(run, "sandboxes")));
    json_object_set_new(report, "command", json_string(cmd));
    snprintf(cmd, sizeof cmd, "chaos/run --replay %s", argv[1]);
    json_object_set_new(report, "replay", json_string(cmd));
    json_decref(run);
  }
  snprintf(path, sizeof path, "%s/report.json", argv[1]);
  if (json_dump_file(report, path, JSON_INDENT(2)) < 0) {
    fprintf(stderr, "chaos/check: cannot write %s\n", path);
    return 2;
  }
  snprintf(path, sizeof path, "%s/report.html", argv[1]);
  if (hg_chaos_report_html(report, events, path) < 0) {
    fprintf(stderr, "chaos/check: cannot write %s\n", path);
    return 2;
  }
  char *f = json_dumps(json_object_get(report, "faults"), JSON_COMPACT);
  char *r = json_dumps(json_object_get(report, "requests"), JSON_COMPACT);
  printf("chaos/check %s: seed %lld, faults %s, requests %s, %d violation%s\n", argv[1],
         json_integer_value(json_object_get(report, "seed")), f ? f : "{}", r ? r : "{}", n,
         n == 1 ? "" : "s");
  free(f);
  free(r);
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(report, "violations"), i, v)
    printf("  VIOLATION %s: %s\n", json_string_value(json_object_get(v, "invariant")),
           json_string_value(json_object_get(v, "detail")));
  printf("  report: %s/report.html\n", argv[1]);
  /* A run in which nothing succeeded checked nothing: no invariant could
   * fail, so it must not pass (no template, a cluster that never served). */
  json_int_t ok = json_integer_value(json_object_get(json_object_get(report, "requests"), "ok"));
  if (ok == 0)
    fprintf(stderr, "chaos/check %s: no request succeeded, so nothing was checked (a "
            "template? see cluster.log and logs/)\n", argv[1]);
  json_decref(report);
  json_decref(events);
  return n > 0 ? 1 : ok == 0 ? 3 : 0;
}
