/* libFuzzer target: bytes from a hostile guest, through the frame reader and
 * then through every reply check the host client applies.
 * The first byte picks the feed size, so frames split across reads too. */
#include <stddef.h>
#include <stdint.h>

#include "node/agentcli.h"
#include "node/agentproto.h"

static const char *const ops[] = {"ping",      "exec", "wait", "status", "read",
                                  "file_read", "stat", "list", "stdin"};

static void check_all(const msgpack_object *m) {
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    (void)hg_agent_check_reply(ops[i], m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  size_t step = (size_t)(data[0] % 64) + 1;
  data++;
  size--;
  hg_frame_reader r;
  hg_frame_reader_init(&r);
  int rc = 0;
  for (size_t off = 0; off < size && rc >= 0; off += step) {
    size_t n = size - off < step ? size - off : step;
    rc = hg_frame_reader_feed(&r, data + off, n);
    msgpack_unpacked u;
    while (rc >= 0 && (rc = hg_frame_reader_next(&r, &u)) == 1) {
      check_all(&u.data);
      msgpack_unpacked_destroy(&u);
    }
  }
  hg_frame_reader_free(&r);
  return 0;
}
