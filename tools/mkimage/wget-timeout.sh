#!/bin/sh
# /usr/bin/wget of the minimal profile (installed by tools/mkimage/mkimage.sh
# in place of the busybox applet link, only when the busybox lacks -T).
#
# Why: Debian's busybox-static (1:1.35.0-4+deb12u1) is built without
# FEATURE_WGET_TIMEOUT, yet wget's option string still reads "T:+" and hands
# getopt32 a NULL pointer for it, so `wget -T 5 URL` stores 5 at address 0
# and dies of SIGSEGV before any I/O (gdb: `mov %ecx,(%rax)`, rax=0,
# ecx=the -T value). -T is what scripts add so a dead network cannot hang
# them, so it is not dropped: this wrapper takes -T SEC / -TSEC /
# --timeout=SEC / --timeout SEC out of the arguments and bounds the whole
# run with busybox's `timeout` instead (stricter than a per-read timeout: a
# transfer still running after SEC seconds is cut). A timeout exits 4, as
# GNU wget does for a network failure. Every other argument passes through
# unchanged.
t=
n=$#
while [ "$n" -gt 0 ]; do
  a=$1
  shift
  n=$((n - 1))
  case $a in
    --)
      set -- "$@" "$a"
      while [ "$n" -gt 0 ]; do set -- "$@" "$1"; shift; n=$((n - 1)); done
      break ;;
    --timeout=*) t=${a#*=} ;;
    --timeout) t=${1-}; [ "$n" -gt 0 ] && { shift; n=$((n - 1)); } ;;
    --output-document|--output-file|--directory-prefix|--proxy|--user-agent|--tries|\
    --header|--post-data|--post-file)
      # their value is the next argument, whatever it looks like
      set -- "$@" "$a"
      [ "$n" -gt 0 ] && { set -- "$@" "$1"; shift; n=$((n - 1)); } ;;
    --*) set -- "$@" "$a" ;;
    -?*)
      # a cluster of short options: -qT5, -q -T 5, -O file, -Ofile
      keep= rest=${a#-}
      while [ -n "$rest" ]; do
        c=${rest%"${rest#?}"}
        rest=${rest#?}
        case $c in
          T)
            if [ -n "$rest" ]; then t=$rest
            elif [ "$n" -gt 0 ]; then t=$1; shift; n=$((n - 1))
            fi
            rest= ;;
          [OoPYUt])
            keep=$keep$c$rest
            if [ -z "$rest" ] && [ "$n" -gt 0 ]; then
              set -- "$@" "-$keep" "$1"; shift; n=$((n - 1)); keep=
            fi
            rest= ;;
          *) keep=$keep$c ;;
        esac
      done
      [ -n "$keep" ] && set -- "$@" "-$keep" ;;
    *) set -- "$@" "$a" ;;
  esac
done
[ -n "$t" ] || exec busybox wget "$@"
case $t in
  ''|*[!0-9]*) echo "wget: invalid number '$t'" >&2; exit 1 ;;
esac
[ "$t" -gt 0 ] || exec busybox wget "$@"  # -T 0: no timeout, as in GNU wget
timeout "$t" busybox wget "$@"
rc=$?
[ "$rc" -eq 143 ] || exit "$rc"
echo "wget: timed out after ${t}s" >&2
exit 4
