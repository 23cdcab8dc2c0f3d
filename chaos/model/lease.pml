/* lease.pml: the per-sandbox lease protocol of cluster/lease.c (DESIGN §9,
 * after PaxosLease) for ONE sandbox S, checked by chaos/model/check.sh.
 *
 * Property: never two nodes running S at once. A VM runs from the moment
 * its node starts it under a valid lease until its fence takes effect;
 * the assertion sits where a VM starts, the only step that can add a
 * second runner (a VM only ever stops by itself).
 *
 * Nodes: 0, 1, 2 form S's first acceptor group G; node 3 is the spare that
 * the group change brings in: G' = {0, 1, 3} (node 2 dropped). Nodes 0 and
 * 1 also run a proposer each (P0, P1), on their node's clock.
 *
 * Time is relative, so the state space closes instead of running to a
 * horizon: a real tick moves every node's clock by 0, 1 or 2 (its offset
 * from real time stays in [0, D]), and every timer is kept as an age or a
 * time left, counted in its node's own ticks and saturated where the
 * protocol stops telling values apart:
 *   aage[a]  = now - last[S] at acceptor a (T+M+1: a claim may pass; also
 *              "never granted"),
 *   prage[p] = now - round_sent of p's round out (T-M: a quorum of it
 *              gives no lease time),
 *   pleft[p] = lease_until - now, the shim's deadline (0: passed).
 * Fencing: a VM whose deadline passed stops F real ticks later.
 *
 * Network: a proposer's requests are those of its round out and of the
 * round before (older ones are lost). A member acceptor may take either
 * any number of times (duplication), in any order with everything else
 * (reordering), or never (loss; a partition is loss on some links for a
 * while); the reply to the round out may be lost. See REQUEST below.
 *
 * Faults: acceptor crash-restart (promise kept, last[S] lost: the restart
 * rule), hangard crash-restart (the proposer's memory lost, the shim runs
 * the VM on to its deadline), clock drift, loss, duplication, reordering.
 *
 * Restrictions (subsets of the behaviours, for finding a break's trail
 * faster; a trail found under them is a trail of the full model):
 * NO_DRIFT, NO_CHANGE (no group change), NO_PCRASH, NO_ARESTART,
 * NEXT_EPOCH (a claim only one epoch above the claimant's).
 *
 * Deliberate breaks (check.sh requires a counterexample for each):
 *   BREAK_RENEW       acc_decide: a renewal is granted whatever the promise
 *                     (and the grant names the renewer as holder)
 *   BREAK_CLAIM_WAIT  acc_decide: a claim is accepted without waiting out
 *                     T + margin since last[S]
 *   BREAK_RESTART     hg_lease_acceptor_load: a restarted acceptor forgets
 *                     the restart rule (last[S] = never, not its start)
 *   BREAK_JOINT       hg_lease_quorum: a joint configuration counts with the
 *                     old group's majority only (so it commits on it)
 *   BREAK_SLACK       margin 1 instead of 2: 2 x margin no longer covers
 *                     the drift of two clocks plus the fencing latency
 *   BREAK_DRIFT       (extra, not run by check.sh: not yet caught within its budget)
 *   BREAK_FENCE       (extra, not run by check.sh: not yet caught within its budget)
 */

/* ---- constants ----------------------------------------------------------- */

#define T 5 /* lease, ticks */
#ifdef BREAK_SLACK
#define M 1
#else
#define M 2 /* margin */
#endif
#ifdef BREAK_DRIFT
#define D 2
#else
#define D 1 /* a clock's offset from real time stays in [0, D] */
#endif
#ifdef BREAK_FENCE
#define F 4
#else
#define F 2 /* fencing latency: real ticks from deadline to stopped VM */
#endif
#define R 1         /* renewal period T/3 (5/3 = 1), local ticks */
#define AGEMAX 8    /* T + M + 1 (at M = 2): a claim may pass */
#define LEASE (T - M)
#define MAXE 3      /* epochs 1..MAXE */

/* Configurations, ordered as hg_lease_conf_cmp orders one change. */
#define OLD 0   /* G = {0,1,2} */
#define JOINT 1 /* G and G' = {0,1,3} */
#define NEW 2   /* G' */

/* Membership and quorums (hg_lease_conf_has, hg_lease_quorum). */
#define MEMBER(c, a) ((c) == JOINT || ((c) == OLD && (a) != 3) || ((c) == NEW && (a) != 2))
#define MAJ_G(g) ((((g) & 1) + (((g) >> 1) & 1) + (((g) >> 2) & 1)) >= 2)
#define MAJ_G2(g) ((((g) & 1) + (((g) >> 1) & 1) + (((g) >> 3) & 1)) >= 2)
#ifdef BREAK_JOINT
#define QUORUM(c, g) (((c) == OLD && MAJ_G(g)) || ((c) == JOINT && MAJ_G(g)) || \
                      ((c) == NEW && MAJ_G2(g)))
#else
#define QUORUM(c, g) (((c) == OLD && MAJ_G(g)) || ((c) == JOINT && MAJ_G(g) && MAJ_G2(g)) || \
                      ((c) == NEW && MAJ_G2(g)))
#endif

/* Request kinds */
#define RENEW 0
#define CLAIM 1

/* Proposer states (hg_lease_state; LOST and "no entry" are one: both
 * ignore replies and may claim again) */
#define IDLE 0
#define CLAIMING 1
#define HELD 2

/* ---- state --------------------------------------------------------------- */

byte off[4]; /* each node's clock minus real time, 0..D */

/* acceptors: the promise (persisted) and last[S] as an age (volatile) */
byte aep[4];   /* promised epoch, 0: no entry */
byte ahold[4]; /* 1 + proposer, 0: none */
byte acf[4];   /* configuration */
byte aage[4];

/* proposers (hangard's memory) */
byte pst[2];
byte pep[2];   /* epoch claimed or held */
byte pcf[2];   /* highest configuration known */
byte prage[2];
byte pgr[2];   /* acceptors that granted the round out, a bit each */
/* the shim's (survives hangard) */
byte pleft[2];
bool prun[2];
byte pfc[2];   /* real ticks since the deadline passed, while running */

/* the network: the requests of a proposer's round out and of the one
 * before it (kind | conf << 1; the epoch is pep, or pve for the one
 * before); an older round's requests are lost. */
byte pcr[2];   /* the round out: kind | conf << 1 */
byte pve[2];   /* its epoch */
byte pvr[2];   /* the round before: 1 | kind << 1 | conf << 2 | epoch << 4, 0: none */

/* scratch of the atomic steps, 0 between them */
byte t_kind, t_ep, t_cf, t_acf, t_ok, t_max, t_adv, t_pe, t_ph, t_pc;
byte t_raised;

/* ---- proposer ------------------------------------------------------------ */

/* start_round: a new round, one request to every member of the highest
 * configuration known (acceptors take it from pcr, see REQUEST). */
inline start_round(p) {
  if
  :: pve[p] > 0 -> /* the round out becomes the one before */
     pvr[p] = 1 | ((pcr[p] & 1) << 1) | ((pcr[p] >> 1) << 2) | (pve[p] << 4)
  :: else -> skip
  fi;
  pve[p] = pep[p];
  pcr[p] = (pst[p] == CLAIMING) | (pcf[p] << 1);
  prage[p] = 0;
  pgr[p] = 0
}

/* count_grant */
inline count_grant(p, a) {
  pgr[p] = pgr[p] | (1 << a);
  if
  :: QUORUM(pcf[p], pgr[p]) ->
     if
     :: LEASE > prage[p] && LEASE - prage[p] > pleft[p] -> pleft[p] = LEASE - prage[p]
     :: else -> skip
     fi;
     /* a joint round that reached a joint quorum commits the change */
     if ::  pcf[p] == JOINT && (pcr[p] >> 1) == JOINT -> pcf[p] = NEW :: else -> skip fi;
     pst[p] = HELD;
     /* the VM runs (starts, or continues) under a valid lease */
     if
     :: pleft[p] > 0 && !prun[p] ->
        assert(!prun[1 - p]);
        prun[p] = 1; pfc[p] = 0
     :: else -> skip
     fi
  :: else -> skip
  fi
}

/* hg_lease_proposer_reply for acceptor a's reply to p's round out (cur)
 * or to the one before; the reply is in t_ok and the promise t_pe, t_ph,
 * t_pc. */
inline reply(p, a, cur) {
  if
  :: pst[p] == IDLE -> skip
  :: pst[p] != IDLE && t_ph != p + 1 && t_pe > pep[p] ->
     /* another node was promised a newer epoch: LOST */
     pst[p] = IDLE; pcr[p] = 0; pvr[p] = 0; pve[p] = 0; prage[p] = 0; pgr[p] = 0
  :: else ->
     t_raised = (t_pc > pcf[p]);
     if :: t_raised -> pcf[p] = t_pc :: else -> skip fi;
     if :: cur && t_ok -> count_grant(p, a) :: else -> skip fi;
     if :: t_raised -> start_round(p) :: else -> skip fi
  fi
}

/* ---- acceptor ------------------------------------------------------------ */

/* acc_decide + hg_lease_acceptor_handle: acceptor a takes a request
 * (kind t_kind, epoch t_ep, conf t_cf) from p; the promise is persisted
 * with the answer (one atomic step), left in t_ok, t_pe, t_ph, t_pc. */
inline request(a, p) {
  t_ok = 0;
  if :: aep[a] == 0 -> t_acf = t_cf :: else -> t_acf = acf[a] fi; /* a blank entry */
  if :: t_cf > t_acf -> t_max = t_cf :: else -> t_max = t_acf fi;
  if
  :: !MEMBER(t_max, a) -> skip /* REMOVED */
  :: else ->
     if
     :: aep[a] == t_ep && ahold[a] == p + 1 -> t_ok = 1 /* the holder */
#ifdef BREAK_RENEW
     :: t_kind == RENEW && !(aep[a] == t_ep && ahold[a] == p + 1) ->
        aep[a] = t_ep; ahold[a] = p + 1; t_ok = 1
     :: t_kind != RENEW && !(aep[a] == t_ep && ahold[a] == p + 1) ->
#else
     :: else ->
#endif
        if
        :: t_ep <= aep[a] -> skip /* STALE */
#ifndef BREAK_CLAIM_WAIT
        /* the node promised may claim higher at once: what a granted
         * within T + M went to it alone */
        :: t_ep > aep[a] && aage[a] <= T + M && !(aep[a] > 0 && ahold[a] == p + 1) ->
           skip /* WAIT */
        :: t_ep > aep[a] && (aage[a] > T + M || (aep[a] > 0 && ahold[a] == p + 1)) ->
#else
        :: t_ep > aep[a] ->
#endif
           aep[a] = t_ep; ahold[a] = p + 1; t_ok = 1
        fi
     fi;
     if
     :: t_ok -> aage[a] = 0; if :: t_cf > t_acf -> acf[a] = t_cf :: else -> acf[a] = t_acf fi
     :: else -> skip
     fi
  fi;
  t_pe = aep[a]; t_ph = ahold[a];
  if :: aep[a] == 0 -> t_pc = t_cf :: else -> t_pc = acf[a] fi
}

inline clear_t() {
  t_kind = 0; t_ep = 0; t_cf = 0; t_acf = 0; t_ok = 0; t_max = 0;
  t_pe = 0; t_ph = 0; t_pc = 0; t_raised = 0
}

/* ---- time ---------------------------------------------------------------- */

/* Node i's clock moved by adv during one real tick. */
inline age_node(i, adv) {
  t_adv = adv;
  if
  :: i < 4 && aep[i] > 0 -> if :: aage[i] + t_adv >= AGEMAX -> aage[i] = AGEMAX :: else -> aage[i] = aage[i] + t_adv fi
  :: else -> skip
  fi;
  if
  :: i < 2 ->
     if :: prage[i] + t_adv >= LEASE -> prage[i] = LEASE :: else -> prage[i] = prage[i] + t_adv fi;
     if :: pst[i] == IDLE -> prage[i] = 0 :: else -> skip fi;
     if :: pleft[i] <= t_adv -> pleft[i] = 0 :: else -> pleft[i] = pleft[i] - t_adv fi;
     /* the shim: the VM stops F real ticks after its deadline */
     if
     :: prun[i] && pleft[i] == 0 && pfc[i] >= F -> prun[i] = 0; pfc[i] = 0
     :: prun[i] && pleft[i] == 0 && pfc[i] < F -> pfc[i]++
     :: else -> pfc[i] = 0
     fi
  :: else -> skip
  fi;
  t_adv = 0
}

/* One real tick. Every clock moves by 1, except that one node's clock may
 * move by 0 or 2 instead (its offset from real time staying in [0, D]):
 * over any interval, a clock is off by at most D. One clock jumps per
 * tick, not several: a jump of two clocks is two ticks' worth of it. */
#define TICK(j, d) \
  :: d_step { off[j] + d >= 0 && off[j] + d <= D -> \
       off[j] = off[j] + d; \
       age_node(0, 1 + (j == 0) * d); age_node(1, 1 + (j == 1) * d); \
       age_node(2, 1 + (j == 2) * d); age_node(3, 1 + (j == 3) * d) }
#ifdef NO_DRIFT
#define TICKS \
  :: d_step { age_node(0, 1); age_node(1, 1); age_node(2, 1); age_node(3, 1) }
#else
#define TICKS \
  :: d_step { age_node(0, 1); age_node(1, 1); age_node(2, 1); age_node(3, 1) } \
  TICK(0, -1) TICK(0, 1) TICK(1, -1) TICK(1, 1) \
  TICK(2, -1) TICK(2, 1) TICK(3, -1) TICK(3, 1)
#endif

/* ---- the world ----------------------------------------------------------- */

/* The network. Acceptor a takes p's request of the round out, if a is
 * a member of the configuration that round was sent to: the reply comes
 * back, or is lost. Or a takes the round before's request, late (its
 * reply only tells p what the acceptor promised). Each may happen any
 * number of times (duplication) or never (loss), in any order
 * (reordering). A reply is taken as soon as it is sent: taking it later
 * only shortens the VM's run; what a delayed or duplicated reply can do
 * besides, a late request's reply does. */
#define REQUEST(a, p) \
  :: d_step { pst[p] != IDLE && MEMBER(pcr[p] >> 1, a) -> \
       t_kind = pcr[p] & 1; t_ep = pep[p]; t_cf = pcr[p] >> 1; \
       request(a, p); reply(p, a, 1); clear_t() } \
  :: d_step { pst[p] != IDLE && MEMBER(pcr[p] >> 1, a) -> \
       t_kind = pcr[p] & 1; t_ep = pep[p]; t_cf = pcr[p] >> 1; \
       request(a, p); clear_t() } \
  :: d_step { pvr[p] != 0 && MEMBER((pvr[p] >> 2) & 3, a) -> \
       t_kind = (pvr[p] >> 1) & 1; t_ep = pvr[p] >> 4; t_cf = (pvr[p] >> 2) & 3; \
       request(a, p); reply(p, a, 0); clear_t() }
#define REQUESTS(a) REQUEST(a, 0) REQUEST(a, 1)

/* A claim (hg_lease_claim) at an epoch above the proposer's; any such
 * epoch, since a claimant also goes by what the directory says. */
#ifdef NEXT_EPOCH
#define ABOVE(p, e) (pep[p] + 1 == e)
#else
#define ABOVE(p, e) (pep[p] < e)
#endif
#define CLAIM_AT(p, e) \
  :: d_step { pst[p] != HELD && ABOVE(p, e) -> pst[p] = CLAIMING; pep[p] = e; start_round(p) }

#ifdef NO_CHANGE
#define CHANGE(p)
#else
/* hg_lease_change_group: G -> G' by joint consensus */
#define CHANGE(p) :: d_step { pst[p] == HELD && pcf[p] == OLD -> pcf[p] = JOINT; start_round(p) }
#endif
#ifdef NO_PCRASH
#define PCRASH(p)
#else
/* hangard crashes and restarts: its memory is gone, the shim runs on */
#define PCRASH(p) \
  :: d_step { pst[p] != IDLE || pcf[p] != OLD -> \
       pst[p] = IDLE; pep[p] = 0; pcf[p] = OLD; pcr[p] = 0; pvr[p] = 0; pve[p] = 0; prage[p] = 0; pgr[p] = 0 }
#endif

#define PROPOSER(p) \
  CLAIM_AT(p, 1) CLAIM_AT(p, 2) CLAIM_AT(p, 3) \
  /* renewal every T/3, or a claim's retry (hg_lease_proposer_tick) */ \
  :: d_step { pst[p] != IDLE && prage[p] >= R -> start_round(p) } \
  CHANGE(p) PCRASH(p)

/* An acceptor crashes and restarts: its promise was persisted, last[S]
 * was not; the restart rule counts it as granted at the restart. */
#ifdef NO_ARESTART
#define RESTART(a)
#elif defined(BREAK_RESTART)
#define RESTART(a) :: d_step { aep[a] > 0 && aage[a] != AGEMAX -> aage[a] = AGEMAX }
#else
#define RESTART(a) :: d_step { aep[a] > 0 && aage[a] != 0 -> aage[a] = 0 }
#endif

active proctype world() {
  d_step { aage[0] = AGEMAX; aage[1] = AGEMAX; aage[2] = AGEMAX; aage[3] = AGEMAX };
  do
  TICKS
  PROPOSER(0)
  PROPOSER(1)
  RESTART(0) RESTART(1) RESTART(2) RESTART(3)
  REQUESTS(0) REQUESTS(1) REQUESTS(2) REQUESTS(3)
  od
}
