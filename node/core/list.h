/* list: intrusive doubly-linked lists, written once.
 *
 * The element carries its own `prev` and `next` pointers and the list is a
 * plain pointer to its first element (NULL when empty), with an optional
 * pointer to its last for lists used as queues. Nothing is allocated: an
 * element can be unlinked in O(1) from inside a callback that holds only
 * the element, which is why the loop-driven modules keep their connections,
 * transfers and calls this way. The macros evaluate their arguments more
 * than once: pass plain lvalues. */
#ifndef HG_CORE_LIST_H
#define HG_CORE_LIST_H

#include <stddef.h>

/* Puts e first in the list at head. */
#define HG_LIST_PUSH(head, e)                                                  \
  do {                                                                         \
    (e)->prev = NULL;                                                          \
    (e)->next = (head);                                                        \
    if (head) (head)->prev = (e);                                              \
    (head) = (e);                                                              \
  } while (0)

/* Takes e out of the list at head. e's own pointers are left as they were,
 * so a walk that saved neither may still step past it. */
#define HG_LIST_UNLINK(head, e)                                                \
  do {                                                                         \
    if ((e)->prev)                                                             \
      (e)->prev->next = (e)->next;                                             \
    else                                                                       \
      (head) = (e)->next;                                                      \
    if ((e)->next) (e)->next->prev = (e)->prev;                                \
  } while (0)

/* The same for a list that also keeps its last element in tail. */
#define HG_LIST_APPEND2(head, tail, e)                                         \
  do {                                                                         \
    (e)->next = NULL;                                                          \
    (e)->prev = (tail);                                                        \
    if (tail)                                                                  \
      (tail)->next = (e);                                                      \
    else                                                                       \
      (head) = (e);                                                            \
    (tail) = (e);                                                              \
  } while (0)

#define HG_LIST_PUSH2(head, tail, e)                                           \
  do {                                                                         \
    HG_LIST_PUSH(head, e);                                                     \
    if (!(tail)) (tail) = (e);                                                 \
  } while (0)

#define HG_LIST_UNLINK2(head, tail, e)                                         \
  do {                                                                         \
    if ((e)->prev)                                                             \
      (e)->prev->next = (e)->next;                                             \
    else                                                                       \
      (head) = (e)->next;                                                      \
    if ((e)->next)                                                             \
      (e)->next->prev = (e)->prev;                                             \
    else                                                                       \
      (tail) = (e)->prev;                                                      \
  } while (0)

#endif
