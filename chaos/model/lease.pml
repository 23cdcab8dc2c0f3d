/* lease.pml: ownership of one sandbox S by majority leases (DESIGN §9),
 * in the manner of PaxosLease. Checked by chaos/model/check.sh with spin.
 *
 * Property: never two nodes running S's VM at the same instant: asserted
 * where a VM starts, the only step that can make it false.
 *
 * What is modelled:
 * - 3 acceptors (S's group) and 2 candidates for ownership (nodes 0, 1).
 * - Renew: an acceptor grants (e, p) iff its promise is exactly (e, p), and
 *   sets last = now. Claim: it accepts e' iff e' is above its promise and
 *   it measures more than T + MARGIN since last; it then promises (e', p)
 *   and sets last = now. Promises survive a crash (fsynced before the
 *   answer); on restart last = now (the restart rule).
 * - A candidate's lease, won by a majority for a round sent at ts, ends at
 *   ts + T - MARGIN on its own clock; it runs the VM only inside a lease,
 *   and the shim stops the VM at most FENCE ticks after the lease ends.
 * - Clocks: each node's clock may disagree with real time by up to DRIFT
 *   ticks over one lease period (a candidate's lease may end DRIFT late, an
 *   acceptor may think DRIFT more has passed).
 * - The network: messages are delayed arbitrarily (they wait in channels
 *   while time passes; one still waiting at MAXT was lost), dropped when a
 *   channel is full, duplicated (a copy is left behind), and reordered
 *   (random receive). A partition is loss in one direction or both.
 *
 * Not modelled yet: group changes by joint consensus (the acceptors are a
 * fixed group here); see check.sh for the variants that must fail.
 *
 * Deliberate breaks (-D…) that check.sh requires to produce a
 * counterexample, each dropping one rule the safety argument needs:
 *   BREAK_RENEW      renew granted whatever the promise
 *   BREAK_CLAIM_WAIT claim accepted without waiting out the last grant
 *   BREAK_RESTART    an acceptor restarts with last forgotten (no rule)
 *   BREAK_SLACK      clocks disagree by more than the margin can absorb
 */

#define NACC 3
#define NCAND 2
#define MAJ 2
#define T 4
#define MARGIN 2
#ifdef BREAK_SLACK
#define DRIFT 3
#else
#define DRIFT 1
#endif
#define FENCE 1
#define MAXT 10 /* real time runs 0..MAXT: five lease lengths */
#define MAXE 3  /* epochs 1..MAXE */
#define NONE 255

mtype = { CLAIM, RENEW };

byte now = 0;

/* acceptor state: promise (persisted), last (volatile, local clock) */
byte prom_e[NACC];
byte prom_h[NACC];
short last[NACC];

/* candidate state */
byte epoch[NCAND];     /* the epoch it owns, 0: none */
short lease_end[NCAND];/* real time its lease ends at, as its clock runs */
bool running[NCAND];   /* its VM runs */
short fence_by[NCAND]; /* the shim stops the VM no later than this */

/* requests to acceptor i: kind, candidate, epoch, round */
chan req[NACC] = [1] of { mtype, byte, byte, byte };
/* replies to candidate p: acceptor, round, granted, promised epoch */
chan rep[NCAND] = [1] of { byte, byte, bool, byte };

/* Real time advances; a VM past its fence deadline must have been stopped
 * first (the shim's bound, DESIGN §9: within 50 ms of the deadline). */
active proctype Tick() {
  do
  :: now < MAXT &&
     (!running[0] || now < fence_by[0]) &&
     (!running[1] || now < fence_by[1]) -> now++
  :: now >= MAXT -> break
  od
}

/* The shim: once the lease has ended it may stop the VM any time up to
 * FENCE later (Tick forces it by then). */
active [NCAND] proctype Fence() {
  byte p = _pid - 1;
  do
  :: atomic { running[p] && now >= lease_end[p] -> running[p] = false }
  :: atomic { now >= MAXT -> break }
  od
}

proctype Acceptor(byte i) {
  mtype kind;
  byte p, e, r;
  byte d;
end:
  do
  :: atomic {
       /* receive any message (reordering); sometimes keep a copy (duplication) */
       if
       :: req[i]??kind, p, e, r
       :: req[i]??<kind, p, e, r>
       fi;
       if
       :: kind == RENEW ->
#ifdef BREAK_RENEW
          if :: true ->
#else
          if :: prom_e[i] == e && prom_h[i] == p ->
#endif
               last[i] = now;
               if :: nfull(rep[p]) -> rep[p]!i, r, true, prom_e[i] :: else fi
          :: else -> if :: nfull(rep[p]) -> rep[p]!i, r, false, prom_e[i] :: else fi
          fi
       :: kind == CLAIM ->
#ifdef BREAK_CLAIM_WAIT
          if :: e > prom_e[i] ->
#else
          /* its clock may run ahead of real time by up to DRIFT */
          if :: d = 0 :: d = DRIFT fi;
          if :: e > prom_e[i] && now - last[i] + d > T + MARGIN ->
#endif
               prom_e[i] = e; prom_h[i] = p; last[i] = now;
               if :: nfull(rep[p]) -> rep[p]!i, r, true, e :: else fi
          :: else -> if :: nfull(rep[p]) -> rep[p]!i, r, false, prom_e[i] :: else fi
          fi
       fi;
       kind = 0; p = 0; e = 0; r = 0; d = 0 /* dead locals out of the state */
     }
  :: atomic {
       /* crash and restart: the promise was fsynced, last is unknown */
       now < MAXT ->
#ifdef BREAK_RESTART
       last[i] = -T - MARGIN - DRIFT - 1
#else
       last[i] = now
#endif
     }
  od
}

proctype Candidate(byte p) {
  /* a round is named by its send time: at most one round per tick keeps
   * the state space finite without losing any behaviour that matters
   * (two rounds in one tick grant the same lease) */
  short round = -1;
  byte want = 0, acc, r, seen;
  bool ok, is_claim;
  byte granted;  /* bitmask of acceptors that granted the current round */
  byte i;
end:
  do
  :: atomic {
       /* claim S at an epoch above any it knows of, when it owns nothing */
       epoch[p] == 0 && !running[p] && want < MAXE && now < MAXT && round != now ->
       want++; round = now; granted = 0; is_claim = true;
       for (i : 0 .. NACC - 1) {
         if :: nfull(req[i]) -> req[i]!CLAIM, p, want, round :: else fi
       }
       i = 0
     }
  :: atomic {
       /* renew (every T/3 in the code; any time here) */
       epoch[p] != 0 && now < MAXT && round != now ->
       round = now; granted = 0; is_claim = false;
       for (i : 0 .. NACC - 1) {
         if :: nfull(req[i]) -> req[i]!RENEW, p, epoch[p], round :: else fi
       }
       i = 0
     }
  :: atomic {
       rep[p]?acc, r, ok, seen ->
       if :: seen > want && seen < MAXE -> want = seen :: else fi
       if
       :: r == round && ok ->
          granted = granted | (1 << acc);
          if
          :: (granted & 1) + ((granted >> 1) & 1) + ((granted >> 2) & 1) >= MAJ &&
             (is_claim || epoch[p] != 0) ->
             if :: is_claim -> epoch[p] = want :: else fi;
             /* its clock may run slow: the lease may end up to DRIFT late */
             if :: lease_end[p] = round + T - MARGIN :: lease_end[p] = round + T - MARGIN + DRIFT fi;
             if
             :: now < lease_end[p] ->
                assert(!running[1 - p]); /* the property: never two at once */
                running[p] = true; fence_by[p] = lease_end[p] + FENCE
             :: else
             fi;
             granted = 0 /* counted once */
          :: else
          fi
       :: else
       fi;
       acc = 0; r = 0; ok = false; seen = 0 /* dead locals out of the state */
     }
  :: atomic {
       /* it gives up on S (saw a higher epoch, or crashed): its VM stays
        * fenced by the shim's deadline, never started again */
       epoch[p] != 0 -> epoch[p] = 0
     }
  :: atomic { now >= MAXT -> break }
  od
}

init {
  byte i;
  atomic {
    for (i : 0 .. NACC - 1) {
      prom_e[i] = 0; prom_h[i] = NONE; last[i] = -T - MARGIN - DRIFT - 1;
      run Acceptor(i)
    }
    for (i : 0 .. NCAND - 1) { lease_end[i] = -1; run Candidate(i) }
  }
}
