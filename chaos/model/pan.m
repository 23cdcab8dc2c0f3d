#define rand	pan_rand
#define pthread_equal(a,b)	((a)==(b))
#if defined(HAS_CODE) && defined(VERBOSE)
	#ifdef BFS_PAR
		bfs_printf("Pr: %d Tr: %d\n", II, t->forw);
	#else
		cpu_printf("Pr: %d Tr: %d\n", II, t->forw);
	#endif
#endif
	switch (t->forw) {
	default: Uerror("bad forward move");
	case 0:	/* if without executable clauses */
		continue;
	case 1: /* generic 'goto' or 'skip' */
		IfNotBlocked
		_m = 3; goto P999;
	case 2: /* generic 'else' */
		IfNotBlocked
		if (trpt->o_pm&1) continue;
		_m = 3; goto P999;

		 /* PROC world */
	case 3: // STATE 5 - lease.pml:313 - [D_STEP313]
		IfNotBlocked

		reached[0][5] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_000_0: /* 2 */
		now.aage[0] = 8;
#ifdef VAR_RANGES
		logval("aage[0]", ((int)now.aage[0]));
#endif
		;
S_001_0: /* 2 */
		now.aage[1] = 8;
#ifdef VAR_RANGES
		logval("aage[1]", ((int)now.aage[1]));
#endif
		;
S_002_0: /* 2 */
		now.aage[2] = 8;
#ifdef VAR_RANGES
		logval("aage[2]", ((int)now.aage[2]));
#endif
		;
S_003_0: /* 2 */
		now.aage[3] = 8;
#ifdef VAR_RANGES
		logval("aage[3]", ((int)now.aage[3]));
#endif
		;
		goto S_6156_0;
S_6156_0: /* 1 */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 4: // STATE 6 - lease.pml:268 - [((off[0]>0))] (23:0:1 - 1)
		IfNotBlocked
		reached[0][6] = 1;
		if (!((((int)now.off[0])>0)))
			continue;
		/* merge: n0 = (off[0]-1)(0, 7, 23) */
		reached[0][7] = 1;
		(trpt+1)->bup.oval = ((int)now.n0);
		now.n0 = (((int)now.off[0])-1);
#ifdef VAR_RANGES
		logval("n0", ((int)now.n0));
#endif
		;
		/* merge: .(goto)(0, 13, 23) */
		reached[0][13] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 5: // STATE 8 - lease.pml:269 - [(1)] (23:0:1 - 1)
		IfNotBlocked
		reached[0][8] = 1;
		if (!(1))
			continue;
		/* merge: n0 = off[0](0, 9, 23) */
		reached[0][9] = 1;
		(trpt+1)->bup.oval = ((int)now.n0);
		now.n0 = ((int)now.off[0]);
#ifdef VAR_RANGES
		logval("n0", ((int)now.n0));
#endif
		;
		/* merge: .(goto)(0, 13, 23) */
		reached[0][13] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 6: // STATE 10 - lease.pml:270 - [((off[0]<1))] (23:0:1 - 1)
		IfNotBlocked
		reached[0][10] = 1;
		if (!((((int)now.off[0])<1)))
			continue;
		/* merge: n0 = (off[0]+1)(0, 11, 23) */
		reached[0][11] = 1;
		(trpt+1)->bup.oval = ((int)now.n0);
		now.n0 = (((int)now.off[0])+1);
#ifdef VAR_RANGES
		logval("n0", ((int)now.n0));
#endif
		;
		/* merge: .(goto)(0, 13, 23) */
		reached[0][13] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 7: // STATE 15 - lease.pml:268 - [((off[1]>0))] (32:0:1 - 1)
		IfNotBlocked
		reached[0][15] = 1;
		if (!((((int)now.off[1])>0)))
			continue;
		/* merge: n1 = (off[1]-1)(0, 16, 32) */
		reached[0][16] = 1;
		(trpt+1)->bup.oval = ((int)now.n1);
		now.n1 = (((int)now.off[1])-1);
#ifdef VAR_RANGES
		logval("n1", ((int)now.n1));
#endif
		;
		/* merge: .(goto)(0, 22, 32) */
		reached[0][22] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 8: // STATE 17 - lease.pml:269 - [(1)] (32:0:1 - 1)
		IfNotBlocked
		reached[0][17] = 1;
		if (!(1))
			continue;
		/* merge: n1 = off[1](0, 18, 32) */
		reached[0][18] = 1;
		(trpt+1)->bup.oval = ((int)now.n1);
		now.n1 = ((int)now.off[1]);
#ifdef VAR_RANGES
		logval("n1", ((int)now.n1));
#endif
		;
		/* merge: .(goto)(0, 22, 32) */
		reached[0][22] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 9: // STATE 19 - lease.pml:270 - [((off[1]<1))] (32:0:1 - 1)
		IfNotBlocked
		reached[0][19] = 1;
		if (!((((int)now.off[1])<1)))
			continue;
		/* merge: n1 = (off[1]+1)(0, 20, 32) */
		reached[0][20] = 1;
		(trpt+1)->bup.oval = ((int)now.n1);
		now.n1 = (((int)now.off[1])+1);
#ifdef VAR_RANGES
		logval("n1", ((int)now.n1));
#endif
		;
		/* merge: .(goto)(0, 22, 32) */
		reached[0][22] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 10: // STATE 24 - lease.pml:268 - [((off[2]>0))] (41:0:1 - 1)
		IfNotBlocked
		reached[0][24] = 1;
		if (!((((int)now.off[2])>0)))
			continue;
		/* merge: n2 = (off[2]-1)(0, 25, 41) */
		reached[0][25] = 1;
		(trpt+1)->bup.oval = ((int)now.n2);
		now.n2 = (((int)now.off[2])-1);
#ifdef VAR_RANGES
		logval("n2", ((int)now.n2));
#endif
		;
		/* merge: .(goto)(0, 31, 41) */
		reached[0][31] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 11: // STATE 26 - lease.pml:269 - [(1)] (41:0:1 - 1)
		IfNotBlocked
		reached[0][26] = 1;
		if (!(1))
			continue;
		/* merge: n2 = off[2](0, 27, 41) */
		reached[0][27] = 1;
		(trpt+1)->bup.oval = ((int)now.n2);
		now.n2 = ((int)now.off[2]);
#ifdef VAR_RANGES
		logval("n2", ((int)now.n2));
#endif
		;
		/* merge: .(goto)(0, 31, 41) */
		reached[0][31] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 12: // STATE 28 - lease.pml:270 - [((off[2]<1))] (41:0:1 - 1)
		IfNotBlocked
		reached[0][28] = 1;
		if (!((((int)now.off[2])<1)))
			continue;
		/* merge: n2 = (off[2]+1)(0, 29, 41) */
		reached[0][29] = 1;
		(trpt+1)->bup.oval = ((int)now.n2);
		now.n2 = (((int)now.off[2])+1);
#ifdef VAR_RANGES
		logval("n2", ((int)now.n2));
#endif
		;
		/* merge: .(goto)(0, 31, 41) */
		reached[0][31] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 13: // STATE 33 - lease.pml:268 - [((off[3]>0))] (234:0:1 - 1)
		IfNotBlocked
		reached[0][33] = 1;
		if (!((((int)now.off[3])>0)))
			continue;
		/* merge: n3 = (off[3]-1)(234, 34, 234) */
		reached[0][34] = 1;
		(trpt+1)->bup.oval = ((int)now.n3);
		now.n3 = (((int)now.off[3])-1);
#ifdef VAR_RANGES
		logval("n3", ((int)now.n3));
#endif
		;
		/* merge: .(goto)(234, 40, 234) */
		reached[0][40] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 14: // STATE 40 - lease.pml:272 - [.(goto)] (0:234:0 - 3)
		IfNotBlocked
		reached[0][40] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 15: // STATE 35 - lease.pml:269 - [(1)] (234:0:1 - 1)
		IfNotBlocked
		reached[0][35] = 1;
		if (!(1))
			continue;
		/* merge: n3 = off[3](234, 36, 234) */
		reached[0][36] = 1;
		(trpt+1)->bup.oval = ((int)now.n3);
		now.n3 = ((int)now.off[3]);
#ifdef VAR_RANGES
		logval("n3", ((int)now.n3));
#endif
		;
		/* merge: .(goto)(234, 40, 234) */
		reached[0][40] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 16: // STATE 37 - lease.pml:270 - [((off[3]<1))] (234:0:1 - 1)
		IfNotBlocked
		reached[0][37] = 1;
		if (!((((int)now.off[3])<1)))
			continue;
		/* merge: n3 = (off[3]+1)(234, 38, 234) */
		reached[0][38] = 1;
		(trpt+1)->bup.oval = ((int)now.n3);
		now.n3 = (((int)now.off[3])+1);
#ifdef VAR_RANGES
		logval("n3", ((int)now.n3));
#endif
		;
		/* merge: .(goto)(234, 40, 234) */
		reached[0][40] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 17: // STATE 234 - lease.pml:317 - [D_STEP317]
		IfNotBlocked

		reached[0][234] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;


		reached[0][234] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		sv_save();
		S_087_0: /* 2 */
S_041_0: /* 2 */
		t_adv = ((1+((int)now.n0))-((int)now.off[0]));
#ifdef VAR_RANGES
		logval("t_adv", ((int)t_adv));
#endif
		;
S_042_0: /* 2 */
		now.off[0] = ((int)now.n0);
#ifdef VAR_RANGES
		logval("off[0]", ((int)now.off[0]));
#endif
		;
S_052_0: /* 2 */
S_043_0: /* 2 */
		if (!(((0<4)&&(((int)now.aep[0])>0))))
			goto S_052_1;
S_048_0: /* 2 */
S_044_0: /* 2 */
		if (!(((((int)now.aage[0])+((int)t_adv))>=8)))
			goto S_048_1;
S_045_0: /* 2 */
		now.aage[0] = 8;
#ifdef VAR_RANGES
		logval("aage[0]", ((int)now.aage[0]));
#endif
		;
		goto S_049_0;
S_048_1: /* 3 */
S_046_0: /* 2 */
		/* else */;
S_047_0: /* 2 */
		now.aage[0] = (((int)now.aage[0])+((int)t_adv));
#ifdef VAR_RANGES
		logval("aage[0]", ((int)now.aage[0]));
#endif
		;
		goto S_049_0;
S_048_2: /* 3 */
		Uerror("blocking sel in d_step (nr.0, near line 247)");
S_049_0: /* 2 */
		goto S_053_0;
S_052_1: /* 3 */
S_050_0: /* 2 */
		/* else */;
S_051_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_053_0;
S_052_2: /* 3 */
		Uerror("blocking sel in d_step (nr.1, near line 246)");
S_053_0: /* 2 */
S_084_0: /* 2 */
S_054_0: /* 2 */
		if (!((0<2)))
			goto S_084_1;
S_059_0: /* 2 */
S_055_0: /* 2 */
		if (!(((((int)now.prage[0])+((int)t_adv))>=(5-2))))
			goto S_059_1;
S_056_0: /* 2 */
		now.prage[0] = (5-2);
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
		goto S_060_0;
S_059_1: /* 3 */
S_057_0: /* 2 */
		/* else */;
S_058_0: /* 2 */
		now.prage[0] = (((int)now.prage[0])+((int)t_adv));
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
		goto S_060_0;
S_059_2: /* 3 */
		Uerror("blocking sel in d_step (nr.2, near line 252)");
S_060_0: /* 2 */
S_065_0: /* 2 */
S_061_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_065_1;
S_062_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
		goto S_066_0;
S_065_1: /* 3 */
S_063_0: /* 2 */
		/* else */;
S_064_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_066_0;
S_065_2: /* 3 */
		Uerror("blocking sel in d_step (nr.3, near line 253)");
S_066_0: /* 2 */
S_071_0: /* 2 */
S_067_0: /* 2 */
		if (!((((int)now.pleft[0])<=((int)t_adv))))
			goto S_071_1;
S_068_0: /* 2 */
		now.pleft[0] = 0;
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_072_0;
S_071_1: /* 3 */
S_069_0: /* 2 */
		/* else */;
S_070_0: /* 2 */
		now.pleft[0] = (((int)now.pleft[0])-((int)t_adv));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_072_0;
S_071_2: /* 3 */
		Uerror("blocking sel in d_step (nr.4, near line 254)");
S_072_0: /* 2 */
S_080_0: /* 2 */
S_073_0: /* 2 */
		if (!(((((int)now.prun[0])&&(((int)now.pleft[0])==0))&&(((int)now.pfc[0])>=2))))
			goto S_080_1;
S_074_0: /* 2 */
		now.prun[0] = 0;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_075_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_081_0;
S_080_1: /* 3 */
S_076_0: /* 2 */
		if (!(((((int)now.prun[0])&&(((int)now.pleft[0])==0))&&(((int)now.pfc[0])<2))))
			goto S_080_2;
S_077_0: /* 2 */
		now.pfc[0] = (((int)now.pfc[0])+1);
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_081_0;
S_080_2: /* 3 */
S_078_0: /* 2 */
		/* else */;
S_079_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_081_0;
S_080_3: /* 3 */
		Uerror("blocking sel in d_step (nr.5, near line 256)");
S_081_0: /* 2 */
		goto S_085_0;
S_084_1: /* 3 */
S_082_0: /* 2 */
		/* else */;
S_083_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_085_0;
S_084_2: /* 3 */
		Uerror("blocking sel in d_step (nr.6, near line 250)");
S_085_0: /* 2 */
S_086_0: /* 2 */
		t_adv = 0;
#ifdef VAR_RANGES
		logval("t_adv", ((int)t_adv));
#endif
		;
		goto S_134_0;
S_134_0: /* 2 */
S_088_0: /* 2 */
		t_adv = ((1+((int)now.n1))-((int)now.off[1]));
#ifdef VAR_RANGES
		logval("t_adv", ((int)t_adv));
#endif
		;
S_089_0: /* 2 */
		now.off[1] = ((int)now.n1);
#ifdef VAR_RANGES
		logval("off[1]", ((int)now.off[1]));
#endif
		;
S_099_0: /* 2 */
S_090_0: /* 2 */
		if (!(((1<4)&&(((int)now.aep[1])>0))))
			goto S_099_1;
S_095_0: /* 2 */
S_091_0: /* 2 */
		if (!(((((int)now.aage[1])+((int)t_adv))>=8)))
			goto S_095_1;
S_092_0: /* 2 */
		now.aage[1] = 8;
#ifdef VAR_RANGES
		logval("aage[1]", ((int)now.aage[1]));
#endif
		;
		goto S_096_0;
S_095_1: /* 3 */
S_093_0: /* 2 */
		/* else */;
S_094_0: /* 2 */
		now.aage[1] = (((int)now.aage[1])+((int)t_adv));
#ifdef VAR_RANGES
		logval("aage[1]", ((int)now.aage[1]));
#endif
		;
		goto S_096_0;
S_095_2: /* 3 */
		Uerror("blocking sel in d_step (nr.7, near line 247)");
S_096_0: /* 2 */
		goto S_100_0;
S_099_1: /* 3 */
S_097_0: /* 2 */
		/* else */;
S_098_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_100_0;
S_099_2: /* 3 */
		Uerror("blocking sel in d_step (nr.8, near line 246)");
S_100_0: /* 2 */
S_131_0: /* 2 */
S_101_0: /* 2 */
		if (!((1<2)))
			goto S_131_1;
S_106_0: /* 2 */
S_102_0: /* 2 */
		if (!(((((int)now.prage[1])+((int)t_adv))>=(5-2))))
			goto S_106_1;
S_103_0: /* 2 */
		now.prage[1] = (5-2);
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
		goto S_107_0;
S_106_1: /* 3 */
S_104_0: /* 2 */
		/* else */;
S_105_0: /* 2 */
		now.prage[1] = (((int)now.prage[1])+((int)t_adv));
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
		goto S_107_0;
S_106_2: /* 3 */
		Uerror("blocking sel in d_step (nr.9, near line 252)");
S_107_0: /* 2 */
S_112_0: /* 2 */
S_108_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_112_1;
S_109_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
		goto S_113_0;
S_112_1: /* 3 */
S_110_0: /* 2 */
		/* else */;
S_111_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_113_0;
S_112_2: /* 3 */
		Uerror("blocking sel in d_step (nr.10, near line 253)");
S_113_0: /* 2 */
S_118_0: /* 2 */
S_114_0: /* 2 */
		if (!((((int)now.pleft[1])<=((int)t_adv))))
			goto S_118_1;
S_115_0: /* 2 */
		now.pleft[1] = 0;
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_119_0;
S_118_1: /* 3 */
S_116_0: /* 2 */
		/* else */;
S_117_0: /* 2 */
		now.pleft[1] = (((int)now.pleft[1])-((int)t_adv));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_119_0;
S_118_2: /* 3 */
		Uerror("blocking sel in d_step (nr.11, near line 254)");
S_119_0: /* 2 */
S_127_0: /* 2 */
S_120_0: /* 2 */
		if (!(((((int)now.prun[1])&&(((int)now.pleft[1])==0))&&(((int)now.pfc[1])>=2))))
			goto S_127_1;
S_121_0: /* 2 */
		now.prun[1] = 0;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_122_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_128_0;
S_127_1: /* 3 */
S_123_0: /* 2 */
		if (!(((((int)now.prun[1])&&(((int)now.pleft[1])==0))&&(((int)now.pfc[1])<2))))
			goto S_127_2;
S_124_0: /* 2 */
		now.pfc[1] = (((int)now.pfc[1])+1);
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_128_0;
S_127_2: /* 3 */
S_125_0: /* 2 */
		/* else */;
S_126_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_128_0;
S_127_3: /* 3 */
		Uerror("blocking sel in d_step (nr.12, near line 256)");
S_128_0: /* 2 */
		goto S_132_0;
S_131_1: /* 3 */
S_129_0: /* 2 */
		/* else */;
S_130_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_132_0;
S_131_2: /* 3 */
		Uerror("blocking sel in d_step (nr.13, near line 250)");
S_132_0: /* 2 */
S_133_0: /* 2 */
		t_adv = 0;
#ifdef VAR_RANGES
		logval("t_adv", ((int)t_adv));
#endif
		;
		goto S_181_0;
S_181_0: /* 2 */
S_135_0: /* 2 */
		t_adv = ((1+((int)now.n2))-((int)now.off[2]));
#ifdef VAR_RANGES
		logval("t_adv", ((int)t_adv));
#endif
		;
S_136_0: /* 2 */
		now.off[2] = ((int)now.n2);
#ifdef VAR_RANGES
		logval("off[2]", ((int)now.off[2]));
#endif
		;
S_146_0: /* 2 */
S_137_0: /* 2 */
		if (!(((2<4)&&(((int)now.aep[2])>0))))
			goto S_146_1;
S_142_0: /* 2 */
S_138_0: /* 2 */
		if (!(((((int)now.aage[2])+((int)t_adv))>=8)))
			goto S_142_1;
S_139_0: /* 2 */
		now.aage[2] = 8;
#ifdef VAR_RANGES
		logval("aage[2]", ((int)now.aage[2]));
#endif
		;
		goto S_143_0;
S_142_1: /* 3 */
S_140_0: /* 2 */
		/* else */;
S_141_0: /* 2 */
		now.aage[2] = (((int)now.aage[2])+((int)t_adv));
#ifdef VAR_RANGES
		logval("aage[2]", ((int)now.aage[2]));
#endif
		;
		goto S_143_0;
S_142_2: /* 3 */
		Uerror("blocking sel in d_step (nr.14, near line 247)");
S_143_0: /* 2 */
		goto S_147_0;
S_146_1: /* 3 */
S_144_0: /* 2 */
		/* else */;
S_145_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_147_0;
S_146_2: /* 3 */
		Uerror("blocking sel in d_step (nr.15, near line 246)");
S_147_0: /* 2 */
S_178_0: /* 2 */
S_148_0: /* 2 */
		if (!((2<2)))
			goto S_178_1;
S_153_0: /* 2 */
S_149_0: /* 2 */
		if (!(((((int)now.prage[ Index(2, 2) ])+((int)t_adv))>=(5-2))))
			goto S_153_1;
S_150_0: /* 2 */
		now.prage[ Index(2, 2) ] = (5-2);
#ifdef VAR_RANGES
		logval("prage[2]", ((int)now.prage[ Index(2, 2) ]));
#endif
		;
		goto S_154_0;
S_153_1: /* 3 */
S_151_0: /* 2 */
		/* else */;
S_152_0: /* 2 */
		now.prage[ Index(2, 2) ] = (((int)now.prage[ Index(2, 2) ])+((int)t_adv));
#ifdef VAR_RANGES
		logval("prage[2]", ((int)now.prage[ Index(2, 2) ]));
#endif
		;
		goto S_154_0;
S_153_2: /* 3 */
		Uerror("blocking sel in d_step (nr.16, near line 252)");
S_154_0: /* 2 */
S_159_0: /* 2 */
S_155_0: /* 2 */
		if (!((((int)now.pst[ Index(2, 2) ])==0)))
			goto S_159_1;
S_156_0: /* 2 */
		now.prage[ Index(2, 2) ] = 0;
#ifdef VAR_RANGES
		logval("prage[2]", ((int)now.prage[ Index(2, 2) ]));
#endif
		;
		goto S_160_0;
S_159_1: /* 3 */
S_157_0: /* 2 */
		/* else */;
S_158_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_160_0;
S_159_2: /* 3 */
		Uerror("blocking sel in d_step (nr.17, near line 253)");
S_160_0: /* 2 */
S_165_0: /* 2 */
S_161_0: /* 2 */
		if (!((((int)now.pleft[ Index(2, 2) ])<=((int)t_adv))))
			goto S_165_1;
S_162_0: /* 2 */
		now.pleft[ Index(2, 2) ] = 0;
#ifdef VAR_RANGES
		logval("pleft[2]", ((int)now.pleft[ Index(2, 2) ]));
#endif
		;
		goto S_166_0;
S_165_1: /* 3 */
S_163_0: /* 2 */
		/* else */;
S_164_0: /* 2 */
		now.pleft[ Index(2, 2) ] = (((int)now.pleft[ Index(2, 2) ])-((int)t_adv));
#ifdef VAR_RANGES
		logval("pleft[2]", ((int)now.pleft[ Index(2, 2) ]));
#endif
		;
		goto S_166_0;
S_165_2: /* 3 */
		Uerror("blocking sel in d_step (nr.18, near line 254)");
S_166_0: /* 2 */
S_174_0: /* 2 */
S_167_0: /* 2 */
		if (!(((((int)now.prun[ Index(2, 2) ])&&(((int)now.pleft[ Index(2, 2) ])==0))&&(((int)now.pfc[ Index(2, 2) ])>=2))))
			goto S_174_1;
S_168_0: /* 2 */
		now.prun[ Index(2, 2) ] = 0;
#ifdef VAR_RANGES
		logval("prun[2]", ((int)now.prun[ Index(2, 2) ]));
#endif
		;
S_169_0: /* 2 */
		now.pfc[ Index(2, 2) ] = 0;
#ifdef VAR_RANGES
		logval("pfc[2]", ((int)now.pfc[ Index(2, 2) ]));
#endif
		;
		goto S_175_0;
S_174_1: /* 3 */
S_170_0: /* 2 */
		if (!(((((int)now.prun[ Index(2, 2) ])&&(((int)now.pleft[ Index(2, 2) ])==0))&&(((int)now.pfc[ Index(2, 2) ])<2))))
			goto S_174_2;
S_171_0: /* 2 */
		now.pfc[ Index(2, 2) ] = (((int)now.pfc[ Index(2, 2) ])+1);
#ifdef VAR_RANGES
		logval("pfc[2]", ((int)now.pfc[ Index(2, 2) ]));
#endif
		;
		goto S_175_0;
S_174_2: /* 3 */
S_172_0: /* 2 */
		/* else */;
S_173_0: /* 2 */
		now.pfc[ Index(2, 2) ] = 0;
#ifdef VAR_RANGES
		logval("pfc[2]", ((int)now.pfc[ Index(2, 2) ]));
#endif
		;
		goto S_175_0;
S_174_3: /* 3 */
		Uerror("blocking sel in d_step (nr.19, near line 256)");
S_175_0: /* 2 */
		goto S_179_0;
S_178_1: /* 3 */
S_176_0: /* 2 */
		/* else */;
S_177_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_179_0;
S_178_2: /* 3 */
		Uerror("blocking sel in d_step (nr.20, near line 250)");
S_179_0: /* 2 */
S_180_0: /* 2 */
		t_adv = 0;
#ifdef VAR_RANGES
		logval("t_adv", ((int)t_adv));
#endif
		;
		goto S_228_0;
S_228_0: /* 2 */
S_182_0: /* 2 */
		t_adv = ((1+((int)now.n3))-((int)now.off[3]));
#ifdef VAR_RANGES
		logval("t_adv", ((int)t_adv));
#endif
		;
S_183_0: /* 2 */
		now.off[3] = ((int)now.n3);
#ifdef VAR_RANGES
		logval("off[3]", ((int)now.off[3]));
#endif
		;
S_193_0: /* 2 */
S_184_0: /* 2 */
		if (!(((3<4)&&(((int)now.aep[3])>0))))
			goto S_193_1;
S_189_0: /* 2 */
S_185_0: /* 2 */
		if (!(((((int)now.aage[3])+((int)t_adv))>=8)))
			goto S_189_1;
S_186_0: /* 2 */
		now.aage[3] = 8;
#ifdef VAR_RANGES
		logval("aage[3]", ((int)now.aage[3]));
#endif
		;
		goto S_190_0;
S_189_1: /* 3 */
S_187_0: /* 2 */
		/* else */;
S_188_0: /* 2 */
		now.aage[3] = (((int)now.aage[3])+((int)t_adv));
#ifdef VAR_RANGES
		logval("aage[3]", ((int)now.aage[3]));
#endif
		;
		goto S_190_0;
S_189_2: /* 3 */
		Uerror("blocking sel in d_step (nr.21, near line 247)");
S_190_0: /* 2 */
		goto S_194_0;
S_193_1: /* 3 */
S_191_0: /* 2 */
		/* else */;
S_192_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_194_0;
S_193_2: /* 3 */
		Uerror("blocking sel in d_step (nr.22, near line 246)");
S_194_0: /* 2 */
S_225_0: /* 2 */
S_195_0: /* 2 */
		if (!((3<2)))
			goto S_225_1;
S_200_0: /* 2 */
S_196_0: /* 2 */
		if (!(((((int)now.prage[ Index(3, 2) ])+((int)t_adv))>=(5-2))))
			goto S_200_1;
S_197_0: /* 2 */
		now.prage[ Index(3, 2) ] = (5-2);
#ifdef VAR_RANGES
		logval("prage[3]", ((int)now.prage[ Index(3, 2) ]));
#endif
		;
		goto S_201_0;
S_200_1: /* 3 */
S_198_0: /* 2 */
		/* else */;
S_199_0: /* 2 */
		now.prage[ Index(3, 2) ] = (((int)now.prage[ Index(3, 2) ])+((int)t_adv));
#ifdef VAR_RANGES
		logval("prage[3]", ((int)now.prage[ Index(3, 2) ]));
#endif
		;
		goto S_201_0;
S_200_2: /* 3 */
		Uerror("blocking sel in d_step (nr.23, near line 252)");
S_201_0: /* 2 */
S_206_0: /* 2 */
S_202_0: /* 2 */
		if (!((((int)now.pst[ Index(3, 2) ])==0)))
			goto S_206_1;
S_203_0: /* 2 */
		now.prage[ Index(3, 2) ] = 0;
#ifdef VAR_RANGES
		logval("prage[3]", ((int)now.prage[ Index(3, 2) ]));
#endif
		;
		goto S_207_0;
S_206_1: /* 3 */
S_204_0: /* 2 */
		/* else */;
S_205_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_207_0;
S_206_2: /* 3 */
		Uerror("blocking sel in d_step (nr.24, near line 253)");
S_207_0: /* 2 */
S_212_0: /* 2 */
S_208_0: /* 2 */
		if (!((((int)now.pleft[ Index(3, 2) ])<=((int)t_adv))))
			goto S_212_1;
S_209_0: /* 2 */
		now.pleft[ Index(3, 2) ] = 0;
#ifdef VAR_RANGES
		logval("pleft[3]", ((int)now.pleft[ Index(3, 2) ]));
#endif
		;
		goto S_213_0;
S_212_1: /* 3 */
S_210_0: /* 2 */
		/* else */;
S_211_0: /* 2 */
		now.pleft[ Index(3, 2) ] = (((int)now.pleft[ Index(3, 2) ])-((int)t_adv));
#ifdef VAR_RANGES
		logval("pleft[3]", ((int)now.pleft[ Index(3, 2) ]));
#endif
		;
		goto S_213_0;
S_212_2: /* 3 */
		Uerror("blocking sel in d_step (nr.25, near line 254)");
S_213_0: /* 2 */
S_221_0: /* 2 */
S_214_0: /* 2 */
		if (!(((((int)now.prun[ Index(3, 2) ])&&(((int)now.pleft[ Index(3, 2) ])==0))&&(((int)now.pfc[ Index(3, 2) ])>=2))))
			goto S_221_1;
S_215_0: /* 2 */
		now.prun[ Index(3, 2) ] = 0;
#ifdef VAR_RANGES
		logval("prun[3]", ((int)now.prun[ Index(3, 2) ]));
#endif
		;
S_216_0: /* 2 */
		now.pfc[ Index(3, 2) ] = 0;
#ifdef VAR_RANGES
		logval("pfc[3]", ((int)now.pfc[ Index(3, 2) ]));
#endif
		;
		goto S_222_0;
S_221_1: /* 3 */
S_217_0: /* 2 */
		if (!(((((int)now.prun[ Index(3, 2) ])&&(((int)now.pleft[ Index(3, 2) ])==0))&&(((int)now.pfc[ Index(3, 2) ])<2))))
			goto S_221_2;
S_218_0: /* 2 */
		now.pfc[ Index(3, 2) ] = (((int)now.pfc[ Index(3, 2) ])+1);
#ifdef VAR_RANGES
		logval("pfc[3]", ((int)now.pfc[ Index(3, 2) ]));
#endif
		;
		goto S_222_0;
S_221_2: /* 3 */
S_219_0: /* 2 */
		/* else */;
S_220_0: /* 2 */
		now.pfc[ Index(3, 2) ] = 0;
#ifdef VAR_RANGES
		logval("pfc[3]", ((int)now.pfc[ Index(3, 2) ]));
#endif
		;
		goto S_222_0;
S_221_3: /* 3 */
		Uerror("blocking sel in d_step (nr.26, near line 256)");
S_222_0: /* 2 */
		goto S_226_0;
S_225_1: /* 3 */
S_223_0: /* 2 */
		/* else */;
S_224_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_226_0;
S_225_2: /* 3 */
		Uerror("blocking sel in d_step (nr.27, near line 250)");
S_226_0: /* 2 */
S_227_0: /* 2 */
		t_adv = 0;
#ifdef VAR_RANGES
		logval("t_adv", ((int)t_adv));
#endif
		;
		goto S_229_0;
S_229_0: /* 2 */
		now.n0 = 0;
#ifdef VAR_RANGES
		logval("n0", ((int)now.n0));
#endif
		;
S_230_0: /* 2 */
		now.n1 = 0;
#ifdef VAR_RANGES
		logval("n1", ((int)now.n1));
#endif
		;
S_231_0: /* 2 */
		now.n2 = 0;
#ifdef VAR_RANGES
		logval("n2", ((int)now.n2));
#endif
		;
S_232_0: /* 2 */
		now.n3 = 0;
#ifdef VAR_RANGES
		logval("n3", ((int)now.n3));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 18: // STATE 271 - lease.pml:320 - [D_STEP320]
		if (!(boq == -1 && ((((int)now.pst[0])!=2)&&(((int)now.pep[0])<1))))
			continue;

		reached[0][271] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_235_0: /* 2 */
		if (!(((((int)now.pst[0])!=2)&&(((int)now.pep[0])<1))))
			Uerror("block in d_step seq");
S_236_0: /* 2 */
		now.pst[0] = 1;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_237_0: /* 2 */
		now.pep[0] = 1;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_269_0: /* 2 */
S_238_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_239_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_247_0: /* 2 */
S_246_0: /* 2 */
S_240_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_246_1;
S_241_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_242_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_243_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_247_0; /* ';' */
S_246_1: /* 3 */
S_244_0: /* 2 */
		/* else */;
S_245_0: /* 2 */
		goto S_249_0;	/* 'goto' */
S_246_2: /* 3 */
		Uerror("blocking sel in d_step (nr.28, near line 140)");
S_248_0: /* 2 */
		goto S_249_0;	/* 'break' */
S_249_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_250_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_251_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_252_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_253_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_265_0: /* 2 */
S_264_0: /* 2 */
S_254_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_264_1;
S_259_0: /* 2 */
S_255_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_259_1;
S_256_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_260_0;
S_259_1: /* 3 */
S_257_0: /* 2 */
		/* else */;
S_258_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_260_0;
S_259_2: /* 3 */
		Uerror("blocking sel in d_step (nr.29, near line 150)");
S_260_0: /* 2 */
S_261_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_265_0; /* ';' */
S_264_1: /* 3 */
S_262_0: /* 2 */
		/* else */;
S_263_0: /* 2 */
		goto S_267_0;	/* 'goto' */
S_264_2: /* 3 */
		Uerror("blocking sel in d_step (nr.30, near line 149)");
S_266_0: /* 2 */
		goto S_267_0;	/* 'break' */
S_267_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_268_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 19: // STATE 307 - lease.pml:320 - [D_STEP320]
		if (!(boq == -1 && ((((int)now.pst[0])!=2)&&(((int)now.pep[0])<2))))
			continue;

		reached[0][307] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_271_0: /* 2 */
		if (!(((((int)now.pst[0])!=2)&&(((int)now.pep[0])<2))))
			Uerror("block in d_step seq");
S_272_0: /* 2 */
		now.pst[0] = 1;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_273_0: /* 2 */
		now.pep[0] = 2;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_305_0: /* 2 */
S_274_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_275_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_283_0: /* 2 */
S_282_0: /* 2 */
S_276_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_282_1;
S_277_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_278_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_279_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_283_0; /* ';' */
S_282_1: /* 3 */
S_280_0: /* 2 */
		/* else */;
S_281_0: /* 2 */
		goto S_285_0;	/* 'goto' */
S_282_2: /* 3 */
		Uerror("blocking sel in d_step (nr.31, near line 140)");
S_284_0: /* 2 */
		goto S_285_0;	/* 'break' */
S_285_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_286_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_287_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_288_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_289_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_301_0: /* 2 */
S_300_0: /* 2 */
S_290_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_300_1;
S_295_0: /* 2 */
S_291_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_295_1;
S_292_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_296_0;
S_295_1: /* 3 */
S_293_0: /* 2 */
		/* else */;
S_294_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_296_0;
S_295_2: /* 3 */
		Uerror("blocking sel in d_step (nr.32, near line 150)");
S_296_0: /* 2 */
S_297_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_301_0; /* ';' */
S_300_1: /* 3 */
S_298_0: /* 2 */
		/* else */;
S_299_0: /* 2 */
		goto S_303_0;	/* 'goto' */
S_300_2: /* 3 */
		Uerror("blocking sel in d_step (nr.33, near line 149)");
S_302_0: /* 2 */
		goto S_303_0;	/* 'break' */
S_303_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_304_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 20: // STATE 343 - lease.pml:320 - [D_STEP320]
		if (!(boq == -1 && ((((int)now.pst[0])!=2)&&(((int)now.pep[0])<3))))
			continue;

		reached[0][343] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_307_0: /* 2 */
		if (!(((((int)now.pst[0])!=2)&&(((int)now.pep[0])<3))))
			Uerror("block in d_step seq");
S_308_0: /* 2 */
		now.pst[0] = 1;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_309_0: /* 2 */
		now.pep[0] = 3;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_341_0: /* 2 */
S_310_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_311_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_319_0: /* 2 */
S_318_0: /* 2 */
S_312_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_318_1;
S_313_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_314_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_315_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_319_0; /* ';' */
S_318_1: /* 3 */
S_316_0: /* 2 */
		/* else */;
S_317_0: /* 2 */
		goto S_321_0;	/* 'goto' */
S_318_2: /* 3 */
		Uerror("blocking sel in d_step (nr.34, near line 140)");
S_320_0: /* 2 */
		goto S_321_0;	/* 'break' */
S_321_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_322_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_323_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_324_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_325_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_337_0: /* 2 */
S_336_0: /* 2 */
S_326_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_336_1;
S_331_0: /* 2 */
S_327_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_331_1;
S_328_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_332_0;
S_331_1: /* 3 */
S_329_0: /* 2 */
		/* else */;
S_330_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_332_0;
S_331_2: /* 3 */
		Uerror("blocking sel in d_step (nr.35, near line 150)");
S_332_0: /* 2 */
S_333_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_337_0; /* ';' */
S_336_1: /* 3 */
S_334_0: /* 2 */
		/* else */;
S_335_0: /* 2 */
		goto S_339_0;	/* 'goto' */
S_336_2: /* 3 */
		Uerror("blocking sel in d_step (nr.36, near line 149)");
S_338_0: /* 2 */
		goto S_339_0;	/* 'break' */
S_339_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_340_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 21: // STATE 377 - lease.pml:320 - [D_STEP320]
		if (!(boq == -1 && ((((int)now.pst[0])!=0)&&(((int)now.prage[0])>=1))))
			continue;

		reached[0][377] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_343_0: /* 2 */
		if (!(((((int)now.pst[0])!=0)&&(((int)now.prage[0])>=1))))
			Uerror("block in d_step seq");
S_375_0: /* 2 */
S_344_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_345_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_353_0: /* 2 */
S_352_0: /* 2 */
S_346_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_352_1;
S_347_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_348_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_349_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_353_0; /* ';' */
S_352_1: /* 3 */
S_350_0: /* 2 */
		/* else */;
S_351_0: /* 2 */
		goto S_355_0;	/* 'goto' */
S_352_2: /* 3 */
		Uerror("blocking sel in d_step (nr.37, near line 140)");
S_354_0: /* 2 */
		goto S_355_0;	/* 'break' */
S_355_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_356_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_357_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_358_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_359_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_371_0: /* 2 */
S_370_0: /* 2 */
S_360_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_370_1;
S_365_0: /* 2 */
S_361_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_365_1;
S_362_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_366_0;
S_365_1: /* 3 */
S_363_0: /* 2 */
		/* else */;
S_364_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_366_0;
S_365_2: /* 3 */
		Uerror("blocking sel in d_step (nr.38, near line 150)");
S_366_0: /* 2 */
S_367_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_371_0; /* ';' */
S_370_1: /* 3 */
S_368_0: /* 2 */
		/* else */;
S_369_0: /* 2 */
		goto S_373_0;	/* 'goto' */
S_370_2: /* 3 */
		Uerror("blocking sel in d_step (nr.39, near line 149)");
S_372_0: /* 2 */
		goto S_373_0;	/* 'break' */
S_373_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_374_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 22: // STATE 412 - lease.pml:320 - [D_STEP320]
		if (!(boq == -1 && ((((int)now.pst[0])==2)&&(((int)now.pcf[0])==0))))
			continue;

		reached[0][412] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_377_0: /* 2 */
		if (!(((((int)now.pst[0])==2)&&(((int)now.pcf[0])==0))))
			Uerror("block in d_step seq");
S_378_0: /* 2 */
		now.pcf[0] = 1;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
S_410_0: /* 2 */
S_379_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_380_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_388_0: /* 2 */
S_387_0: /* 2 */
S_381_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_387_1;
S_382_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_383_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_384_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_388_0; /* ';' */
S_387_1: /* 3 */
S_385_0: /* 2 */
		/* else */;
S_386_0: /* 2 */
		goto S_390_0;	/* 'goto' */
S_387_2: /* 3 */
		Uerror("blocking sel in d_step (nr.40, near line 140)");
S_389_0: /* 2 */
		goto S_390_0;	/* 'break' */
S_390_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_391_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_392_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_393_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_394_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_406_0: /* 2 */
S_405_0: /* 2 */
S_395_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_405_1;
S_400_0: /* 2 */
S_396_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_400_1;
S_397_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_401_0;
S_400_1: /* 3 */
S_398_0: /* 2 */
		/* else */;
S_399_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_401_0;
S_400_2: /* 3 */
		Uerror("blocking sel in d_step (nr.41, near line 150)");
S_401_0: /* 2 */
S_402_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_406_0; /* ';' */
S_405_1: /* 3 */
S_403_0: /* 2 */
		/* else */;
S_404_0: /* 2 */
		goto S_408_0;	/* 'goto' */
S_405_2: /* 3 */
		Uerror("blocking sel in d_step (nr.42, near line 149)");
S_407_0: /* 2 */
		goto S_408_0;	/* 'break' */
S_408_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_409_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 23: // STATE 421 - lease.pml:320 - [D_STEP320]
		if (!(boq == -1 && ((((int)now.pst[0])!=0)||(((int)now.pcf[0])!=0))))
			continue;

		reached[0][421] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_412_0: /* 2 */
		if (!(((((int)now.pst[0])!=0)||(((int)now.pcf[0])!=0))))
			Uerror("block in d_step seq");
S_413_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_414_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_415_0: /* 2 */
		now.pcf[0] = 0;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
S_416_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_417_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_418_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_419_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 24: // STATE 457 - lease.pml:321 - [D_STEP321]
		if (!(boq == -1 && ((((int)now.pst[1])!=2)&&(((int)now.pep[1])<1))))
			continue;

		reached[0][457] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_421_0: /* 2 */
		if (!(((((int)now.pst[1])!=2)&&(((int)now.pep[1])<1))))
			Uerror("block in d_step seq");
S_422_0: /* 2 */
		now.pst[1] = 1;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_423_0: /* 2 */
		now.pep[1] = 1;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_455_0: /* 2 */
S_424_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_425_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_433_0: /* 2 */
S_432_0: /* 2 */
S_426_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_432_1;
S_427_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_428_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_429_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_433_0; /* ';' */
S_432_1: /* 3 */
S_430_0: /* 2 */
		/* else */;
S_431_0: /* 2 */
		goto S_435_0;	/* 'goto' */
S_432_2: /* 3 */
		Uerror("blocking sel in d_step (nr.43, near line 140)");
S_434_0: /* 2 */
		goto S_435_0;	/* 'break' */
S_435_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_436_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_437_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_438_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_439_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_451_0: /* 2 */
S_450_0: /* 2 */
S_440_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_450_1;
S_445_0: /* 2 */
S_441_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_445_1;
S_442_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_446_0;
S_445_1: /* 3 */
S_443_0: /* 2 */
		/* else */;
S_444_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_446_0;
S_445_2: /* 3 */
		Uerror("blocking sel in d_step (nr.44, near line 150)");
S_446_0: /* 2 */
S_447_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_451_0; /* ';' */
S_450_1: /* 3 */
S_448_0: /* 2 */
		/* else */;
S_449_0: /* 2 */
		goto S_453_0;	/* 'goto' */
S_450_2: /* 3 */
		Uerror("blocking sel in d_step (nr.45, near line 149)");
S_452_0: /* 2 */
		goto S_453_0;	/* 'break' */
S_453_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_454_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 25: // STATE 493 - lease.pml:321 - [D_STEP321]
		if (!(boq == -1 && ((((int)now.pst[1])!=2)&&(((int)now.pep[1])<2))))
			continue;

		reached[0][493] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_457_0: /* 2 */
		if (!(((((int)now.pst[1])!=2)&&(((int)now.pep[1])<2))))
			Uerror("block in d_step seq");
S_458_0: /* 2 */
		now.pst[1] = 1;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_459_0: /* 2 */
		now.pep[1] = 2;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_491_0: /* 2 */
S_460_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_461_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_469_0: /* 2 */
S_468_0: /* 2 */
S_462_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_468_1;
S_463_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_464_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_465_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_469_0; /* ';' */
S_468_1: /* 3 */
S_466_0: /* 2 */
		/* else */;
S_467_0: /* 2 */
		goto S_471_0;	/* 'goto' */
S_468_2: /* 3 */
		Uerror("blocking sel in d_step (nr.46, near line 140)");
S_470_0: /* 2 */
		goto S_471_0;	/* 'break' */
S_471_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_472_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_473_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_474_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_475_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_487_0: /* 2 */
S_486_0: /* 2 */
S_476_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_486_1;
S_481_0: /* 2 */
S_477_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_481_1;
S_478_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_482_0;
S_481_1: /* 3 */
S_479_0: /* 2 */
		/* else */;
S_480_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_482_0;
S_481_2: /* 3 */
		Uerror("blocking sel in d_step (nr.47, near line 150)");
S_482_0: /* 2 */
S_483_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_487_0; /* ';' */
S_486_1: /* 3 */
S_484_0: /* 2 */
		/* else */;
S_485_0: /* 2 */
		goto S_489_0;	/* 'goto' */
S_486_2: /* 3 */
		Uerror("blocking sel in d_step (nr.48, near line 149)");
S_488_0: /* 2 */
		goto S_489_0;	/* 'break' */
S_489_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_490_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 26: // STATE 529 - lease.pml:321 - [D_STEP321]
		if (!(boq == -1 && ((((int)now.pst[1])!=2)&&(((int)now.pep[1])<3))))
			continue;

		reached[0][529] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_493_0: /* 2 */
		if (!(((((int)now.pst[1])!=2)&&(((int)now.pep[1])<3))))
			Uerror("block in d_step seq");
S_494_0: /* 2 */
		now.pst[1] = 1;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_495_0: /* 2 */
		now.pep[1] = 3;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_527_0: /* 2 */
S_496_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_497_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_505_0: /* 2 */
S_504_0: /* 2 */
S_498_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_504_1;
S_499_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_500_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_501_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_505_0; /* ';' */
S_504_1: /* 3 */
S_502_0: /* 2 */
		/* else */;
S_503_0: /* 2 */
		goto S_507_0;	/* 'goto' */
S_504_2: /* 3 */
		Uerror("blocking sel in d_step (nr.49, near line 140)");
S_506_0: /* 2 */
		goto S_507_0;	/* 'break' */
S_507_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_508_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_509_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_510_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_511_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_523_0: /* 2 */
S_522_0: /* 2 */
S_512_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_522_1;
S_517_0: /* 2 */
S_513_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_517_1;
S_514_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_518_0;
S_517_1: /* 3 */
S_515_0: /* 2 */
		/* else */;
S_516_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_518_0;
S_517_2: /* 3 */
		Uerror("blocking sel in d_step (nr.50, near line 150)");
S_518_0: /* 2 */
S_519_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_523_0; /* ';' */
S_522_1: /* 3 */
S_520_0: /* 2 */
		/* else */;
S_521_0: /* 2 */
		goto S_525_0;	/* 'goto' */
S_522_2: /* 3 */
		Uerror("blocking sel in d_step (nr.51, near line 149)");
S_524_0: /* 2 */
		goto S_525_0;	/* 'break' */
S_525_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_526_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 27: // STATE 563 - lease.pml:321 - [D_STEP321]
		if (!(boq == -1 && ((((int)now.pst[1])!=0)&&(((int)now.prage[1])>=1))))
			continue;

		reached[0][563] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_529_0: /* 2 */
		if (!(((((int)now.pst[1])!=0)&&(((int)now.prage[1])>=1))))
			Uerror("block in d_step seq");
S_561_0: /* 2 */
S_530_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_531_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_539_0: /* 2 */
S_538_0: /* 2 */
S_532_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_538_1;
S_533_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_534_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_535_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_539_0; /* ';' */
S_538_1: /* 3 */
S_536_0: /* 2 */
		/* else */;
S_537_0: /* 2 */
		goto S_541_0;	/* 'goto' */
S_538_2: /* 3 */
		Uerror("blocking sel in d_step (nr.52, near line 140)");
S_540_0: /* 2 */
		goto S_541_0;	/* 'break' */
S_541_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_542_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_543_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_544_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_545_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_557_0: /* 2 */
S_556_0: /* 2 */
S_546_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_556_1;
S_551_0: /* 2 */
S_547_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_551_1;
S_548_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_552_0;
S_551_1: /* 3 */
S_549_0: /* 2 */
		/* else */;
S_550_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_552_0;
S_551_2: /* 3 */
		Uerror("blocking sel in d_step (nr.53, near line 150)");
S_552_0: /* 2 */
S_553_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_557_0; /* ';' */
S_556_1: /* 3 */
S_554_0: /* 2 */
		/* else */;
S_555_0: /* 2 */
		goto S_559_0;	/* 'goto' */
S_556_2: /* 3 */
		Uerror("blocking sel in d_step (nr.54, near line 149)");
S_558_0: /* 2 */
		goto S_559_0;	/* 'break' */
S_559_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_560_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 28: // STATE 598 - lease.pml:321 - [D_STEP321]
		if (!(boq == -1 && ((((int)now.pst[1])==2)&&(((int)now.pcf[1])==0))))
			continue;

		reached[0][598] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_563_0: /* 2 */
		if (!(((((int)now.pst[1])==2)&&(((int)now.pcf[1])==0))))
			Uerror("block in d_step seq");
S_564_0: /* 2 */
		now.pcf[1] = 1;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
S_596_0: /* 2 */
S_565_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_566_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_574_0: /* 2 */
S_573_0: /* 2 */
S_567_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_573_1;
S_568_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_569_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_570_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_574_0; /* ';' */
S_573_1: /* 3 */
S_571_0: /* 2 */
		/* else */;
S_572_0: /* 2 */
		goto S_576_0;	/* 'goto' */
S_573_2: /* 3 */
		Uerror("blocking sel in d_step (nr.55, near line 140)");
S_575_0: /* 2 */
		goto S_576_0;	/* 'break' */
S_576_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_577_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_578_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_579_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_580_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_592_0: /* 2 */
S_591_0: /* 2 */
S_581_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_591_1;
S_586_0: /* 2 */
S_582_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_586_1;
S_583_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_587_0;
S_586_1: /* 3 */
S_584_0: /* 2 */
		/* else */;
S_585_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_587_0;
S_586_2: /* 3 */
		Uerror("blocking sel in d_step (nr.56, near line 150)");
S_587_0: /* 2 */
S_588_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_592_0; /* ';' */
S_591_1: /* 3 */
S_589_0: /* 2 */
		/* else */;
S_590_0: /* 2 */
		goto S_594_0;	/* 'goto' */
S_591_2: /* 3 */
		Uerror("blocking sel in d_step (nr.57, near line 149)");
S_593_0: /* 2 */
		goto S_594_0;	/* 'break' */
S_594_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_595_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 29: // STATE 607 - lease.pml:321 - [D_STEP321]
		if (!(boq == -1 && ((((int)now.pst[1])!=0)||(((int)now.pcf[1])!=0))))
			continue;

		reached[0][607] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_598_0: /* 2 */
		if (!(((((int)now.pst[1])!=0)||(((int)now.pcf[1])!=0))))
			Uerror("block in d_step seq");
S_599_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_600_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_601_0: /* 2 */
		now.pcf[1] = 0;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
S_602_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_603_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_604_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_605_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 30: // STATE 610 - lease.pml:322 - [D_STEP322]
		if (!(boq == -1 && ((((int)now.aep[0])>0)&&(((int)now.aage[0])!=0))))
			continue;

		reached[0][610] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_607_0: /* 2 */
		if (!(((((int)now.aep[0])>0)&&(((int)now.aage[0])!=0))))
			Uerror("block in d_step seq");
S_608_0: /* 2 */
		now.aage[0] = 0;
#ifdef VAR_RANGES
		logval("aage[0]", ((int)now.aage[0]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 31: // STATE 613 - lease.pml:322 - [D_STEP322]
		if (!(boq == -1 && ((((int)now.aep[1])>0)&&(((int)now.aage[1])!=0))))
			continue;

		reached[0][613] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_610_0: /* 2 */
		if (!(((((int)now.aep[1])>0)&&(((int)now.aage[1])!=0))))
			Uerror("block in d_step seq");
S_611_0: /* 2 */
		now.aage[1] = 0;
#ifdef VAR_RANGES
		logval("aage[1]", ((int)now.aage[1]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 32: // STATE 616 - lease.pml:322 - [D_STEP322]
		if (!(boq == -1 && ((((int)now.aep[2])>0)&&(((int)now.aage[2])!=0))))
			continue;

		reached[0][616] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_613_0: /* 2 */
		if (!(((((int)now.aep[2])>0)&&(((int)now.aage[2])!=0))))
			Uerror("block in d_step seq");
S_614_0: /* 2 */
		now.aage[2] = 0;
#ifdef VAR_RANGES
		logval("aage[2]", ((int)now.aage[2]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 33: // STATE 619 - lease.pml:322 - [D_STEP322]
		if (!(boq == -1 && ((((int)now.aep[3])>0)&&(((int)now.aage[3])!=0))))
			continue;

		reached[0][619] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_616_0: /* 2 */
		if (!(((((int)now.aep[3])>0)&&(((int)now.aage[3])!=0))))
			Uerror("block in d_step seq");
S_617_0: /* 2 */
		now.aage[3] = 0;
#ifdef VAR_RANGES
		logval("aage[3]", ((int)now.aage[3]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 34: // STATE 685 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((0*2)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][685] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_619_0: /* 2 */
		if (!((((int)now.rq[ Index(((((0*2)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_683_0: /* 2 */
S_620_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((0*2)+0)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_621_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_622_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_623_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_624_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_629_0: /* 2 */
S_625_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_629_1;
S_626_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_630_0;
S_629_1: /* 3 */
S_627_0: /* 2 */
		/* else */;
S_628_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_630_0;
S_629_2: /* 3 */
		Uerror("blocking sel in d_step (nr.58, near line 205)");
S_630_0: /* 2 */
S_635_0: /* 2 */
S_631_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_635_1;
S_632_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_636_0;
S_635_1: /* 3 */
S_633_0: /* 2 */
		/* else */;
S_634_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_636_0;
S_635_2: /* 3 */
		Uerror("blocking sel in d_step (nr.59, near line 206)");
S_636_0: /* 2 */
S_667_0: /* 2 */
S_637_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(0!=3)))||((((int)t_max)==2)&&(0!=2))))))
			goto S_667_1;
S_638_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_668_0;
S_667_1: /* 3 */
S_639_0: /* 2 */
		/* else */;
S_653_0: /* 2 */
S_640_0: /* 2 */
		if (!(((((int)now.aep[0])==((int)t_ep))&&(((int)now.ahold[0])==(0+1)))))
			goto S_653_1;
S_641_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_654_0;
S_653_1: /* 3 */
S_642_0: /* 2 */
		/* else */;
S_651_0: /* 2 */
S_643_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[0]))))
			goto S_651_1;
S_644_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_652_0;
S_651_1: /* 3 */
S_645_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])<=(5+2)))))
			goto S_651_2;
S_646_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_652_0;
S_651_2: /* 3 */
S_647_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])>(5+2)))))
			goto S_651_3;
S_648_0: /* 2 */
		now.aep[0] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[0]", ((int)now.aep[0]));
#endif
		;
S_649_0: /* 2 */
		now.ahold[0] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[0]", ((int)now.ahold[0]));
#endif
		;
S_650_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_652_0;
S_651_3: /* 3 */
		Uerror("blocking sel in d_step (nr.60, near line 219)");
S_652_0: /* 2 */
		goto S_654_0;
S_653_2: /* 3 */
		Uerror("blocking sel in d_step (nr.61, near line 210)");
S_654_0: /* 2 */
S_665_0: /* 2 */
S_655_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_665_1;
S_656_0: /* 2 */
		now.aage[0] = 0;
#ifdef VAR_RANGES
		logval("aage[0]", ((int)now.aage[0]));
#endif
		;
S_661_0: /* 2 */
S_657_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_661_1;
S_658_0: /* 2 */
		now.acf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_662_0;
S_661_1: /* 3 */
S_659_0: /* 2 */
		/* else */;
S_660_0: /* 2 */
		now.acf[0] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_662_0;
S_661_2: /* 3 */
		Uerror("blocking sel in d_step (nr.62, near line 231)");
S_662_0: /* 2 */
		goto S_666_0;
S_665_1: /* 3 */
S_663_0: /* 2 */
		/* else */;
S_664_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_666_0;
S_665_2: /* 3 */
		Uerror("blocking sel in d_step (nr.63, near line 230)");
S_666_0: /* 2 */
		goto S_668_0;
S_667_2: /* 3 */
		Uerror("blocking sel in d_step (nr.64, near line 207)");
S_668_0: /* 2 */
S_673_0: /* 2 */
S_669_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_673_1;
S_670_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_674_0;
S_673_1: /* 3 */
S_671_0: /* 2 */
		/* else */;
S_672_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_674_0;
S_673_2: /* 3 */
		Uerror("blocking sel in d_step (nr.65, near line 235)");
S_674_0: /* 2 */
S_675_0: /* 2 */
		now.rp[ Index(((((0*4)+0)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[0])<<2))|(((int)now.ahold[0])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+0)*2)+0)]", ((int)now.rp[ Index(((((0*4)+0)*2)+0), 16) ]));
#endif
		;
S_676_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_677_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_678_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_679_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_680_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_681_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_682_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 35: // STATE 752 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((0*2)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][752] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_685_0: /* 2 */
		if (!((((int)now.rq[ Index(((((0*2)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_749_0: /* 2 */
S_686_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((0*2)+0)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_687_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_688_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_689_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_690_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_695_0: /* 2 */
S_691_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_695_1;
S_692_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_696_0;
S_695_1: /* 3 */
S_693_0: /* 2 */
		/* else */;
S_694_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_696_0;
S_695_2: /* 3 */
		Uerror("blocking sel in d_step (nr.66, near line 205)");
S_696_0: /* 2 */
S_701_0: /* 2 */
S_697_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_701_1;
S_698_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_702_0;
S_701_1: /* 3 */
S_699_0: /* 2 */
		/* else */;
S_700_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_702_0;
S_701_2: /* 3 */
		Uerror("blocking sel in d_step (nr.67, near line 206)");
S_702_0: /* 2 */
S_733_0: /* 2 */
S_703_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(0!=3)))||((((int)t_max)==2)&&(0!=2))))))
			goto S_733_1;
S_704_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_734_0;
S_733_1: /* 3 */
S_705_0: /* 2 */
		/* else */;
S_719_0: /* 2 */
S_706_0: /* 2 */
		if (!(((((int)now.aep[0])==((int)t_ep))&&(((int)now.ahold[0])==(0+1)))))
			goto S_719_1;
S_707_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_720_0;
S_719_1: /* 3 */
S_708_0: /* 2 */
		/* else */;
S_717_0: /* 2 */
S_709_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[0]))))
			goto S_717_1;
S_710_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_718_0;
S_717_1: /* 3 */
S_711_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])<=(5+2)))))
			goto S_717_2;
S_712_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_718_0;
S_717_2: /* 3 */
S_713_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])>(5+2)))))
			goto S_717_3;
S_714_0: /* 2 */
		now.aep[0] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[0]", ((int)now.aep[0]));
#endif
		;
S_715_0: /* 2 */
		now.ahold[0] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[0]", ((int)now.ahold[0]));
#endif
		;
S_716_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_718_0;
S_717_3: /* 3 */
		Uerror("blocking sel in d_step (nr.68, near line 219)");
S_718_0: /* 2 */
		goto S_720_0;
S_719_2: /* 3 */
		Uerror("blocking sel in d_step (nr.69, near line 210)");
S_720_0: /* 2 */
S_731_0: /* 2 */
S_721_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_731_1;
S_722_0: /* 2 */
		now.aage[0] = 0;
#ifdef VAR_RANGES
		logval("aage[0]", ((int)now.aage[0]));
#endif
		;
S_727_0: /* 2 */
S_723_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_727_1;
S_724_0: /* 2 */
		now.acf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_728_0;
S_727_1: /* 3 */
S_725_0: /* 2 */
		/* else */;
S_726_0: /* 2 */
		now.acf[0] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_728_0;
S_727_2: /* 3 */
		Uerror("blocking sel in d_step (nr.70, near line 231)");
S_728_0: /* 2 */
		goto S_732_0;
S_731_1: /* 3 */
S_729_0: /* 2 */
		/* else */;
S_730_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_732_0;
S_731_2: /* 3 */
		Uerror("blocking sel in d_step (nr.71, near line 230)");
S_732_0: /* 2 */
		goto S_734_0;
S_733_2: /* 3 */
		Uerror("blocking sel in d_step (nr.72, near line 207)");
S_734_0: /* 2 */
S_739_0: /* 2 */
S_735_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_739_1;
S_736_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_740_0;
S_739_1: /* 3 */
S_737_0: /* 2 */
		/* else */;
S_738_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_740_0;
S_739_2: /* 3 */
		Uerror("blocking sel in d_step (nr.73, near line 235)");
S_740_0: /* 2 */
S_741_0: /* 2 */
		now.rp[ Index(((((0*4)+0)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[0])<<2))|(((int)now.ahold[0])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+0)*2)+0)]", ((int)now.rp[ Index(((((0*4)+0)*2)+0), 16) ]));
#endif
		;
S_742_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_743_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_744_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_745_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_746_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_747_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_748_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_750_0;
S_750_0: /* 2 */
		now.rq[ Index(((((0*2)+0)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((0*2)+0)*2)+0)]", ((int)now.rq[ Index(((((0*2)+0)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 36: // STATE 755 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((0*2)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][755] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_752_0: /* 2 */
		if (!((((int)now.rq[ Index(((((0*2)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_753_0: /* 2 */
		now.rq[ Index(((((0*2)+0)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((0*2)+0)*2)+0)]", ((int)now.rq[ Index(((((0*2)+0)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 37: // STATE 821 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((0*2)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][821] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_755_0: /* 2 */
		if (!((((int)now.rq[ Index(((((0*2)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_819_0: /* 2 */
S_756_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((0*2)+0)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_757_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_758_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_759_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_760_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_765_0: /* 2 */
S_761_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_765_1;
S_762_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_766_0;
S_765_1: /* 3 */
S_763_0: /* 2 */
		/* else */;
S_764_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_766_0;
S_765_2: /* 3 */
		Uerror("blocking sel in d_step (nr.74, near line 205)");
S_766_0: /* 2 */
S_771_0: /* 2 */
S_767_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_771_1;
S_768_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_772_0;
S_771_1: /* 3 */
S_769_0: /* 2 */
		/* else */;
S_770_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_772_0;
S_771_2: /* 3 */
		Uerror("blocking sel in d_step (nr.75, near line 206)");
S_772_0: /* 2 */
S_803_0: /* 2 */
S_773_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(0!=3)))||((((int)t_max)==2)&&(0!=2))))))
			goto S_803_1;
S_774_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_804_0;
S_803_1: /* 3 */
S_775_0: /* 2 */
		/* else */;
S_789_0: /* 2 */
S_776_0: /* 2 */
		if (!(((((int)now.aep[0])==((int)t_ep))&&(((int)now.ahold[0])==(0+1)))))
			goto S_789_1;
S_777_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_790_0;
S_789_1: /* 3 */
S_778_0: /* 2 */
		/* else */;
S_787_0: /* 2 */
S_779_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[0]))))
			goto S_787_1;
S_780_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_788_0;
S_787_1: /* 3 */
S_781_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])<=(5+2)))))
			goto S_787_2;
S_782_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_788_0;
S_787_2: /* 3 */
S_783_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])>(5+2)))))
			goto S_787_3;
S_784_0: /* 2 */
		now.aep[0] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[0]", ((int)now.aep[0]));
#endif
		;
S_785_0: /* 2 */
		now.ahold[0] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[0]", ((int)now.ahold[0]));
#endif
		;
S_786_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_788_0;
S_787_3: /* 3 */
		Uerror("blocking sel in d_step (nr.76, near line 219)");
S_788_0: /* 2 */
		goto S_790_0;
S_789_2: /* 3 */
		Uerror("blocking sel in d_step (nr.77, near line 210)");
S_790_0: /* 2 */
S_801_0: /* 2 */
S_791_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_801_1;
S_792_0: /* 2 */
		now.aage[0] = 0;
#ifdef VAR_RANGES
		logval("aage[0]", ((int)now.aage[0]));
#endif
		;
S_797_0: /* 2 */
S_793_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_797_1;
S_794_0: /* 2 */
		now.acf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_798_0;
S_797_1: /* 3 */
S_795_0: /* 2 */
		/* else */;
S_796_0: /* 2 */
		now.acf[0] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_798_0;
S_797_2: /* 3 */
		Uerror("blocking sel in d_step (nr.78, near line 231)");
S_798_0: /* 2 */
		goto S_802_0;
S_801_1: /* 3 */
S_799_0: /* 2 */
		/* else */;
S_800_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_802_0;
S_801_2: /* 3 */
		Uerror("blocking sel in d_step (nr.79, near line 230)");
S_802_0: /* 2 */
		goto S_804_0;
S_803_2: /* 3 */
		Uerror("blocking sel in d_step (nr.80, near line 207)");
S_804_0: /* 2 */
S_809_0: /* 2 */
S_805_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_809_1;
S_806_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_810_0;
S_809_1: /* 3 */
S_807_0: /* 2 */
		/* else */;
S_808_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_810_0;
S_809_2: /* 3 */
		Uerror("blocking sel in d_step (nr.81, near line 235)");
S_810_0: /* 2 */
S_811_0: /* 2 */
		now.rp[ Index(((((0*4)+0)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[0])<<2))|(((int)now.ahold[0])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+0)*2)+1)]", ((int)now.rp[ Index(((((0*4)+0)*2)+1), 16) ]));
#endif
		;
S_812_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_813_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_814_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_815_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_816_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_817_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_818_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 38: // STATE 888 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((0*2)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][888] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_821_0: /* 2 */
		if (!((((int)now.rq[ Index(((((0*2)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_885_0: /* 2 */
S_822_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((0*2)+0)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_823_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_824_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_825_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_826_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_831_0: /* 2 */
S_827_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_831_1;
S_828_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_832_0;
S_831_1: /* 3 */
S_829_0: /* 2 */
		/* else */;
S_830_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_832_0;
S_831_2: /* 3 */
		Uerror("blocking sel in d_step (nr.82, near line 205)");
S_832_0: /* 2 */
S_837_0: /* 2 */
S_833_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_837_1;
S_834_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_838_0;
S_837_1: /* 3 */
S_835_0: /* 2 */
		/* else */;
S_836_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_838_0;
S_837_2: /* 3 */
		Uerror("blocking sel in d_step (nr.83, near line 206)");
S_838_0: /* 2 */
S_869_0: /* 2 */
S_839_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(0!=3)))||((((int)t_max)==2)&&(0!=2))))))
			goto S_869_1;
S_840_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_870_0;
S_869_1: /* 3 */
S_841_0: /* 2 */
		/* else */;
S_855_0: /* 2 */
S_842_0: /* 2 */
		if (!(((((int)now.aep[0])==((int)t_ep))&&(((int)now.ahold[0])==(0+1)))))
			goto S_855_1;
S_843_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_856_0;
S_855_1: /* 3 */
S_844_0: /* 2 */
		/* else */;
S_853_0: /* 2 */
S_845_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[0]))))
			goto S_853_1;
S_846_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_854_0;
S_853_1: /* 3 */
S_847_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])<=(5+2)))))
			goto S_853_2;
S_848_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_854_0;
S_853_2: /* 3 */
S_849_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])>(5+2)))))
			goto S_853_3;
S_850_0: /* 2 */
		now.aep[0] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[0]", ((int)now.aep[0]));
#endif
		;
S_851_0: /* 2 */
		now.ahold[0] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[0]", ((int)now.ahold[0]));
#endif
		;
S_852_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_854_0;
S_853_3: /* 3 */
		Uerror("blocking sel in d_step (nr.84, near line 219)");
S_854_0: /* 2 */
		goto S_856_0;
S_855_2: /* 3 */
		Uerror("blocking sel in d_step (nr.85, near line 210)");
S_856_0: /* 2 */
S_867_0: /* 2 */
S_857_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_867_1;
S_858_0: /* 2 */
		now.aage[0] = 0;
#ifdef VAR_RANGES
		logval("aage[0]", ((int)now.aage[0]));
#endif
		;
S_863_0: /* 2 */
S_859_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_863_1;
S_860_0: /* 2 */
		now.acf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_864_0;
S_863_1: /* 3 */
S_861_0: /* 2 */
		/* else */;
S_862_0: /* 2 */
		now.acf[0] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_864_0;
S_863_2: /* 3 */
		Uerror("blocking sel in d_step (nr.86, near line 231)");
S_864_0: /* 2 */
		goto S_868_0;
S_867_1: /* 3 */
S_865_0: /* 2 */
		/* else */;
S_866_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_868_0;
S_867_2: /* 3 */
		Uerror("blocking sel in d_step (nr.87, near line 230)");
S_868_0: /* 2 */
		goto S_870_0;
S_869_2: /* 3 */
		Uerror("blocking sel in d_step (nr.88, near line 207)");
S_870_0: /* 2 */
S_875_0: /* 2 */
S_871_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_875_1;
S_872_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_876_0;
S_875_1: /* 3 */
S_873_0: /* 2 */
		/* else */;
S_874_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_876_0;
S_875_2: /* 3 */
		Uerror("blocking sel in d_step (nr.89, near line 235)");
S_876_0: /* 2 */
S_877_0: /* 2 */
		now.rp[ Index(((((0*4)+0)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[0])<<2))|(((int)now.ahold[0])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+0)*2)+1)]", ((int)now.rp[ Index(((((0*4)+0)*2)+1), 16) ]));
#endif
		;
S_878_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_879_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_880_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_881_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_882_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_883_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_884_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_886_0;
S_886_0: /* 2 */
		now.rq[ Index(((((0*2)+0)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((0*2)+0)*2)+1)]", ((int)now.rq[ Index(((((0*2)+0)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 39: // STATE 891 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((0*2)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][891] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_888_0: /* 2 */
		if (!((((int)now.rq[ Index(((((0*2)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_889_0: /* 2 */
		now.rq[ Index(((((0*2)+0)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((0*2)+0)*2)+1)]", ((int)now.rq[ Index(((((0*2)+0)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 40: // STATE 957 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((0*2)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][957] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_891_0: /* 2 */
		if (!((((int)now.rq[ Index(((((0*2)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_955_0: /* 2 */
S_892_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((0*2)+1)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_893_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_894_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_895_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_896_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_901_0: /* 2 */
S_897_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_901_1;
S_898_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_902_0;
S_901_1: /* 3 */
S_899_0: /* 2 */
		/* else */;
S_900_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_902_0;
S_901_2: /* 3 */
		Uerror("blocking sel in d_step (nr.90, near line 205)");
S_902_0: /* 2 */
S_907_0: /* 2 */
S_903_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_907_1;
S_904_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_908_0;
S_907_1: /* 3 */
S_905_0: /* 2 */
		/* else */;
S_906_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_908_0;
S_907_2: /* 3 */
		Uerror("blocking sel in d_step (nr.91, near line 206)");
S_908_0: /* 2 */
S_939_0: /* 2 */
S_909_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(0!=3)))||((((int)t_max)==2)&&(0!=2))))))
			goto S_939_1;
S_910_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_940_0;
S_939_1: /* 3 */
S_911_0: /* 2 */
		/* else */;
S_925_0: /* 2 */
S_912_0: /* 2 */
		if (!(((((int)now.aep[0])==((int)t_ep))&&(((int)now.ahold[0])==(1+1)))))
			goto S_925_1;
S_913_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_926_0;
S_925_1: /* 3 */
S_914_0: /* 2 */
		/* else */;
S_923_0: /* 2 */
S_915_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[0]))))
			goto S_923_1;
S_916_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_924_0;
S_923_1: /* 3 */
S_917_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])<=(5+2)))))
			goto S_923_2;
S_918_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_924_0;
S_923_2: /* 3 */
S_919_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])>(5+2)))))
			goto S_923_3;
S_920_0: /* 2 */
		now.aep[0] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[0]", ((int)now.aep[0]));
#endif
		;
S_921_0: /* 2 */
		now.ahold[0] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[0]", ((int)now.ahold[0]));
#endif
		;
S_922_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_924_0;
S_923_3: /* 3 */
		Uerror("blocking sel in d_step (nr.92, near line 219)");
S_924_0: /* 2 */
		goto S_926_0;
S_925_2: /* 3 */
		Uerror("blocking sel in d_step (nr.93, near line 210)");
S_926_0: /* 2 */
S_937_0: /* 2 */
S_927_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_937_1;
S_928_0: /* 2 */
		now.aage[0] = 0;
#ifdef VAR_RANGES
		logval("aage[0]", ((int)now.aage[0]));
#endif
		;
S_933_0: /* 2 */
S_929_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_933_1;
S_930_0: /* 2 */
		now.acf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_934_0;
S_933_1: /* 3 */
S_931_0: /* 2 */
		/* else */;
S_932_0: /* 2 */
		now.acf[0] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_934_0;
S_933_2: /* 3 */
		Uerror("blocking sel in d_step (nr.94, near line 231)");
S_934_0: /* 2 */
		goto S_938_0;
S_937_1: /* 3 */
S_935_0: /* 2 */
		/* else */;
S_936_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_938_0;
S_937_2: /* 3 */
		Uerror("blocking sel in d_step (nr.95, near line 230)");
S_938_0: /* 2 */
		goto S_940_0;
S_939_2: /* 3 */
		Uerror("blocking sel in d_step (nr.96, near line 207)");
S_940_0: /* 2 */
S_945_0: /* 2 */
S_941_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_945_1;
S_942_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_946_0;
S_945_1: /* 3 */
S_943_0: /* 2 */
		/* else */;
S_944_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_946_0;
S_945_2: /* 3 */
		Uerror("blocking sel in d_step (nr.97, near line 235)");
S_946_0: /* 2 */
S_947_0: /* 2 */
		now.rp[ Index(((((1*4)+0)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[0])<<2))|(((int)now.ahold[0])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+0)*2)+0)]", ((int)now.rp[ Index(((((1*4)+0)*2)+0), 16) ]));
#endif
		;
S_948_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_949_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_950_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_951_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_952_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_953_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_954_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 41: // STATE 1024 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((0*2)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][1024] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_957_0: /* 2 */
		if (!((((int)now.rq[ Index(((((0*2)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1021_0: /* 2 */
S_958_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((0*2)+1)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_959_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_960_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_961_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_962_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_967_0: /* 2 */
S_963_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_967_1;
S_964_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_968_0;
S_967_1: /* 3 */
S_965_0: /* 2 */
		/* else */;
S_966_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_968_0;
S_967_2: /* 3 */
		Uerror("blocking sel in d_step (nr.98, near line 205)");
S_968_0: /* 2 */
S_973_0: /* 2 */
S_969_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_973_1;
S_970_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_974_0;
S_973_1: /* 3 */
S_971_0: /* 2 */
		/* else */;
S_972_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_974_0;
S_973_2: /* 3 */
		Uerror("blocking sel in d_step (nr.99, near line 206)");
S_974_0: /* 2 */
S_1005_0: /* 2 */
S_975_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(0!=3)))||((((int)t_max)==2)&&(0!=2))))))
			goto S_1005_1;
S_976_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1006_0;
S_1005_1: /* 3 */
S_977_0: /* 2 */
		/* else */;
S_991_0: /* 2 */
S_978_0: /* 2 */
		if (!(((((int)now.aep[0])==((int)t_ep))&&(((int)now.ahold[0])==(1+1)))))
			goto S_991_1;
S_979_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_992_0;
S_991_1: /* 3 */
S_980_0: /* 2 */
		/* else */;
S_989_0: /* 2 */
S_981_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[0]))))
			goto S_989_1;
S_982_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_990_0;
S_989_1: /* 3 */
S_983_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])<=(5+2)))))
			goto S_989_2;
S_984_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_990_0;
S_989_2: /* 3 */
S_985_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])>(5+2)))))
			goto S_989_3;
S_986_0: /* 2 */
		now.aep[0] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[0]", ((int)now.aep[0]));
#endif
		;
S_987_0: /* 2 */
		now.ahold[0] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[0]", ((int)now.ahold[0]));
#endif
		;
S_988_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_990_0;
S_989_3: /* 3 */
		Uerror("blocking sel in d_step (nr.100, near line 219)");
S_990_0: /* 2 */
		goto S_992_0;
S_991_2: /* 3 */
		Uerror("blocking sel in d_step (nr.101, near line 210)");
S_992_0: /* 2 */
S_1003_0: /* 2 */
S_993_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1003_1;
S_994_0: /* 2 */
		now.aage[0] = 0;
#ifdef VAR_RANGES
		logval("aage[0]", ((int)now.aage[0]));
#endif
		;
S_999_0: /* 2 */
S_995_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_999_1;
S_996_0: /* 2 */
		now.acf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_1000_0;
S_999_1: /* 3 */
S_997_0: /* 2 */
		/* else */;
S_998_0: /* 2 */
		now.acf[0] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_1000_0;
S_999_2: /* 3 */
		Uerror("blocking sel in d_step (nr.102, near line 231)");
S_1000_0: /* 2 */
		goto S_1004_0;
S_1003_1: /* 3 */
S_1001_0: /* 2 */
		/* else */;
S_1002_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1004_0;
S_1003_2: /* 3 */
		Uerror("blocking sel in d_step (nr.103, near line 230)");
S_1004_0: /* 2 */
		goto S_1006_0;
S_1005_2: /* 3 */
		Uerror("blocking sel in d_step (nr.104, near line 207)");
S_1006_0: /* 2 */
S_1011_0: /* 2 */
S_1007_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_1011_1;
S_1008_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1012_0;
S_1011_1: /* 3 */
S_1009_0: /* 2 */
		/* else */;
S_1010_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1012_0;
S_1011_2: /* 3 */
		Uerror("blocking sel in d_step (nr.105, near line 235)");
S_1012_0: /* 2 */
S_1013_0: /* 2 */
		now.rp[ Index(((((1*4)+0)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[0])<<2))|(((int)now.ahold[0])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+0)*2)+0)]", ((int)now.rp[ Index(((((1*4)+0)*2)+0), 16) ]));
#endif
		;
S_1014_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1015_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1016_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1017_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1018_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1019_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1020_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1022_0;
S_1022_0: /* 2 */
		now.rq[ Index(((((0*2)+1)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((0*2)+1)*2)+0)]", ((int)now.rq[ Index(((((0*2)+1)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 42: // STATE 1027 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((0*2)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][1027] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1024_0: /* 2 */
		if (!((((int)now.rq[ Index(((((0*2)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1025_0: /* 2 */
		now.rq[ Index(((((0*2)+1)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((0*2)+1)*2)+0)]", ((int)now.rq[ Index(((((0*2)+1)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 43: // STATE 1093 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((0*2)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][1093] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1027_0: /* 2 */
		if (!((((int)now.rq[ Index(((((0*2)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1091_0: /* 2 */
S_1028_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((0*2)+1)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1029_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1030_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1031_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1032_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1037_0: /* 2 */
S_1033_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_1037_1;
S_1034_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1038_0;
S_1037_1: /* 3 */
S_1035_0: /* 2 */
		/* else */;
S_1036_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1038_0;
S_1037_2: /* 3 */
		Uerror("blocking sel in d_step (nr.106, near line 205)");
S_1038_0: /* 2 */
S_1043_0: /* 2 */
S_1039_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1043_1;
S_1040_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1044_0;
S_1043_1: /* 3 */
S_1041_0: /* 2 */
		/* else */;
S_1042_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1044_0;
S_1043_2: /* 3 */
		Uerror("blocking sel in d_step (nr.107, near line 206)");
S_1044_0: /* 2 */
S_1075_0: /* 2 */
S_1045_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(0!=3)))||((((int)t_max)==2)&&(0!=2))))))
			goto S_1075_1;
S_1046_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1076_0;
S_1075_1: /* 3 */
S_1047_0: /* 2 */
		/* else */;
S_1061_0: /* 2 */
S_1048_0: /* 2 */
		if (!(((((int)now.aep[0])==((int)t_ep))&&(((int)now.ahold[0])==(1+1)))))
			goto S_1061_1;
S_1049_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1062_0;
S_1061_1: /* 3 */
S_1050_0: /* 2 */
		/* else */;
S_1059_0: /* 2 */
S_1051_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[0]))))
			goto S_1059_1;
S_1052_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1060_0;
S_1059_1: /* 3 */
S_1053_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])<=(5+2)))))
			goto S_1059_2;
S_1054_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1060_0;
S_1059_2: /* 3 */
S_1055_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])>(5+2)))))
			goto S_1059_3;
S_1056_0: /* 2 */
		now.aep[0] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[0]", ((int)now.aep[0]));
#endif
		;
S_1057_0: /* 2 */
		now.ahold[0] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[0]", ((int)now.ahold[0]));
#endif
		;
S_1058_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1060_0;
S_1059_3: /* 3 */
		Uerror("blocking sel in d_step (nr.108, near line 219)");
S_1060_0: /* 2 */
		goto S_1062_0;
S_1061_2: /* 3 */
		Uerror("blocking sel in d_step (nr.109, near line 210)");
S_1062_0: /* 2 */
S_1073_0: /* 2 */
S_1063_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1073_1;
S_1064_0: /* 2 */
		now.aage[0] = 0;
#ifdef VAR_RANGES
		logval("aage[0]", ((int)now.aage[0]));
#endif
		;
S_1069_0: /* 2 */
S_1065_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1069_1;
S_1066_0: /* 2 */
		now.acf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_1070_0;
S_1069_1: /* 3 */
S_1067_0: /* 2 */
		/* else */;
S_1068_0: /* 2 */
		now.acf[0] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_1070_0;
S_1069_2: /* 3 */
		Uerror("blocking sel in d_step (nr.110, near line 231)");
S_1070_0: /* 2 */
		goto S_1074_0;
S_1073_1: /* 3 */
S_1071_0: /* 2 */
		/* else */;
S_1072_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1074_0;
S_1073_2: /* 3 */
		Uerror("blocking sel in d_step (nr.111, near line 230)");
S_1074_0: /* 2 */
		goto S_1076_0;
S_1075_2: /* 3 */
		Uerror("blocking sel in d_step (nr.112, near line 207)");
S_1076_0: /* 2 */
S_1081_0: /* 2 */
S_1077_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_1081_1;
S_1078_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1082_0;
S_1081_1: /* 3 */
S_1079_0: /* 2 */
		/* else */;
S_1080_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1082_0;
S_1081_2: /* 3 */
		Uerror("blocking sel in d_step (nr.113, near line 235)");
S_1082_0: /* 2 */
S_1083_0: /* 2 */
		now.rp[ Index(((((1*4)+0)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[0])<<2))|(((int)now.ahold[0])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+0)*2)+1)]", ((int)now.rp[ Index(((((1*4)+0)*2)+1), 16) ]));
#endif
		;
S_1084_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1085_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1086_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1087_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1088_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1089_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1090_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 44: // STATE 1160 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((0*2)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][1160] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1093_0: /* 2 */
		if (!((((int)now.rq[ Index(((((0*2)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1157_0: /* 2 */
S_1094_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((0*2)+1)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1095_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1096_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1097_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1098_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1103_0: /* 2 */
S_1099_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_1103_1;
S_1100_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1104_0;
S_1103_1: /* 3 */
S_1101_0: /* 2 */
		/* else */;
S_1102_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1104_0;
S_1103_2: /* 3 */
		Uerror("blocking sel in d_step (nr.114, near line 205)");
S_1104_0: /* 2 */
S_1109_0: /* 2 */
S_1105_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1109_1;
S_1106_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1110_0;
S_1109_1: /* 3 */
S_1107_0: /* 2 */
		/* else */;
S_1108_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1110_0;
S_1109_2: /* 3 */
		Uerror("blocking sel in d_step (nr.115, near line 206)");
S_1110_0: /* 2 */
S_1141_0: /* 2 */
S_1111_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(0!=3)))||((((int)t_max)==2)&&(0!=2))))))
			goto S_1141_1;
S_1112_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1142_0;
S_1141_1: /* 3 */
S_1113_0: /* 2 */
		/* else */;
S_1127_0: /* 2 */
S_1114_0: /* 2 */
		if (!(((((int)now.aep[0])==((int)t_ep))&&(((int)now.ahold[0])==(1+1)))))
			goto S_1127_1;
S_1115_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1128_0;
S_1127_1: /* 3 */
S_1116_0: /* 2 */
		/* else */;
S_1125_0: /* 2 */
S_1117_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[0]))))
			goto S_1125_1;
S_1118_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1126_0;
S_1125_1: /* 3 */
S_1119_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])<=(5+2)))))
			goto S_1125_2;
S_1120_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1126_0;
S_1125_2: /* 3 */
S_1121_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[0]))&&(((int)now.aage[0])>(5+2)))))
			goto S_1125_3;
S_1122_0: /* 2 */
		now.aep[0] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[0]", ((int)now.aep[0]));
#endif
		;
S_1123_0: /* 2 */
		now.ahold[0] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[0]", ((int)now.ahold[0]));
#endif
		;
S_1124_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1126_0;
S_1125_3: /* 3 */
		Uerror("blocking sel in d_step (nr.116, near line 219)");
S_1126_0: /* 2 */
		goto S_1128_0;
S_1127_2: /* 3 */
		Uerror("blocking sel in d_step (nr.117, near line 210)");
S_1128_0: /* 2 */
S_1139_0: /* 2 */
S_1129_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1139_1;
S_1130_0: /* 2 */
		now.aage[0] = 0;
#ifdef VAR_RANGES
		logval("aage[0]", ((int)now.aage[0]));
#endif
		;
S_1135_0: /* 2 */
S_1131_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1135_1;
S_1132_0: /* 2 */
		now.acf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_1136_0;
S_1135_1: /* 3 */
S_1133_0: /* 2 */
		/* else */;
S_1134_0: /* 2 */
		now.acf[0] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[0]", ((int)now.acf[0]));
#endif
		;
		goto S_1136_0;
S_1135_2: /* 3 */
		Uerror("blocking sel in d_step (nr.118, near line 231)");
S_1136_0: /* 2 */
		goto S_1140_0;
S_1139_1: /* 3 */
S_1137_0: /* 2 */
		/* else */;
S_1138_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1140_0;
S_1139_2: /* 3 */
		Uerror("blocking sel in d_step (nr.119, near line 230)");
S_1140_0: /* 2 */
		goto S_1142_0;
S_1141_2: /* 3 */
		Uerror("blocking sel in d_step (nr.120, near line 207)");
S_1142_0: /* 2 */
S_1147_0: /* 2 */
S_1143_0: /* 2 */
		if (!((((int)now.aep[0])==0)))
			goto S_1147_1;
S_1144_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1148_0;
S_1147_1: /* 3 */
S_1145_0: /* 2 */
		/* else */;
S_1146_0: /* 2 */
		t_acf = ((int)now.acf[0]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1148_0;
S_1147_2: /* 3 */
		Uerror("blocking sel in d_step (nr.121, near line 235)");
S_1148_0: /* 2 */
S_1149_0: /* 2 */
		now.rp[ Index(((((1*4)+0)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[0])<<2))|(((int)now.ahold[0])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+0)*2)+1)]", ((int)now.rp[ Index(((((1*4)+0)*2)+1), 16) ]));
#endif
		;
S_1150_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1151_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1152_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1153_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1154_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1155_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1156_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1158_0;
S_1158_0: /* 2 */
		now.rq[ Index(((((0*2)+1)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((0*2)+1)*2)+1)]", ((int)now.rq[ Index(((((0*2)+1)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 45: // STATE 1163 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((0*2)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][1163] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1160_0: /* 2 */
		if (!((((int)now.rq[ Index(((((0*2)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1161_0: /* 2 */
		now.rq[ Index(((((0*2)+1)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((0*2)+1)*2)+1)]", ((int)now.rq[ Index(((((0*2)+1)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 46: // STATE 1229 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((1*2)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][1229] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1163_0: /* 2 */
		if (!((((int)now.rq[ Index(((((1*2)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1227_0: /* 2 */
S_1164_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((1*2)+0)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1165_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1166_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1167_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1168_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1173_0: /* 2 */
S_1169_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1173_1;
S_1170_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1174_0;
S_1173_1: /* 3 */
S_1171_0: /* 2 */
		/* else */;
S_1172_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1174_0;
S_1173_2: /* 3 */
		Uerror("blocking sel in d_step (nr.122, near line 205)");
S_1174_0: /* 2 */
S_1179_0: /* 2 */
S_1175_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1179_1;
S_1176_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1180_0;
S_1179_1: /* 3 */
S_1177_0: /* 2 */
		/* else */;
S_1178_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1180_0;
S_1179_2: /* 3 */
		Uerror("blocking sel in d_step (nr.123, near line 206)");
S_1180_0: /* 2 */
S_1211_0: /* 2 */
S_1181_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(1!=3)))||((((int)t_max)==2)&&(1!=2))))))
			goto S_1211_1;
S_1182_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1212_0;
S_1211_1: /* 3 */
S_1183_0: /* 2 */
		/* else */;
S_1197_0: /* 2 */
S_1184_0: /* 2 */
		if (!(((((int)now.aep[1])==((int)t_ep))&&(((int)now.ahold[1])==(0+1)))))
			goto S_1197_1;
S_1185_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1198_0;
S_1197_1: /* 3 */
S_1186_0: /* 2 */
		/* else */;
S_1195_0: /* 2 */
S_1187_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[1]))))
			goto S_1195_1;
S_1188_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1196_0;
S_1195_1: /* 3 */
S_1189_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])<=(5+2)))))
			goto S_1195_2;
S_1190_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1196_0;
S_1195_2: /* 3 */
S_1191_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])>(5+2)))))
			goto S_1195_3;
S_1192_0: /* 2 */
		now.aep[1] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[1]", ((int)now.aep[1]));
#endif
		;
S_1193_0: /* 2 */
		now.ahold[1] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[1]", ((int)now.ahold[1]));
#endif
		;
S_1194_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1196_0;
S_1195_3: /* 3 */
		Uerror("blocking sel in d_step (nr.124, near line 219)");
S_1196_0: /* 2 */
		goto S_1198_0;
S_1197_2: /* 3 */
		Uerror("blocking sel in d_step (nr.125, near line 210)");
S_1198_0: /* 2 */
S_1209_0: /* 2 */
S_1199_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1209_1;
S_1200_0: /* 2 */
		now.aage[1] = 0;
#ifdef VAR_RANGES
		logval("aage[1]", ((int)now.aage[1]));
#endif
		;
S_1205_0: /* 2 */
S_1201_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1205_1;
S_1202_0: /* 2 */
		now.acf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1206_0;
S_1205_1: /* 3 */
S_1203_0: /* 2 */
		/* else */;
S_1204_0: /* 2 */
		now.acf[1] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1206_0;
S_1205_2: /* 3 */
		Uerror("blocking sel in d_step (nr.126, near line 231)");
S_1206_0: /* 2 */
		goto S_1210_0;
S_1209_1: /* 3 */
S_1207_0: /* 2 */
		/* else */;
S_1208_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1210_0;
S_1209_2: /* 3 */
		Uerror("blocking sel in d_step (nr.127, near line 230)");
S_1210_0: /* 2 */
		goto S_1212_0;
S_1211_2: /* 3 */
		Uerror("blocking sel in d_step (nr.128, near line 207)");
S_1212_0: /* 2 */
S_1217_0: /* 2 */
S_1213_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1217_1;
S_1214_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1218_0;
S_1217_1: /* 3 */
S_1215_0: /* 2 */
		/* else */;
S_1216_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1218_0;
S_1217_2: /* 3 */
		Uerror("blocking sel in d_step (nr.129, near line 235)");
S_1218_0: /* 2 */
S_1219_0: /* 2 */
		now.rp[ Index(((((0*4)+1)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[1])<<2))|(((int)now.ahold[1])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+1)*2)+0)]", ((int)now.rp[ Index(((((0*4)+1)*2)+0), 16) ]));
#endif
		;
S_1220_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1221_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1222_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1223_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1224_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1225_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1226_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 47: // STATE 1296 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((1*2)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][1296] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1229_0: /* 2 */
		if (!((((int)now.rq[ Index(((((1*2)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1293_0: /* 2 */
S_1230_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((1*2)+0)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1231_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1232_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1233_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1234_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1239_0: /* 2 */
S_1235_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1239_1;
S_1236_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1240_0;
S_1239_1: /* 3 */
S_1237_0: /* 2 */
		/* else */;
S_1238_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1240_0;
S_1239_2: /* 3 */
		Uerror("blocking sel in d_step (nr.130, near line 205)");
S_1240_0: /* 2 */
S_1245_0: /* 2 */
S_1241_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1245_1;
S_1242_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1246_0;
S_1245_1: /* 3 */
S_1243_0: /* 2 */
		/* else */;
S_1244_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1246_0;
S_1245_2: /* 3 */
		Uerror("blocking sel in d_step (nr.131, near line 206)");
S_1246_0: /* 2 */
S_1277_0: /* 2 */
S_1247_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(1!=3)))||((((int)t_max)==2)&&(1!=2))))))
			goto S_1277_1;
S_1248_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1278_0;
S_1277_1: /* 3 */
S_1249_0: /* 2 */
		/* else */;
S_1263_0: /* 2 */
S_1250_0: /* 2 */
		if (!(((((int)now.aep[1])==((int)t_ep))&&(((int)now.ahold[1])==(0+1)))))
			goto S_1263_1;
S_1251_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1264_0;
S_1263_1: /* 3 */
S_1252_0: /* 2 */
		/* else */;
S_1261_0: /* 2 */
S_1253_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[1]))))
			goto S_1261_1;
S_1254_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1262_0;
S_1261_1: /* 3 */
S_1255_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])<=(5+2)))))
			goto S_1261_2;
S_1256_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1262_0;
S_1261_2: /* 3 */
S_1257_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])>(5+2)))))
			goto S_1261_3;
S_1258_0: /* 2 */
		now.aep[1] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[1]", ((int)now.aep[1]));
#endif
		;
S_1259_0: /* 2 */
		now.ahold[1] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[1]", ((int)now.ahold[1]));
#endif
		;
S_1260_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1262_0;
S_1261_3: /* 3 */
		Uerror("blocking sel in d_step (nr.132, near line 219)");
S_1262_0: /* 2 */
		goto S_1264_0;
S_1263_2: /* 3 */
		Uerror("blocking sel in d_step (nr.133, near line 210)");
S_1264_0: /* 2 */
S_1275_0: /* 2 */
S_1265_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1275_1;
S_1266_0: /* 2 */
		now.aage[1] = 0;
#ifdef VAR_RANGES
		logval("aage[1]", ((int)now.aage[1]));
#endif
		;
S_1271_0: /* 2 */
S_1267_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1271_1;
S_1268_0: /* 2 */
		now.acf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1272_0;
S_1271_1: /* 3 */
S_1269_0: /* 2 */
		/* else */;
S_1270_0: /* 2 */
		now.acf[1] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1272_0;
S_1271_2: /* 3 */
		Uerror("blocking sel in d_step (nr.134, near line 231)");
S_1272_0: /* 2 */
		goto S_1276_0;
S_1275_1: /* 3 */
S_1273_0: /* 2 */
		/* else */;
S_1274_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1276_0;
S_1275_2: /* 3 */
		Uerror("blocking sel in d_step (nr.135, near line 230)");
S_1276_0: /* 2 */
		goto S_1278_0;
S_1277_2: /* 3 */
		Uerror("blocking sel in d_step (nr.136, near line 207)");
S_1278_0: /* 2 */
S_1283_0: /* 2 */
S_1279_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1283_1;
S_1280_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1284_0;
S_1283_1: /* 3 */
S_1281_0: /* 2 */
		/* else */;
S_1282_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1284_0;
S_1283_2: /* 3 */
		Uerror("blocking sel in d_step (nr.137, near line 235)");
S_1284_0: /* 2 */
S_1285_0: /* 2 */
		now.rp[ Index(((((0*4)+1)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[1])<<2))|(((int)now.ahold[1])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+1)*2)+0)]", ((int)now.rp[ Index(((((0*4)+1)*2)+0), 16) ]));
#endif
		;
S_1286_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1287_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1288_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1289_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1290_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1291_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1292_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1294_0;
S_1294_0: /* 2 */
		now.rq[ Index(((((1*2)+0)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((1*2)+0)*2)+0)]", ((int)now.rq[ Index(((((1*2)+0)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 48: // STATE 1299 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((1*2)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][1299] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1296_0: /* 2 */
		if (!((((int)now.rq[ Index(((((1*2)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1297_0: /* 2 */
		now.rq[ Index(((((1*2)+0)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((1*2)+0)*2)+0)]", ((int)now.rq[ Index(((((1*2)+0)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 49: // STATE 1365 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((1*2)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][1365] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1299_0: /* 2 */
		if (!((((int)now.rq[ Index(((((1*2)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1363_0: /* 2 */
S_1300_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((1*2)+0)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1301_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1302_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1303_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1304_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1309_0: /* 2 */
S_1305_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1309_1;
S_1306_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1310_0;
S_1309_1: /* 3 */
S_1307_0: /* 2 */
		/* else */;
S_1308_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1310_0;
S_1309_2: /* 3 */
		Uerror("blocking sel in d_step (nr.138, near line 205)");
S_1310_0: /* 2 */
S_1315_0: /* 2 */
S_1311_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1315_1;
S_1312_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1316_0;
S_1315_1: /* 3 */
S_1313_0: /* 2 */
		/* else */;
S_1314_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1316_0;
S_1315_2: /* 3 */
		Uerror("blocking sel in d_step (nr.139, near line 206)");
S_1316_0: /* 2 */
S_1347_0: /* 2 */
S_1317_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(1!=3)))||((((int)t_max)==2)&&(1!=2))))))
			goto S_1347_1;
S_1318_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1348_0;
S_1347_1: /* 3 */
S_1319_0: /* 2 */
		/* else */;
S_1333_0: /* 2 */
S_1320_0: /* 2 */
		if (!(((((int)now.aep[1])==((int)t_ep))&&(((int)now.ahold[1])==(0+1)))))
			goto S_1333_1;
S_1321_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1334_0;
S_1333_1: /* 3 */
S_1322_0: /* 2 */
		/* else */;
S_1331_0: /* 2 */
S_1323_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[1]))))
			goto S_1331_1;
S_1324_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1332_0;
S_1331_1: /* 3 */
S_1325_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])<=(5+2)))))
			goto S_1331_2;
S_1326_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1332_0;
S_1331_2: /* 3 */
S_1327_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])>(5+2)))))
			goto S_1331_3;
S_1328_0: /* 2 */
		now.aep[1] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[1]", ((int)now.aep[1]));
#endif
		;
S_1329_0: /* 2 */
		now.ahold[1] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[1]", ((int)now.ahold[1]));
#endif
		;
S_1330_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1332_0;
S_1331_3: /* 3 */
		Uerror("blocking sel in d_step (nr.140, near line 219)");
S_1332_0: /* 2 */
		goto S_1334_0;
S_1333_2: /* 3 */
		Uerror("blocking sel in d_step (nr.141, near line 210)");
S_1334_0: /* 2 */
S_1345_0: /* 2 */
S_1335_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1345_1;
S_1336_0: /* 2 */
		now.aage[1] = 0;
#ifdef VAR_RANGES
		logval("aage[1]", ((int)now.aage[1]));
#endif
		;
S_1341_0: /* 2 */
S_1337_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1341_1;
S_1338_0: /* 2 */
		now.acf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1342_0;
S_1341_1: /* 3 */
S_1339_0: /* 2 */
		/* else */;
S_1340_0: /* 2 */
		now.acf[1] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1342_0;
S_1341_2: /* 3 */
		Uerror("blocking sel in d_step (nr.142, near line 231)");
S_1342_0: /* 2 */
		goto S_1346_0;
S_1345_1: /* 3 */
S_1343_0: /* 2 */
		/* else */;
S_1344_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1346_0;
S_1345_2: /* 3 */
		Uerror("blocking sel in d_step (nr.143, near line 230)");
S_1346_0: /* 2 */
		goto S_1348_0;
S_1347_2: /* 3 */
		Uerror("blocking sel in d_step (nr.144, near line 207)");
S_1348_0: /* 2 */
S_1353_0: /* 2 */
S_1349_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1353_1;
S_1350_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1354_0;
S_1353_1: /* 3 */
S_1351_0: /* 2 */
		/* else */;
S_1352_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1354_0;
S_1353_2: /* 3 */
		Uerror("blocking sel in d_step (nr.145, near line 235)");
S_1354_0: /* 2 */
S_1355_0: /* 2 */
		now.rp[ Index(((((0*4)+1)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[1])<<2))|(((int)now.ahold[1])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+1)*2)+1)]", ((int)now.rp[ Index(((((0*4)+1)*2)+1), 16) ]));
#endif
		;
S_1356_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1357_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1358_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1359_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1360_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1361_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1362_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 50: // STATE 1432 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((1*2)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][1432] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1365_0: /* 2 */
		if (!((((int)now.rq[ Index(((((1*2)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1429_0: /* 2 */
S_1366_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((1*2)+0)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1367_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1368_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1369_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1370_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1375_0: /* 2 */
S_1371_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1375_1;
S_1372_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1376_0;
S_1375_1: /* 3 */
S_1373_0: /* 2 */
		/* else */;
S_1374_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1376_0;
S_1375_2: /* 3 */
		Uerror("blocking sel in d_step (nr.146, near line 205)");
S_1376_0: /* 2 */
S_1381_0: /* 2 */
S_1377_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1381_1;
S_1378_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1382_0;
S_1381_1: /* 3 */
S_1379_0: /* 2 */
		/* else */;
S_1380_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1382_0;
S_1381_2: /* 3 */
		Uerror("blocking sel in d_step (nr.147, near line 206)");
S_1382_0: /* 2 */
S_1413_0: /* 2 */
S_1383_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(1!=3)))||((((int)t_max)==2)&&(1!=2))))))
			goto S_1413_1;
S_1384_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1414_0;
S_1413_1: /* 3 */
S_1385_0: /* 2 */
		/* else */;
S_1399_0: /* 2 */
S_1386_0: /* 2 */
		if (!(((((int)now.aep[1])==((int)t_ep))&&(((int)now.ahold[1])==(0+1)))))
			goto S_1399_1;
S_1387_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1400_0;
S_1399_1: /* 3 */
S_1388_0: /* 2 */
		/* else */;
S_1397_0: /* 2 */
S_1389_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[1]))))
			goto S_1397_1;
S_1390_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1398_0;
S_1397_1: /* 3 */
S_1391_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])<=(5+2)))))
			goto S_1397_2;
S_1392_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1398_0;
S_1397_2: /* 3 */
S_1393_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])>(5+2)))))
			goto S_1397_3;
S_1394_0: /* 2 */
		now.aep[1] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[1]", ((int)now.aep[1]));
#endif
		;
S_1395_0: /* 2 */
		now.ahold[1] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[1]", ((int)now.ahold[1]));
#endif
		;
S_1396_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1398_0;
S_1397_3: /* 3 */
		Uerror("blocking sel in d_step (nr.148, near line 219)");
S_1398_0: /* 2 */
		goto S_1400_0;
S_1399_2: /* 3 */
		Uerror("blocking sel in d_step (nr.149, near line 210)");
S_1400_0: /* 2 */
S_1411_0: /* 2 */
S_1401_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1411_1;
S_1402_0: /* 2 */
		now.aage[1] = 0;
#ifdef VAR_RANGES
		logval("aage[1]", ((int)now.aage[1]));
#endif
		;
S_1407_0: /* 2 */
S_1403_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1407_1;
S_1404_0: /* 2 */
		now.acf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1408_0;
S_1407_1: /* 3 */
S_1405_0: /* 2 */
		/* else */;
S_1406_0: /* 2 */
		now.acf[1] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1408_0;
S_1407_2: /* 3 */
		Uerror("blocking sel in d_step (nr.150, near line 231)");
S_1408_0: /* 2 */
		goto S_1412_0;
S_1411_1: /* 3 */
S_1409_0: /* 2 */
		/* else */;
S_1410_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1412_0;
S_1411_2: /* 3 */
		Uerror("blocking sel in d_step (nr.151, near line 230)");
S_1412_0: /* 2 */
		goto S_1414_0;
S_1413_2: /* 3 */
		Uerror("blocking sel in d_step (nr.152, near line 207)");
S_1414_0: /* 2 */
S_1419_0: /* 2 */
S_1415_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1419_1;
S_1416_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1420_0;
S_1419_1: /* 3 */
S_1417_0: /* 2 */
		/* else */;
S_1418_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1420_0;
S_1419_2: /* 3 */
		Uerror("blocking sel in d_step (nr.153, near line 235)");
S_1420_0: /* 2 */
S_1421_0: /* 2 */
		now.rp[ Index(((((0*4)+1)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[1])<<2))|(((int)now.ahold[1])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+1)*2)+1)]", ((int)now.rp[ Index(((((0*4)+1)*2)+1), 16) ]));
#endif
		;
S_1422_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1423_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1424_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1425_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1426_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1427_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1428_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1430_0;
S_1430_0: /* 2 */
		now.rq[ Index(((((1*2)+0)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((1*2)+0)*2)+1)]", ((int)now.rq[ Index(((((1*2)+0)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 51: // STATE 1435 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((1*2)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][1435] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1432_0: /* 2 */
		if (!((((int)now.rq[ Index(((((1*2)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1433_0: /* 2 */
		now.rq[ Index(((((1*2)+0)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((1*2)+0)*2)+1)]", ((int)now.rq[ Index(((((1*2)+0)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 52: // STATE 1501 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((1*2)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][1501] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1435_0: /* 2 */
		if (!((((int)now.rq[ Index(((((1*2)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1499_0: /* 2 */
S_1436_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((1*2)+1)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1437_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1438_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1439_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1440_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1445_0: /* 2 */
S_1441_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1445_1;
S_1442_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1446_0;
S_1445_1: /* 3 */
S_1443_0: /* 2 */
		/* else */;
S_1444_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1446_0;
S_1445_2: /* 3 */
		Uerror("blocking sel in d_step (nr.154, near line 205)");
S_1446_0: /* 2 */
S_1451_0: /* 2 */
S_1447_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1451_1;
S_1448_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1452_0;
S_1451_1: /* 3 */
S_1449_0: /* 2 */
		/* else */;
S_1450_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1452_0;
S_1451_2: /* 3 */
		Uerror("blocking sel in d_step (nr.155, near line 206)");
S_1452_0: /* 2 */
S_1483_0: /* 2 */
S_1453_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(1!=3)))||((((int)t_max)==2)&&(1!=2))))))
			goto S_1483_1;
S_1454_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1484_0;
S_1483_1: /* 3 */
S_1455_0: /* 2 */
		/* else */;
S_1469_0: /* 2 */
S_1456_0: /* 2 */
		if (!(((((int)now.aep[1])==((int)t_ep))&&(((int)now.ahold[1])==(1+1)))))
			goto S_1469_1;
S_1457_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1470_0;
S_1469_1: /* 3 */
S_1458_0: /* 2 */
		/* else */;
S_1467_0: /* 2 */
S_1459_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[1]))))
			goto S_1467_1;
S_1460_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1468_0;
S_1467_1: /* 3 */
S_1461_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])<=(5+2)))))
			goto S_1467_2;
S_1462_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1468_0;
S_1467_2: /* 3 */
S_1463_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])>(5+2)))))
			goto S_1467_3;
S_1464_0: /* 2 */
		now.aep[1] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[1]", ((int)now.aep[1]));
#endif
		;
S_1465_0: /* 2 */
		now.ahold[1] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[1]", ((int)now.ahold[1]));
#endif
		;
S_1466_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1468_0;
S_1467_3: /* 3 */
		Uerror("blocking sel in d_step (nr.156, near line 219)");
S_1468_0: /* 2 */
		goto S_1470_0;
S_1469_2: /* 3 */
		Uerror("blocking sel in d_step (nr.157, near line 210)");
S_1470_0: /* 2 */
S_1481_0: /* 2 */
S_1471_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1481_1;
S_1472_0: /* 2 */
		now.aage[1] = 0;
#ifdef VAR_RANGES
		logval("aage[1]", ((int)now.aage[1]));
#endif
		;
S_1477_0: /* 2 */
S_1473_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1477_1;
S_1474_0: /* 2 */
		now.acf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1478_0;
S_1477_1: /* 3 */
S_1475_0: /* 2 */
		/* else */;
S_1476_0: /* 2 */
		now.acf[1] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1478_0;
S_1477_2: /* 3 */
		Uerror("blocking sel in d_step (nr.158, near line 231)");
S_1478_0: /* 2 */
		goto S_1482_0;
S_1481_1: /* 3 */
S_1479_0: /* 2 */
		/* else */;
S_1480_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1482_0;
S_1481_2: /* 3 */
		Uerror("blocking sel in d_step (nr.159, near line 230)");
S_1482_0: /* 2 */
		goto S_1484_0;
S_1483_2: /* 3 */
		Uerror("blocking sel in d_step (nr.160, near line 207)");
S_1484_0: /* 2 */
S_1489_0: /* 2 */
S_1485_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1489_1;
S_1486_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1490_0;
S_1489_1: /* 3 */
S_1487_0: /* 2 */
		/* else */;
S_1488_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1490_0;
S_1489_2: /* 3 */
		Uerror("blocking sel in d_step (nr.161, near line 235)");
S_1490_0: /* 2 */
S_1491_0: /* 2 */
		now.rp[ Index(((((1*4)+1)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[1])<<2))|(((int)now.ahold[1])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+1)*2)+0)]", ((int)now.rp[ Index(((((1*4)+1)*2)+0), 16) ]));
#endif
		;
S_1492_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1493_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1494_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1495_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1496_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1497_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1498_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 53: // STATE 1568 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((1*2)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][1568] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1501_0: /* 2 */
		if (!((((int)now.rq[ Index(((((1*2)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1565_0: /* 2 */
S_1502_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((1*2)+1)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1503_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1504_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1505_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1506_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1511_0: /* 2 */
S_1507_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1511_1;
S_1508_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1512_0;
S_1511_1: /* 3 */
S_1509_0: /* 2 */
		/* else */;
S_1510_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1512_0;
S_1511_2: /* 3 */
		Uerror("blocking sel in d_step (nr.162, near line 205)");
S_1512_0: /* 2 */
S_1517_0: /* 2 */
S_1513_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1517_1;
S_1514_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1518_0;
S_1517_1: /* 3 */
S_1515_0: /* 2 */
		/* else */;
S_1516_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1518_0;
S_1517_2: /* 3 */
		Uerror("blocking sel in d_step (nr.163, near line 206)");
S_1518_0: /* 2 */
S_1549_0: /* 2 */
S_1519_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(1!=3)))||((((int)t_max)==2)&&(1!=2))))))
			goto S_1549_1;
S_1520_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1550_0;
S_1549_1: /* 3 */
S_1521_0: /* 2 */
		/* else */;
S_1535_0: /* 2 */
S_1522_0: /* 2 */
		if (!(((((int)now.aep[1])==((int)t_ep))&&(((int)now.ahold[1])==(1+1)))))
			goto S_1535_1;
S_1523_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1536_0;
S_1535_1: /* 3 */
S_1524_0: /* 2 */
		/* else */;
S_1533_0: /* 2 */
S_1525_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[1]))))
			goto S_1533_1;
S_1526_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1534_0;
S_1533_1: /* 3 */
S_1527_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])<=(5+2)))))
			goto S_1533_2;
S_1528_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1534_0;
S_1533_2: /* 3 */
S_1529_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])>(5+2)))))
			goto S_1533_3;
S_1530_0: /* 2 */
		now.aep[1] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[1]", ((int)now.aep[1]));
#endif
		;
S_1531_0: /* 2 */
		now.ahold[1] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[1]", ((int)now.ahold[1]));
#endif
		;
S_1532_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1534_0;
S_1533_3: /* 3 */
		Uerror("blocking sel in d_step (nr.164, near line 219)");
S_1534_0: /* 2 */
		goto S_1536_0;
S_1535_2: /* 3 */
		Uerror("blocking sel in d_step (nr.165, near line 210)");
S_1536_0: /* 2 */
S_1547_0: /* 2 */
S_1537_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1547_1;
S_1538_0: /* 2 */
		now.aage[1] = 0;
#ifdef VAR_RANGES
		logval("aage[1]", ((int)now.aage[1]));
#endif
		;
S_1543_0: /* 2 */
S_1539_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1543_1;
S_1540_0: /* 2 */
		now.acf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1544_0;
S_1543_1: /* 3 */
S_1541_0: /* 2 */
		/* else */;
S_1542_0: /* 2 */
		now.acf[1] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1544_0;
S_1543_2: /* 3 */
		Uerror("blocking sel in d_step (nr.166, near line 231)");
S_1544_0: /* 2 */
		goto S_1548_0;
S_1547_1: /* 3 */
S_1545_0: /* 2 */
		/* else */;
S_1546_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1548_0;
S_1547_2: /* 3 */
		Uerror("blocking sel in d_step (nr.167, near line 230)");
S_1548_0: /* 2 */
		goto S_1550_0;
S_1549_2: /* 3 */
		Uerror("blocking sel in d_step (nr.168, near line 207)");
S_1550_0: /* 2 */
S_1555_0: /* 2 */
S_1551_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1555_1;
S_1552_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1556_0;
S_1555_1: /* 3 */
S_1553_0: /* 2 */
		/* else */;
S_1554_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1556_0;
S_1555_2: /* 3 */
		Uerror("blocking sel in d_step (nr.169, near line 235)");
S_1556_0: /* 2 */
S_1557_0: /* 2 */
		now.rp[ Index(((((1*4)+1)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[1])<<2))|(((int)now.ahold[1])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+1)*2)+0)]", ((int)now.rp[ Index(((((1*4)+1)*2)+0), 16) ]));
#endif
		;
S_1558_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1559_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1560_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1561_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1562_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1563_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1564_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1566_0;
S_1566_0: /* 2 */
		now.rq[ Index(((((1*2)+1)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((1*2)+1)*2)+0)]", ((int)now.rq[ Index(((((1*2)+1)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 54: // STATE 1571 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((1*2)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][1571] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1568_0: /* 2 */
		if (!((((int)now.rq[ Index(((((1*2)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1569_0: /* 2 */
		now.rq[ Index(((((1*2)+1)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((1*2)+1)*2)+0)]", ((int)now.rq[ Index(((((1*2)+1)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 55: // STATE 1637 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((1*2)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][1637] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1571_0: /* 2 */
		if (!((((int)now.rq[ Index(((((1*2)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1635_0: /* 2 */
S_1572_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((1*2)+1)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1573_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1574_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1575_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1576_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1581_0: /* 2 */
S_1577_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1581_1;
S_1578_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1582_0;
S_1581_1: /* 3 */
S_1579_0: /* 2 */
		/* else */;
S_1580_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1582_0;
S_1581_2: /* 3 */
		Uerror("blocking sel in d_step (nr.170, near line 205)");
S_1582_0: /* 2 */
S_1587_0: /* 2 */
S_1583_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1587_1;
S_1584_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1588_0;
S_1587_1: /* 3 */
S_1585_0: /* 2 */
		/* else */;
S_1586_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1588_0;
S_1587_2: /* 3 */
		Uerror("blocking sel in d_step (nr.171, near line 206)");
S_1588_0: /* 2 */
S_1619_0: /* 2 */
S_1589_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(1!=3)))||((((int)t_max)==2)&&(1!=2))))))
			goto S_1619_1;
S_1590_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1620_0;
S_1619_1: /* 3 */
S_1591_0: /* 2 */
		/* else */;
S_1605_0: /* 2 */
S_1592_0: /* 2 */
		if (!(((((int)now.aep[1])==((int)t_ep))&&(((int)now.ahold[1])==(1+1)))))
			goto S_1605_1;
S_1593_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1606_0;
S_1605_1: /* 3 */
S_1594_0: /* 2 */
		/* else */;
S_1603_0: /* 2 */
S_1595_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[1]))))
			goto S_1603_1;
S_1596_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1604_0;
S_1603_1: /* 3 */
S_1597_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])<=(5+2)))))
			goto S_1603_2;
S_1598_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1604_0;
S_1603_2: /* 3 */
S_1599_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])>(5+2)))))
			goto S_1603_3;
S_1600_0: /* 2 */
		now.aep[1] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[1]", ((int)now.aep[1]));
#endif
		;
S_1601_0: /* 2 */
		now.ahold[1] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[1]", ((int)now.ahold[1]));
#endif
		;
S_1602_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1604_0;
S_1603_3: /* 3 */
		Uerror("blocking sel in d_step (nr.172, near line 219)");
S_1604_0: /* 2 */
		goto S_1606_0;
S_1605_2: /* 3 */
		Uerror("blocking sel in d_step (nr.173, near line 210)");
S_1606_0: /* 2 */
S_1617_0: /* 2 */
S_1607_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1617_1;
S_1608_0: /* 2 */
		now.aage[1] = 0;
#ifdef VAR_RANGES
		logval("aage[1]", ((int)now.aage[1]));
#endif
		;
S_1613_0: /* 2 */
S_1609_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1613_1;
S_1610_0: /* 2 */
		now.acf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1614_0;
S_1613_1: /* 3 */
S_1611_0: /* 2 */
		/* else */;
S_1612_0: /* 2 */
		now.acf[1] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1614_0;
S_1613_2: /* 3 */
		Uerror("blocking sel in d_step (nr.174, near line 231)");
S_1614_0: /* 2 */
		goto S_1618_0;
S_1617_1: /* 3 */
S_1615_0: /* 2 */
		/* else */;
S_1616_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1618_0;
S_1617_2: /* 3 */
		Uerror("blocking sel in d_step (nr.175, near line 230)");
S_1618_0: /* 2 */
		goto S_1620_0;
S_1619_2: /* 3 */
		Uerror("blocking sel in d_step (nr.176, near line 207)");
S_1620_0: /* 2 */
S_1625_0: /* 2 */
S_1621_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1625_1;
S_1622_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1626_0;
S_1625_1: /* 3 */
S_1623_0: /* 2 */
		/* else */;
S_1624_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1626_0;
S_1625_2: /* 3 */
		Uerror("blocking sel in d_step (nr.177, near line 235)");
S_1626_0: /* 2 */
S_1627_0: /* 2 */
		now.rp[ Index(((((1*4)+1)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[1])<<2))|(((int)now.ahold[1])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+1)*2)+1)]", ((int)now.rp[ Index(((((1*4)+1)*2)+1), 16) ]));
#endif
		;
S_1628_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1629_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1630_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1631_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1632_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1633_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1634_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 56: // STATE 1704 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((1*2)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][1704] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1637_0: /* 2 */
		if (!((((int)now.rq[ Index(((((1*2)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1701_0: /* 2 */
S_1638_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((1*2)+1)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1639_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1640_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1641_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1642_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1647_0: /* 2 */
S_1643_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1647_1;
S_1644_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1648_0;
S_1647_1: /* 3 */
S_1645_0: /* 2 */
		/* else */;
S_1646_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1648_0;
S_1647_2: /* 3 */
		Uerror("blocking sel in d_step (nr.178, near line 205)");
S_1648_0: /* 2 */
S_1653_0: /* 2 */
S_1649_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1653_1;
S_1650_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1654_0;
S_1653_1: /* 3 */
S_1651_0: /* 2 */
		/* else */;
S_1652_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1654_0;
S_1653_2: /* 3 */
		Uerror("blocking sel in d_step (nr.179, near line 206)");
S_1654_0: /* 2 */
S_1685_0: /* 2 */
S_1655_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(1!=3)))||((((int)t_max)==2)&&(1!=2))))))
			goto S_1685_1;
S_1656_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1686_0;
S_1685_1: /* 3 */
S_1657_0: /* 2 */
		/* else */;
S_1671_0: /* 2 */
S_1658_0: /* 2 */
		if (!(((((int)now.aep[1])==((int)t_ep))&&(((int)now.ahold[1])==(1+1)))))
			goto S_1671_1;
S_1659_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1672_0;
S_1671_1: /* 3 */
S_1660_0: /* 2 */
		/* else */;
S_1669_0: /* 2 */
S_1661_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[1]))))
			goto S_1669_1;
S_1662_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1670_0;
S_1669_1: /* 3 */
S_1663_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])<=(5+2)))))
			goto S_1669_2;
S_1664_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1670_0;
S_1669_2: /* 3 */
S_1665_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[1]))&&(((int)now.aage[1])>(5+2)))))
			goto S_1669_3;
S_1666_0: /* 2 */
		now.aep[1] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[1]", ((int)now.aep[1]));
#endif
		;
S_1667_0: /* 2 */
		now.ahold[1] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[1]", ((int)now.ahold[1]));
#endif
		;
S_1668_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1670_0;
S_1669_3: /* 3 */
		Uerror("blocking sel in d_step (nr.180, near line 219)");
S_1670_0: /* 2 */
		goto S_1672_0;
S_1671_2: /* 3 */
		Uerror("blocking sel in d_step (nr.181, near line 210)");
S_1672_0: /* 2 */
S_1683_0: /* 2 */
S_1673_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1683_1;
S_1674_0: /* 2 */
		now.aage[1] = 0;
#ifdef VAR_RANGES
		logval("aage[1]", ((int)now.aage[1]));
#endif
		;
S_1679_0: /* 2 */
S_1675_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1679_1;
S_1676_0: /* 2 */
		now.acf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1680_0;
S_1679_1: /* 3 */
S_1677_0: /* 2 */
		/* else */;
S_1678_0: /* 2 */
		now.acf[1] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[1]", ((int)now.acf[1]));
#endif
		;
		goto S_1680_0;
S_1679_2: /* 3 */
		Uerror("blocking sel in d_step (nr.182, near line 231)");
S_1680_0: /* 2 */
		goto S_1684_0;
S_1683_1: /* 3 */
S_1681_0: /* 2 */
		/* else */;
S_1682_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1684_0;
S_1683_2: /* 3 */
		Uerror("blocking sel in d_step (nr.183, near line 230)");
S_1684_0: /* 2 */
		goto S_1686_0;
S_1685_2: /* 3 */
		Uerror("blocking sel in d_step (nr.184, near line 207)");
S_1686_0: /* 2 */
S_1691_0: /* 2 */
S_1687_0: /* 2 */
		if (!((((int)now.aep[1])==0)))
			goto S_1691_1;
S_1688_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1692_0;
S_1691_1: /* 3 */
S_1689_0: /* 2 */
		/* else */;
S_1690_0: /* 2 */
		t_acf = ((int)now.acf[1]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1692_0;
S_1691_2: /* 3 */
		Uerror("blocking sel in d_step (nr.185, near line 235)");
S_1692_0: /* 2 */
S_1693_0: /* 2 */
		now.rp[ Index(((((1*4)+1)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[1])<<2))|(((int)now.ahold[1])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+1)*2)+1)]", ((int)now.rp[ Index(((((1*4)+1)*2)+1), 16) ]));
#endif
		;
S_1694_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1695_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1696_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1697_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1698_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1699_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1700_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1702_0;
S_1702_0: /* 2 */
		now.rq[ Index(((((1*2)+1)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((1*2)+1)*2)+1)]", ((int)now.rq[ Index(((((1*2)+1)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 57: // STATE 1707 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((1*2)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][1707] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1704_0: /* 2 */
		if (!((((int)now.rq[ Index(((((1*2)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1705_0: /* 2 */
		now.rq[ Index(((((1*2)+1)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((1*2)+1)*2)+1)]", ((int)now.rq[ Index(((((1*2)+1)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 58: // STATE 1773 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((2*2)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][1773] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1707_0: /* 2 */
		if (!((((int)now.rq[ Index(((((2*2)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1771_0: /* 2 */
S_1708_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((2*2)+0)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1709_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1710_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1711_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1712_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1717_0: /* 2 */
S_1713_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_1717_1;
S_1714_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1718_0;
S_1717_1: /* 3 */
S_1715_0: /* 2 */
		/* else */;
S_1716_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1718_0;
S_1717_2: /* 3 */
		Uerror("blocking sel in d_step (nr.186, near line 205)");
S_1718_0: /* 2 */
S_1723_0: /* 2 */
S_1719_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1723_1;
S_1720_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1724_0;
S_1723_1: /* 3 */
S_1721_0: /* 2 */
		/* else */;
S_1722_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1724_0;
S_1723_2: /* 3 */
		Uerror("blocking sel in d_step (nr.187, near line 206)");
S_1724_0: /* 2 */
S_1755_0: /* 2 */
S_1725_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(2!=3)))||((((int)t_max)==2)&&(2!=2))))))
			goto S_1755_1;
S_1726_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1756_0;
S_1755_1: /* 3 */
S_1727_0: /* 2 */
		/* else */;
S_1741_0: /* 2 */
S_1728_0: /* 2 */
		if (!(((((int)now.aep[2])==((int)t_ep))&&(((int)now.ahold[2])==(0+1)))))
			goto S_1741_1;
S_1729_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1742_0;
S_1741_1: /* 3 */
S_1730_0: /* 2 */
		/* else */;
S_1739_0: /* 2 */
S_1731_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[2]))))
			goto S_1739_1;
S_1732_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1740_0;
S_1739_1: /* 3 */
S_1733_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])<=(5+2)))))
			goto S_1739_2;
S_1734_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1740_0;
S_1739_2: /* 3 */
S_1735_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])>(5+2)))))
			goto S_1739_3;
S_1736_0: /* 2 */
		now.aep[2] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[2]", ((int)now.aep[2]));
#endif
		;
S_1737_0: /* 2 */
		now.ahold[2] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[2]", ((int)now.ahold[2]));
#endif
		;
S_1738_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1740_0;
S_1739_3: /* 3 */
		Uerror("blocking sel in d_step (nr.188, near line 219)");
S_1740_0: /* 2 */
		goto S_1742_0;
S_1741_2: /* 3 */
		Uerror("blocking sel in d_step (nr.189, near line 210)");
S_1742_0: /* 2 */
S_1753_0: /* 2 */
S_1743_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1753_1;
S_1744_0: /* 2 */
		now.aage[2] = 0;
#ifdef VAR_RANGES
		logval("aage[2]", ((int)now.aage[2]));
#endif
		;
S_1749_0: /* 2 */
S_1745_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1749_1;
S_1746_0: /* 2 */
		now.acf[2] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_1750_0;
S_1749_1: /* 3 */
S_1747_0: /* 2 */
		/* else */;
S_1748_0: /* 2 */
		now.acf[2] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_1750_0;
S_1749_2: /* 3 */
		Uerror("blocking sel in d_step (nr.190, near line 231)");
S_1750_0: /* 2 */
		goto S_1754_0;
S_1753_1: /* 3 */
S_1751_0: /* 2 */
		/* else */;
S_1752_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1754_0;
S_1753_2: /* 3 */
		Uerror("blocking sel in d_step (nr.191, near line 230)");
S_1754_0: /* 2 */
		goto S_1756_0;
S_1755_2: /* 3 */
		Uerror("blocking sel in d_step (nr.192, near line 207)");
S_1756_0: /* 2 */
S_1761_0: /* 2 */
S_1757_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_1761_1;
S_1758_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1762_0;
S_1761_1: /* 3 */
S_1759_0: /* 2 */
		/* else */;
S_1760_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1762_0;
S_1761_2: /* 3 */
		Uerror("blocking sel in d_step (nr.193, near line 235)");
S_1762_0: /* 2 */
S_1763_0: /* 2 */
		now.rp[ Index(((((0*4)+2)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[2])<<2))|(((int)now.ahold[2])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+2)*2)+0)]", ((int)now.rp[ Index(((((0*4)+2)*2)+0), 16) ]));
#endif
		;
S_1764_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1765_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1766_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1767_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1768_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1769_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1770_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 59: // STATE 1840 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((2*2)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][1840] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1773_0: /* 2 */
		if (!((((int)now.rq[ Index(((((2*2)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1837_0: /* 2 */
S_1774_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((2*2)+0)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1775_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1776_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1777_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1778_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1783_0: /* 2 */
S_1779_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_1783_1;
S_1780_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1784_0;
S_1783_1: /* 3 */
S_1781_0: /* 2 */
		/* else */;
S_1782_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1784_0;
S_1783_2: /* 3 */
		Uerror("blocking sel in d_step (nr.194, near line 205)");
S_1784_0: /* 2 */
S_1789_0: /* 2 */
S_1785_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1789_1;
S_1786_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1790_0;
S_1789_1: /* 3 */
S_1787_0: /* 2 */
		/* else */;
S_1788_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1790_0;
S_1789_2: /* 3 */
		Uerror("blocking sel in d_step (nr.195, near line 206)");
S_1790_0: /* 2 */
S_1821_0: /* 2 */
S_1791_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(2!=3)))||((((int)t_max)==2)&&(2!=2))))))
			goto S_1821_1;
S_1792_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1822_0;
S_1821_1: /* 3 */
S_1793_0: /* 2 */
		/* else */;
S_1807_0: /* 2 */
S_1794_0: /* 2 */
		if (!(((((int)now.aep[2])==((int)t_ep))&&(((int)now.ahold[2])==(0+1)))))
			goto S_1807_1;
S_1795_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1808_0;
S_1807_1: /* 3 */
S_1796_0: /* 2 */
		/* else */;
S_1805_0: /* 2 */
S_1797_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[2]))))
			goto S_1805_1;
S_1798_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1806_0;
S_1805_1: /* 3 */
S_1799_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])<=(5+2)))))
			goto S_1805_2;
S_1800_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1806_0;
S_1805_2: /* 3 */
S_1801_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])>(5+2)))))
			goto S_1805_3;
S_1802_0: /* 2 */
		now.aep[2] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[2]", ((int)now.aep[2]));
#endif
		;
S_1803_0: /* 2 */
		now.ahold[2] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[2]", ((int)now.ahold[2]));
#endif
		;
S_1804_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1806_0;
S_1805_3: /* 3 */
		Uerror("blocking sel in d_step (nr.196, near line 219)");
S_1806_0: /* 2 */
		goto S_1808_0;
S_1807_2: /* 3 */
		Uerror("blocking sel in d_step (nr.197, near line 210)");
S_1808_0: /* 2 */
S_1819_0: /* 2 */
S_1809_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1819_1;
S_1810_0: /* 2 */
		now.aage[2] = 0;
#ifdef VAR_RANGES
		logval("aage[2]", ((int)now.aage[2]));
#endif
		;
S_1815_0: /* 2 */
S_1811_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1815_1;
S_1812_0: /* 2 */
		now.acf[2] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_1816_0;
S_1815_1: /* 3 */
S_1813_0: /* 2 */
		/* else */;
S_1814_0: /* 2 */
		now.acf[2] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_1816_0;
S_1815_2: /* 3 */
		Uerror("blocking sel in d_step (nr.198, near line 231)");
S_1816_0: /* 2 */
		goto S_1820_0;
S_1819_1: /* 3 */
S_1817_0: /* 2 */
		/* else */;
S_1818_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1820_0;
S_1819_2: /* 3 */
		Uerror("blocking sel in d_step (nr.199, near line 230)");
S_1820_0: /* 2 */
		goto S_1822_0;
S_1821_2: /* 3 */
		Uerror("blocking sel in d_step (nr.200, near line 207)");
S_1822_0: /* 2 */
S_1827_0: /* 2 */
S_1823_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_1827_1;
S_1824_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1828_0;
S_1827_1: /* 3 */
S_1825_0: /* 2 */
		/* else */;
S_1826_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1828_0;
S_1827_2: /* 3 */
		Uerror("blocking sel in d_step (nr.201, near line 235)");
S_1828_0: /* 2 */
S_1829_0: /* 2 */
		now.rp[ Index(((((0*4)+2)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[2])<<2))|(((int)now.ahold[2])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+2)*2)+0)]", ((int)now.rp[ Index(((((0*4)+2)*2)+0), 16) ]));
#endif
		;
S_1830_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1831_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1832_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1833_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1834_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1835_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1836_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1838_0;
S_1838_0: /* 2 */
		now.rq[ Index(((((2*2)+0)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((2*2)+0)*2)+0)]", ((int)now.rq[ Index(((((2*2)+0)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 60: // STATE 1843 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((2*2)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][1843] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1840_0: /* 2 */
		if (!((((int)now.rq[ Index(((((2*2)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1841_0: /* 2 */
		now.rq[ Index(((((2*2)+0)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((2*2)+0)*2)+0)]", ((int)now.rq[ Index(((((2*2)+0)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 61: // STATE 1909 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((2*2)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][1909] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1843_0: /* 2 */
		if (!((((int)now.rq[ Index(((((2*2)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1907_0: /* 2 */
S_1844_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((2*2)+0)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1845_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1846_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1847_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1848_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1853_0: /* 2 */
S_1849_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_1853_1;
S_1850_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1854_0;
S_1853_1: /* 3 */
S_1851_0: /* 2 */
		/* else */;
S_1852_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1854_0;
S_1853_2: /* 3 */
		Uerror("blocking sel in d_step (nr.202, near line 205)");
S_1854_0: /* 2 */
S_1859_0: /* 2 */
S_1855_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1859_1;
S_1856_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1860_0;
S_1859_1: /* 3 */
S_1857_0: /* 2 */
		/* else */;
S_1858_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1860_0;
S_1859_2: /* 3 */
		Uerror("blocking sel in d_step (nr.203, near line 206)");
S_1860_0: /* 2 */
S_1891_0: /* 2 */
S_1861_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(2!=3)))||((((int)t_max)==2)&&(2!=2))))))
			goto S_1891_1;
S_1862_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1892_0;
S_1891_1: /* 3 */
S_1863_0: /* 2 */
		/* else */;
S_1877_0: /* 2 */
S_1864_0: /* 2 */
		if (!(((((int)now.aep[2])==((int)t_ep))&&(((int)now.ahold[2])==(0+1)))))
			goto S_1877_1;
S_1865_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1878_0;
S_1877_1: /* 3 */
S_1866_0: /* 2 */
		/* else */;
S_1875_0: /* 2 */
S_1867_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[2]))))
			goto S_1875_1;
S_1868_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1876_0;
S_1875_1: /* 3 */
S_1869_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])<=(5+2)))))
			goto S_1875_2;
S_1870_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1876_0;
S_1875_2: /* 3 */
S_1871_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])>(5+2)))))
			goto S_1875_3;
S_1872_0: /* 2 */
		now.aep[2] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[2]", ((int)now.aep[2]));
#endif
		;
S_1873_0: /* 2 */
		now.ahold[2] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[2]", ((int)now.ahold[2]));
#endif
		;
S_1874_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1876_0;
S_1875_3: /* 3 */
		Uerror("blocking sel in d_step (nr.204, near line 219)");
S_1876_0: /* 2 */
		goto S_1878_0;
S_1877_2: /* 3 */
		Uerror("blocking sel in d_step (nr.205, near line 210)");
S_1878_0: /* 2 */
S_1889_0: /* 2 */
S_1879_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1889_1;
S_1880_0: /* 2 */
		now.aage[2] = 0;
#ifdef VAR_RANGES
		logval("aage[2]", ((int)now.aage[2]));
#endif
		;
S_1885_0: /* 2 */
S_1881_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1885_1;
S_1882_0: /* 2 */
		now.acf[2] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_1886_0;
S_1885_1: /* 3 */
S_1883_0: /* 2 */
		/* else */;
S_1884_0: /* 2 */
		now.acf[2] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_1886_0;
S_1885_2: /* 3 */
		Uerror("blocking sel in d_step (nr.206, near line 231)");
S_1886_0: /* 2 */
		goto S_1890_0;
S_1889_1: /* 3 */
S_1887_0: /* 2 */
		/* else */;
S_1888_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1890_0;
S_1889_2: /* 3 */
		Uerror("blocking sel in d_step (nr.207, near line 230)");
S_1890_0: /* 2 */
		goto S_1892_0;
S_1891_2: /* 3 */
		Uerror("blocking sel in d_step (nr.208, near line 207)");
S_1892_0: /* 2 */
S_1897_0: /* 2 */
S_1893_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_1897_1;
S_1894_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1898_0;
S_1897_1: /* 3 */
S_1895_0: /* 2 */
		/* else */;
S_1896_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1898_0;
S_1897_2: /* 3 */
		Uerror("blocking sel in d_step (nr.209, near line 235)");
S_1898_0: /* 2 */
S_1899_0: /* 2 */
		now.rp[ Index(((((0*4)+2)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[2])<<2))|(((int)now.ahold[2])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+2)*2)+1)]", ((int)now.rp[ Index(((((0*4)+2)*2)+1), 16) ]));
#endif
		;
S_1900_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1901_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1902_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1903_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1904_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1905_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1906_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 62: // STATE 1976 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((2*2)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][1976] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1909_0: /* 2 */
		if (!((((int)now.rq[ Index(((((2*2)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1973_0: /* 2 */
S_1910_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((2*2)+0)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1911_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1912_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1913_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1914_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1919_0: /* 2 */
S_1915_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_1919_1;
S_1916_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1920_0;
S_1919_1: /* 3 */
S_1917_0: /* 2 */
		/* else */;
S_1918_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1920_0;
S_1919_2: /* 3 */
		Uerror("blocking sel in d_step (nr.210, near line 205)");
S_1920_0: /* 2 */
S_1925_0: /* 2 */
S_1921_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1925_1;
S_1922_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1926_0;
S_1925_1: /* 3 */
S_1923_0: /* 2 */
		/* else */;
S_1924_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1926_0;
S_1925_2: /* 3 */
		Uerror("blocking sel in d_step (nr.211, near line 206)");
S_1926_0: /* 2 */
S_1957_0: /* 2 */
S_1927_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(2!=3)))||((((int)t_max)==2)&&(2!=2))))))
			goto S_1957_1;
S_1928_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1958_0;
S_1957_1: /* 3 */
S_1929_0: /* 2 */
		/* else */;
S_1943_0: /* 2 */
S_1930_0: /* 2 */
		if (!(((((int)now.aep[2])==((int)t_ep))&&(((int)now.ahold[2])==(0+1)))))
			goto S_1943_1;
S_1931_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1944_0;
S_1943_1: /* 3 */
S_1932_0: /* 2 */
		/* else */;
S_1941_0: /* 2 */
S_1933_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[2]))))
			goto S_1941_1;
S_1934_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1942_0;
S_1941_1: /* 3 */
S_1935_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])<=(5+2)))))
			goto S_1941_2;
S_1936_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1942_0;
S_1941_2: /* 3 */
S_1937_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])>(5+2)))))
			goto S_1941_3;
S_1938_0: /* 2 */
		now.aep[2] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[2]", ((int)now.aep[2]));
#endif
		;
S_1939_0: /* 2 */
		now.ahold[2] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[2]", ((int)now.ahold[2]));
#endif
		;
S_1940_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_1942_0;
S_1941_3: /* 3 */
		Uerror("blocking sel in d_step (nr.212, near line 219)");
S_1942_0: /* 2 */
		goto S_1944_0;
S_1943_2: /* 3 */
		Uerror("blocking sel in d_step (nr.213, near line 210)");
S_1944_0: /* 2 */
S_1955_0: /* 2 */
S_1945_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_1955_1;
S_1946_0: /* 2 */
		now.aage[2] = 0;
#ifdef VAR_RANGES
		logval("aage[2]", ((int)now.aage[2]));
#endif
		;
S_1951_0: /* 2 */
S_1947_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1951_1;
S_1948_0: /* 2 */
		now.acf[2] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_1952_0;
S_1951_1: /* 3 */
S_1949_0: /* 2 */
		/* else */;
S_1950_0: /* 2 */
		now.acf[2] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_1952_0;
S_1951_2: /* 3 */
		Uerror("blocking sel in d_step (nr.214, near line 231)");
S_1952_0: /* 2 */
		goto S_1956_0;
S_1955_1: /* 3 */
S_1953_0: /* 2 */
		/* else */;
S_1954_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_1956_0;
S_1955_2: /* 3 */
		Uerror("blocking sel in d_step (nr.215, near line 230)");
S_1956_0: /* 2 */
		goto S_1958_0;
S_1957_2: /* 3 */
		Uerror("blocking sel in d_step (nr.216, near line 207)");
S_1958_0: /* 2 */
S_1963_0: /* 2 */
S_1959_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_1963_1;
S_1960_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1964_0;
S_1963_1: /* 3 */
S_1961_0: /* 2 */
		/* else */;
S_1962_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1964_0;
S_1963_2: /* 3 */
		Uerror("blocking sel in d_step (nr.217, near line 235)");
S_1964_0: /* 2 */
S_1965_0: /* 2 */
		now.rp[ Index(((((0*4)+2)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[2])<<2))|(((int)now.ahold[2])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+2)*2)+1)]", ((int)now.rp[ Index(((((0*4)+2)*2)+1), 16) ]));
#endif
		;
S_1966_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1967_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1968_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1969_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1970_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1971_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_1972_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1974_0;
S_1974_0: /* 2 */
		now.rq[ Index(((((2*2)+0)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((2*2)+0)*2)+1)]", ((int)now.rq[ Index(((((2*2)+0)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 63: // STATE 1979 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((2*2)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][1979] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1976_0: /* 2 */
		if (!((((int)now.rq[ Index(((((2*2)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_1977_0: /* 2 */
		now.rq[ Index(((((2*2)+0)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((2*2)+0)*2)+1)]", ((int)now.rq[ Index(((((2*2)+0)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 64: // STATE 2045 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((2*2)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][2045] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_1979_0: /* 2 */
		if (!((((int)now.rq[ Index(((((2*2)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2043_0: /* 2 */
S_1980_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((2*2)+1)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_1981_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_1982_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_1983_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_1984_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_1989_0: /* 2 */
S_1985_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_1989_1;
S_1986_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1990_0;
S_1989_1: /* 3 */
S_1987_0: /* 2 */
		/* else */;
S_1988_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_1990_0;
S_1989_2: /* 3 */
		Uerror("blocking sel in d_step (nr.218, near line 205)");
S_1990_0: /* 2 */
S_1995_0: /* 2 */
S_1991_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_1995_1;
S_1992_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1996_0;
S_1995_1: /* 3 */
S_1993_0: /* 2 */
		/* else */;
S_1994_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_1996_0;
S_1995_2: /* 3 */
		Uerror("blocking sel in d_step (nr.219, near line 206)");
S_1996_0: /* 2 */
S_2027_0: /* 2 */
S_1997_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(2!=3)))||((((int)t_max)==2)&&(2!=2))))))
			goto S_2027_1;
S_1998_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2028_0;
S_2027_1: /* 3 */
S_1999_0: /* 2 */
		/* else */;
S_2013_0: /* 2 */
S_2000_0: /* 2 */
		if (!(((((int)now.aep[2])==((int)t_ep))&&(((int)now.ahold[2])==(1+1)))))
			goto S_2013_1;
S_2001_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2014_0;
S_2013_1: /* 3 */
S_2002_0: /* 2 */
		/* else */;
S_2011_0: /* 2 */
S_2003_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[2]))))
			goto S_2011_1;
S_2004_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2012_0;
S_2011_1: /* 3 */
S_2005_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])<=(5+2)))))
			goto S_2011_2;
S_2006_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2012_0;
S_2011_2: /* 3 */
S_2007_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])>(5+2)))))
			goto S_2011_3;
S_2008_0: /* 2 */
		now.aep[2] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[2]", ((int)now.aep[2]));
#endif
		;
S_2009_0: /* 2 */
		now.ahold[2] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[2]", ((int)now.ahold[2]));
#endif
		;
S_2010_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2012_0;
S_2011_3: /* 3 */
		Uerror("blocking sel in d_step (nr.220, near line 219)");
S_2012_0: /* 2 */
		goto S_2014_0;
S_2013_2: /* 3 */
		Uerror("blocking sel in d_step (nr.221, near line 210)");
S_2014_0: /* 2 */
S_2025_0: /* 2 */
S_2015_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_2025_1;
S_2016_0: /* 2 */
		now.aage[2] = 0;
#ifdef VAR_RANGES
		logval("aage[2]", ((int)now.aage[2]));
#endif
		;
S_2021_0: /* 2 */
S_2017_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2021_1;
S_2018_0: /* 2 */
		now.acf[2] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_2022_0;
S_2021_1: /* 3 */
S_2019_0: /* 2 */
		/* else */;
S_2020_0: /* 2 */
		now.acf[2] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_2022_0;
S_2021_2: /* 3 */
		Uerror("blocking sel in d_step (nr.222, near line 231)");
S_2022_0: /* 2 */
		goto S_2026_0;
S_2025_1: /* 3 */
S_2023_0: /* 2 */
		/* else */;
S_2024_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2026_0;
S_2025_2: /* 3 */
		Uerror("blocking sel in d_step (nr.223, near line 230)");
S_2026_0: /* 2 */
		goto S_2028_0;
S_2027_2: /* 3 */
		Uerror("blocking sel in d_step (nr.224, near line 207)");
S_2028_0: /* 2 */
S_2033_0: /* 2 */
S_2029_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_2033_1;
S_2030_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2034_0;
S_2033_1: /* 3 */
S_2031_0: /* 2 */
		/* else */;
S_2032_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2034_0;
S_2033_2: /* 3 */
		Uerror("blocking sel in d_step (nr.225, near line 235)");
S_2034_0: /* 2 */
S_2035_0: /* 2 */
		now.rp[ Index(((((1*4)+2)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[2])<<2))|(((int)now.ahold[2])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+2)*2)+0)]", ((int)now.rp[ Index(((((1*4)+2)*2)+0), 16) ]));
#endif
		;
S_2036_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2037_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2038_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2039_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2040_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2041_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_2042_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 65: // STATE 2112 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((2*2)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][2112] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2045_0: /* 2 */
		if (!((((int)now.rq[ Index(((((2*2)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2109_0: /* 2 */
S_2046_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((2*2)+1)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2047_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2048_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2049_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2050_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2055_0: /* 2 */
S_2051_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_2055_1;
S_2052_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2056_0;
S_2055_1: /* 3 */
S_2053_0: /* 2 */
		/* else */;
S_2054_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2056_0;
S_2055_2: /* 3 */
		Uerror("blocking sel in d_step (nr.226, near line 205)");
S_2056_0: /* 2 */
S_2061_0: /* 2 */
S_2057_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2061_1;
S_2058_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2062_0;
S_2061_1: /* 3 */
S_2059_0: /* 2 */
		/* else */;
S_2060_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2062_0;
S_2061_2: /* 3 */
		Uerror("blocking sel in d_step (nr.227, near line 206)");
S_2062_0: /* 2 */
S_2093_0: /* 2 */
S_2063_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(2!=3)))||((((int)t_max)==2)&&(2!=2))))))
			goto S_2093_1;
S_2064_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2094_0;
S_2093_1: /* 3 */
S_2065_0: /* 2 */
		/* else */;
S_2079_0: /* 2 */
S_2066_0: /* 2 */
		if (!(((((int)now.aep[2])==((int)t_ep))&&(((int)now.ahold[2])==(1+1)))))
			goto S_2079_1;
S_2067_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2080_0;
S_2079_1: /* 3 */
S_2068_0: /* 2 */
		/* else */;
S_2077_0: /* 2 */
S_2069_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[2]))))
			goto S_2077_1;
S_2070_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2078_0;
S_2077_1: /* 3 */
S_2071_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])<=(5+2)))))
			goto S_2077_2;
S_2072_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2078_0;
S_2077_2: /* 3 */
S_2073_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])>(5+2)))))
			goto S_2077_3;
S_2074_0: /* 2 */
		now.aep[2] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[2]", ((int)now.aep[2]));
#endif
		;
S_2075_0: /* 2 */
		now.ahold[2] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[2]", ((int)now.ahold[2]));
#endif
		;
S_2076_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2078_0;
S_2077_3: /* 3 */
		Uerror("blocking sel in d_step (nr.228, near line 219)");
S_2078_0: /* 2 */
		goto S_2080_0;
S_2079_2: /* 3 */
		Uerror("blocking sel in d_step (nr.229, near line 210)");
S_2080_0: /* 2 */
S_2091_0: /* 2 */
S_2081_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_2091_1;
S_2082_0: /* 2 */
		now.aage[2] = 0;
#ifdef VAR_RANGES
		logval("aage[2]", ((int)now.aage[2]));
#endif
		;
S_2087_0: /* 2 */
S_2083_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2087_1;
S_2084_0: /* 2 */
		now.acf[2] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_2088_0;
S_2087_1: /* 3 */
S_2085_0: /* 2 */
		/* else */;
S_2086_0: /* 2 */
		now.acf[2] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_2088_0;
S_2087_2: /* 3 */
		Uerror("blocking sel in d_step (nr.230, near line 231)");
S_2088_0: /* 2 */
		goto S_2092_0;
S_2091_1: /* 3 */
S_2089_0: /* 2 */
		/* else */;
S_2090_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2092_0;
S_2091_2: /* 3 */
		Uerror("blocking sel in d_step (nr.231, near line 230)");
S_2092_0: /* 2 */
		goto S_2094_0;
S_2093_2: /* 3 */
		Uerror("blocking sel in d_step (nr.232, near line 207)");
S_2094_0: /* 2 */
S_2099_0: /* 2 */
S_2095_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_2099_1;
S_2096_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2100_0;
S_2099_1: /* 3 */
S_2097_0: /* 2 */
		/* else */;
S_2098_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2100_0;
S_2099_2: /* 3 */
		Uerror("blocking sel in d_step (nr.233, near line 235)");
S_2100_0: /* 2 */
S_2101_0: /* 2 */
		now.rp[ Index(((((1*4)+2)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[2])<<2))|(((int)now.ahold[2])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+2)*2)+0)]", ((int)now.rp[ Index(((((1*4)+2)*2)+0), 16) ]));
#endif
		;
S_2102_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2103_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2104_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2105_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2106_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2107_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_2108_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2110_0;
S_2110_0: /* 2 */
		now.rq[ Index(((((2*2)+1)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((2*2)+1)*2)+0)]", ((int)now.rq[ Index(((((2*2)+1)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 66: // STATE 2115 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((2*2)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][2115] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2112_0: /* 2 */
		if (!((((int)now.rq[ Index(((((2*2)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2113_0: /* 2 */
		now.rq[ Index(((((2*2)+1)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((2*2)+1)*2)+0)]", ((int)now.rq[ Index(((((2*2)+1)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 67: // STATE 2181 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((2*2)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][2181] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2115_0: /* 2 */
		if (!((((int)now.rq[ Index(((((2*2)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2179_0: /* 2 */
S_2116_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((2*2)+1)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2117_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2118_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2119_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2120_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2125_0: /* 2 */
S_2121_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_2125_1;
S_2122_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2126_0;
S_2125_1: /* 3 */
S_2123_0: /* 2 */
		/* else */;
S_2124_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2126_0;
S_2125_2: /* 3 */
		Uerror("blocking sel in d_step (nr.234, near line 205)");
S_2126_0: /* 2 */
S_2131_0: /* 2 */
S_2127_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2131_1;
S_2128_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2132_0;
S_2131_1: /* 3 */
S_2129_0: /* 2 */
		/* else */;
S_2130_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2132_0;
S_2131_2: /* 3 */
		Uerror("blocking sel in d_step (nr.235, near line 206)");
S_2132_0: /* 2 */
S_2163_0: /* 2 */
S_2133_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(2!=3)))||((((int)t_max)==2)&&(2!=2))))))
			goto S_2163_1;
S_2134_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2164_0;
S_2163_1: /* 3 */
S_2135_0: /* 2 */
		/* else */;
S_2149_0: /* 2 */
S_2136_0: /* 2 */
		if (!(((((int)now.aep[2])==((int)t_ep))&&(((int)now.ahold[2])==(1+1)))))
			goto S_2149_1;
S_2137_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2150_0;
S_2149_1: /* 3 */
S_2138_0: /* 2 */
		/* else */;
S_2147_0: /* 2 */
S_2139_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[2]))))
			goto S_2147_1;
S_2140_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2148_0;
S_2147_1: /* 3 */
S_2141_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])<=(5+2)))))
			goto S_2147_2;
S_2142_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2148_0;
S_2147_2: /* 3 */
S_2143_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])>(5+2)))))
			goto S_2147_3;
S_2144_0: /* 2 */
		now.aep[2] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[2]", ((int)now.aep[2]));
#endif
		;
S_2145_0: /* 2 */
		now.ahold[2] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[2]", ((int)now.ahold[2]));
#endif
		;
S_2146_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2148_0;
S_2147_3: /* 3 */
		Uerror("blocking sel in d_step (nr.236, near line 219)");
S_2148_0: /* 2 */
		goto S_2150_0;
S_2149_2: /* 3 */
		Uerror("blocking sel in d_step (nr.237, near line 210)");
S_2150_0: /* 2 */
S_2161_0: /* 2 */
S_2151_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_2161_1;
S_2152_0: /* 2 */
		now.aage[2] = 0;
#ifdef VAR_RANGES
		logval("aage[2]", ((int)now.aage[2]));
#endif
		;
S_2157_0: /* 2 */
S_2153_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2157_1;
S_2154_0: /* 2 */
		now.acf[2] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_2158_0;
S_2157_1: /* 3 */
S_2155_0: /* 2 */
		/* else */;
S_2156_0: /* 2 */
		now.acf[2] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_2158_0;
S_2157_2: /* 3 */
		Uerror("blocking sel in d_step (nr.238, near line 231)");
S_2158_0: /* 2 */
		goto S_2162_0;
S_2161_1: /* 3 */
S_2159_0: /* 2 */
		/* else */;
S_2160_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2162_0;
S_2161_2: /* 3 */
		Uerror("blocking sel in d_step (nr.239, near line 230)");
S_2162_0: /* 2 */
		goto S_2164_0;
S_2163_2: /* 3 */
		Uerror("blocking sel in d_step (nr.240, near line 207)");
S_2164_0: /* 2 */
S_2169_0: /* 2 */
S_2165_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_2169_1;
S_2166_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2170_0;
S_2169_1: /* 3 */
S_2167_0: /* 2 */
		/* else */;
S_2168_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2170_0;
S_2169_2: /* 3 */
		Uerror("blocking sel in d_step (nr.241, near line 235)");
S_2170_0: /* 2 */
S_2171_0: /* 2 */
		now.rp[ Index(((((1*4)+2)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[2])<<2))|(((int)now.ahold[2])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+2)*2)+1)]", ((int)now.rp[ Index(((((1*4)+2)*2)+1), 16) ]));
#endif
		;
S_2172_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2173_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2174_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2175_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2176_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2177_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_2178_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 68: // STATE 2248 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((2*2)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][2248] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2181_0: /* 2 */
		if (!((((int)now.rq[ Index(((((2*2)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2245_0: /* 2 */
S_2182_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((2*2)+1)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2183_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2184_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2185_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2186_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2191_0: /* 2 */
S_2187_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_2191_1;
S_2188_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2192_0;
S_2191_1: /* 3 */
S_2189_0: /* 2 */
		/* else */;
S_2190_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2192_0;
S_2191_2: /* 3 */
		Uerror("blocking sel in d_step (nr.242, near line 205)");
S_2192_0: /* 2 */
S_2197_0: /* 2 */
S_2193_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2197_1;
S_2194_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2198_0;
S_2197_1: /* 3 */
S_2195_0: /* 2 */
		/* else */;
S_2196_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2198_0;
S_2197_2: /* 3 */
		Uerror("blocking sel in d_step (nr.243, near line 206)");
S_2198_0: /* 2 */
S_2229_0: /* 2 */
S_2199_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(2!=3)))||((((int)t_max)==2)&&(2!=2))))))
			goto S_2229_1;
S_2200_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2230_0;
S_2229_1: /* 3 */
S_2201_0: /* 2 */
		/* else */;
S_2215_0: /* 2 */
S_2202_0: /* 2 */
		if (!(((((int)now.aep[2])==((int)t_ep))&&(((int)now.ahold[2])==(1+1)))))
			goto S_2215_1;
S_2203_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2216_0;
S_2215_1: /* 3 */
S_2204_0: /* 2 */
		/* else */;
S_2213_0: /* 2 */
S_2205_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[2]))))
			goto S_2213_1;
S_2206_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2214_0;
S_2213_1: /* 3 */
S_2207_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])<=(5+2)))))
			goto S_2213_2;
S_2208_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2214_0;
S_2213_2: /* 3 */
S_2209_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[2]))&&(((int)now.aage[2])>(5+2)))))
			goto S_2213_3;
S_2210_0: /* 2 */
		now.aep[2] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[2]", ((int)now.aep[2]));
#endif
		;
S_2211_0: /* 2 */
		now.ahold[2] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[2]", ((int)now.ahold[2]));
#endif
		;
S_2212_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2214_0;
S_2213_3: /* 3 */
		Uerror("blocking sel in d_step (nr.244, near line 219)");
S_2214_0: /* 2 */
		goto S_2216_0;
S_2215_2: /* 3 */
		Uerror("blocking sel in d_step (nr.245, near line 210)");
S_2216_0: /* 2 */
S_2227_0: /* 2 */
S_2217_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_2227_1;
S_2218_0: /* 2 */
		now.aage[2] = 0;
#ifdef VAR_RANGES
		logval("aage[2]", ((int)now.aage[2]));
#endif
		;
S_2223_0: /* 2 */
S_2219_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2223_1;
S_2220_0: /* 2 */
		now.acf[2] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_2224_0;
S_2223_1: /* 3 */
S_2221_0: /* 2 */
		/* else */;
S_2222_0: /* 2 */
		now.acf[2] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[2]", ((int)now.acf[2]));
#endif
		;
		goto S_2224_0;
S_2223_2: /* 3 */
		Uerror("blocking sel in d_step (nr.246, near line 231)");
S_2224_0: /* 2 */
		goto S_2228_0;
S_2227_1: /* 3 */
S_2225_0: /* 2 */
		/* else */;
S_2226_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2228_0;
S_2227_2: /* 3 */
		Uerror("blocking sel in d_step (nr.247, near line 230)");
S_2228_0: /* 2 */
		goto S_2230_0;
S_2229_2: /* 3 */
		Uerror("blocking sel in d_step (nr.248, near line 207)");
S_2230_0: /* 2 */
S_2235_0: /* 2 */
S_2231_0: /* 2 */
		if (!((((int)now.aep[2])==0)))
			goto S_2235_1;
S_2232_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2236_0;
S_2235_1: /* 3 */
S_2233_0: /* 2 */
		/* else */;
S_2234_0: /* 2 */
		t_acf = ((int)now.acf[2]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2236_0;
S_2235_2: /* 3 */
		Uerror("blocking sel in d_step (nr.249, near line 235)");
S_2236_0: /* 2 */
S_2237_0: /* 2 */
		now.rp[ Index(((((1*4)+2)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[2])<<2))|(((int)now.ahold[2])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+2)*2)+1)]", ((int)now.rp[ Index(((((1*4)+2)*2)+1), 16) ]));
#endif
		;
S_2238_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2239_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2240_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2241_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2242_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2243_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_2244_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2246_0;
S_2246_0: /* 2 */
		now.rq[ Index(((((2*2)+1)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((2*2)+1)*2)+1)]", ((int)now.rq[ Index(((((2*2)+1)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 69: // STATE 2251 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((2*2)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][2251] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2248_0: /* 2 */
		if (!((((int)now.rq[ Index(((((2*2)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2249_0: /* 2 */
		now.rq[ Index(((((2*2)+1)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((2*2)+1)*2)+1)]", ((int)now.rq[ Index(((((2*2)+1)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 70: // STATE 2317 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((3*2)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][2317] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2251_0: /* 2 */
		if (!((((int)now.rq[ Index(((((3*2)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2315_0: /* 2 */
S_2252_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((3*2)+0)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2253_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2254_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2255_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2256_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2261_0: /* 2 */
S_2257_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2261_1;
S_2258_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2262_0;
S_2261_1: /* 3 */
S_2259_0: /* 2 */
		/* else */;
S_2260_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2262_0;
S_2261_2: /* 3 */
		Uerror("blocking sel in d_step (nr.250, near line 205)");
S_2262_0: /* 2 */
S_2267_0: /* 2 */
S_2263_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2267_1;
S_2264_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2268_0;
S_2267_1: /* 3 */
S_2265_0: /* 2 */
		/* else */;
S_2266_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2268_0;
S_2267_2: /* 3 */
		Uerror("blocking sel in d_step (nr.251, near line 206)");
S_2268_0: /* 2 */
S_2299_0: /* 2 */
S_2269_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(3!=3)))||((((int)t_max)==2)&&(3!=2))))))
			goto S_2299_1;
S_2270_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2300_0;
S_2299_1: /* 3 */
S_2271_0: /* 2 */
		/* else */;
S_2285_0: /* 2 */
S_2272_0: /* 2 */
		if (!(((((int)now.aep[3])==((int)t_ep))&&(((int)now.ahold[3])==(0+1)))))
			goto S_2285_1;
S_2273_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2286_0;
S_2285_1: /* 3 */
S_2274_0: /* 2 */
		/* else */;
S_2283_0: /* 2 */
S_2275_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[3]))))
			goto S_2283_1;
S_2276_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2284_0;
S_2283_1: /* 3 */
S_2277_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])<=(5+2)))))
			goto S_2283_2;
S_2278_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2284_0;
S_2283_2: /* 3 */
S_2279_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])>(5+2)))))
			goto S_2283_3;
S_2280_0: /* 2 */
		now.aep[3] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[3]", ((int)now.aep[3]));
#endif
		;
S_2281_0: /* 2 */
		now.ahold[3] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[3]", ((int)now.ahold[3]));
#endif
		;
S_2282_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2284_0;
S_2283_3: /* 3 */
		Uerror("blocking sel in d_step (nr.252, near line 219)");
S_2284_0: /* 2 */
		goto S_2286_0;
S_2285_2: /* 3 */
		Uerror("blocking sel in d_step (nr.253, near line 210)");
S_2286_0: /* 2 */
S_2297_0: /* 2 */
S_2287_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_2297_1;
S_2288_0: /* 2 */
		now.aage[3] = 0;
#ifdef VAR_RANGES
		logval("aage[3]", ((int)now.aage[3]));
#endif
		;
S_2293_0: /* 2 */
S_2289_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2293_1;
S_2290_0: /* 2 */
		now.acf[3] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2294_0;
S_2293_1: /* 3 */
S_2291_0: /* 2 */
		/* else */;
S_2292_0: /* 2 */
		now.acf[3] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2294_0;
S_2293_2: /* 3 */
		Uerror("blocking sel in d_step (nr.254, near line 231)");
S_2294_0: /* 2 */
		goto S_2298_0;
S_2297_1: /* 3 */
S_2295_0: /* 2 */
		/* else */;
S_2296_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2298_0;
S_2297_2: /* 3 */
		Uerror("blocking sel in d_step (nr.255, near line 230)");
S_2298_0: /* 2 */
		goto S_2300_0;
S_2299_2: /* 3 */
		Uerror("blocking sel in d_step (nr.256, near line 207)");
S_2300_0: /* 2 */
S_2305_0: /* 2 */
S_2301_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2305_1;
S_2302_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2306_0;
S_2305_1: /* 3 */
S_2303_0: /* 2 */
		/* else */;
S_2304_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2306_0;
S_2305_2: /* 3 */
		Uerror("blocking sel in d_step (nr.257, near line 235)");
S_2306_0: /* 2 */
S_2307_0: /* 2 */
		now.rp[ Index(((((0*4)+3)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[3])<<2))|(((int)now.ahold[3])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+3)*2)+0)]", ((int)now.rp[ Index(((((0*4)+3)*2)+0), 16) ]));
#endif
		;
S_2308_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2309_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2310_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2311_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2312_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2313_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_2314_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 71: // STATE 2384 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((3*2)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][2384] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2317_0: /* 2 */
		if (!((((int)now.rq[ Index(((((3*2)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2381_0: /* 2 */
S_2318_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((3*2)+0)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2319_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2320_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2321_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2322_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2327_0: /* 2 */
S_2323_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2327_1;
S_2324_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2328_0;
S_2327_1: /* 3 */
S_2325_0: /* 2 */
		/* else */;
S_2326_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2328_0;
S_2327_2: /* 3 */
		Uerror("blocking sel in d_step (nr.258, near line 205)");
S_2328_0: /* 2 */
S_2333_0: /* 2 */
S_2329_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2333_1;
S_2330_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2334_0;
S_2333_1: /* 3 */
S_2331_0: /* 2 */
		/* else */;
S_2332_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2334_0;
S_2333_2: /* 3 */
		Uerror("blocking sel in d_step (nr.259, near line 206)");
S_2334_0: /* 2 */
S_2365_0: /* 2 */
S_2335_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(3!=3)))||((((int)t_max)==2)&&(3!=2))))))
			goto S_2365_1;
S_2336_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2366_0;
S_2365_1: /* 3 */
S_2337_0: /* 2 */
		/* else */;
S_2351_0: /* 2 */
S_2338_0: /* 2 */
		if (!(((((int)now.aep[3])==((int)t_ep))&&(((int)now.ahold[3])==(0+1)))))
			goto S_2351_1;
S_2339_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2352_0;
S_2351_1: /* 3 */
S_2340_0: /* 2 */
		/* else */;
S_2349_0: /* 2 */
S_2341_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[3]))))
			goto S_2349_1;
S_2342_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2350_0;
S_2349_1: /* 3 */
S_2343_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])<=(5+2)))))
			goto S_2349_2;
S_2344_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2350_0;
S_2349_2: /* 3 */
S_2345_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])>(5+2)))))
			goto S_2349_3;
S_2346_0: /* 2 */
		now.aep[3] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[3]", ((int)now.aep[3]));
#endif
		;
S_2347_0: /* 2 */
		now.ahold[3] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[3]", ((int)now.ahold[3]));
#endif
		;
S_2348_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2350_0;
S_2349_3: /* 3 */
		Uerror("blocking sel in d_step (nr.260, near line 219)");
S_2350_0: /* 2 */
		goto S_2352_0;
S_2351_2: /* 3 */
		Uerror("blocking sel in d_step (nr.261, near line 210)");
S_2352_0: /* 2 */
S_2363_0: /* 2 */
S_2353_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_2363_1;
S_2354_0: /* 2 */
		now.aage[3] = 0;
#ifdef VAR_RANGES
		logval("aage[3]", ((int)now.aage[3]));
#endif
		;
S_2359_0: /* 2 */
S_2355_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2359_1;
S_2356_0: /* 2 */
		now.acf[3] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2360_0;
S_2359_1: /* 3 */
S_2357_0: /* 2 */
		/* else */;
S_2358_0: /* 2 */
		now.acf[3] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2360_0;
S_2359_2: /* 3 */
		Uerror("blocking sel in d_step (nr.262, near line 231)");
S_2360_0: /* 2 */
		goto S_2364_0;
S_2363_1: /* 3 */
S_2361_0: /* 2 */
		/* else */;
S_2362_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2364_0;
S_2363_2: /* 3 */
		Uerror("blocking sel in d_step (nr.263, near line 230)");
S_2364_0: /* 2 */
		goto S_2366_0;
S_2365_2: /* 3 */
		Uerror("blocking sel in d_step (nr.264, near line 207)");
S_2366_0: /* 2 */
S_2371_0: /* 2 */
S_2367_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2371_1;
S_2368_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2372_0;
S_2371_1: /* 3 */
S_2369_0: /* 2 */
		/* else */;
S_2370_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2372_0;
S_2371_2: /* 3 */
		Uerror("blocking sel in d_step (nr.265, near line 235)");
S_2372_0: /* 2 */
S_2373_0: /* 2 */
		now.rp[ Index(((((0*4)+3)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[3])<<2))|(((int)now.ahold[3])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+3)*2)+0)]", ((int)now.rp[ Index(((((0*4)+3)*2)+0), 16) ]));
#endif
		;
S_2374_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2375_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2376_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2377_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2378_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2379_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_2380_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2382_0;
S_2382_0: /* 2 */
		now.rq[ Index(((((3*2)+0)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((3*2)+0)*2)+0)]", ((int)now.rq[ Index(((((3*2)+0)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 72: // STATE 2387 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((3*2)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][2387] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2384_0: /* 2 */
		if (!((((int)now.rq[ Index(((((3*2)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2385_0: /* 2 */
		now.rq[ Index(((((3*2)+0)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((3*2)+0)*2)+0)]", ((int)now.rq[ Index(((((3*2)+0)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 73: // STATE 2453 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((3*2)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][2453] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2387_0: /* 2 */
		if (!((((int)now.rq[ Index(((((3*2)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2451_0: /* 2 */
S_2388_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((3*2)+0)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2389_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2390_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2391_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2392_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2397_0: /* 2 */
S_2393_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2397_1;
S_2394_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2398_0;
S_2397_1: /* 3 */
S_2395_0: /* 2 */
		/* else */;
S_2396_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2398_0;
S_2397_2: /* 3 */
		Uerror("blocking sel in d_step (nr.266, near line 205)");
S_2398_0: /* 2 */
S_2403_0: /* 2 */
S_2399_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2403_1;
S_2400_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2404_0;
S_2403_1: /* 3 */
S_2401_0: /* 2 */
		/* else */;
S_2402_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2404_0;
S_2403_2: /* 3 */
		Uerror("blocking sel in d_step (nr.267, near line 206)");
S_2404_0: /* 2 */
S_2435_0: /* 2 */
S_2405_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(3!=3)))||((((int)t_max)==2)&&(3!=2))))))
			goto S_2435_1;
S_2406_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2436_0;
S_2435_1: /* 3 */
S_2407_0: /* 2 */
		/* else */;
S_2421_0: /* 2 */
S_2408_0: /* 2 */
		if (!(((((int)now.aep[3])==((int)t_ep))&&(((int)now.ahold[3])==(0+1)))))
			goto S_2421_1;
S_2409_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2422_0;
S_2421_1: /* 3 */
S_2410_0: /* 2 */
		/* else */;
S_2419_0: /* 2 */
S_2411_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[3]))))
			goto S_2419_1;
S_2412_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2420_0;
S_2419_1: /* 3 */
S_2413_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])<=(5+2)))))
			goto S_2419_2;
S_2414_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2420_0;
S_2419_2: /* 3 */
S_2415_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])>(5+2)))))
			goto S_2419_3;
S_2416_0: /* 2 */
		now.aep[3] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[3]", ((int)now.aep[3]));
#endif
		;
S_2417_0: /* 2 */
		now.ahold[3] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[3]", ((int)now.ahold[3]));
#endif
		;
S_2418_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2420_0;
S_2419_3: /* 3 */
		Uerror("blocking sel in d_step (nr.268, near line 219)");
S_2420_0: /* 2 */
		goto S_2422_0;
S_2421_2: /* 3 */
		Uerror("blocking sel in d_step (nr.269, near line 210)");
S_2422_0: /* 2 */
S_2433_0: /* 2 */
S_2423_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_2433_1;
S_2424_0: /* 2 */
		now.aage[3] = 0;
#ifdef VAR_RANGES
		logval("aage[3]", ((int)now.aage[3]));
#endif
		;
S_2429_0: /* 2 */
S_2425_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2429_1;
S_2426_0: /* 2 */
		now.acf[3] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2430_0;
S_2429_1: /* 3 */
S_2427_0: /* 2 */
		/* else */;
S_2428_0: /* 2 */
		now.acf[3] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2430_0;
S_2429_2: /* 3 */
		Uerror("blocking sel in d_step (nr.270, near line 231)");
S_2430_0: /* 2 */
		goto S_2434_0;
S_2433_1: /* 3 */
S_2431_0: /* 2 */
		/* else */;
S_2432_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2434_0;
S_2433_2: /* 3 */
		Uerror("blocking sel in d_step (nr.271, near line 230)");
S_2434_0: /* 2 */
		goto S_2436_0;
S_2435_2: /* 3 */
		Uerror("blocking sel in d_step (nr.272, near line 207)");
S_2436_0: /* 2 */
S_2441_0: /* 2 */
S_2437_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2441_1;
S_2438_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2442_0;
S_2441_1: /* 3 */
S_2439_0: /* 2 */
		/* else */;
S_2440_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2442_0;
S_2441_2: /* 3 */
		Uerror("blocking sel in d_step (nr.273, near line 235)");
S_2442_0: /* 2 */
S_2443_0: /* 2 */
		now.rp[ Index(((((0*4)+3)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[3])<<2))|(((int)now.ahold[3])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+3)*2)+1)]", ((int)now.rp[ Index(((((0*4)+3)*2)+1), 16) ]));
#endif
		;
S_2444_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2445_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2446_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2447_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2448_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2449_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_2450_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 74: // STATE 2520 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((3*2)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][2520] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2453_0: /* 2 */
		if (!((((int)now.rq[ Index(((((3*2)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2517_0: /* 2 */
S_2454_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((3*2)+0)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2455_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2456_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2457_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2458_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2463_0: /* 2 */
S_2459_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2463_1;
S_2460_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2464_0;
S_2463_1: /* 3 */
S_2461_0: /* 2 */
		/* else */;
S_2462_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2464_0;
S_2463_2: /* 3 */
		Uerror("blocking sel in d_step (nr.274, near line 205)");
S_2464_0: /* 2 */
S_2469_0: /* 2 */
S_2465_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2469_1;
S_2466_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2470_0;
S_2469_1: /* 3 */
S_2467_0: /* 2 */
		/* else */;
S_2468_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2470_0;
S_2469_2: /* 3 */
		Uerror("blocking sel in d_step (nr.275, near line 206)");
S_2470_0: /* 2 */
S_2501_0: /* 2 */
S_2471_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(3!=3)))||((((int)t_max)==2)&&(3!=2))))))
			goto S_2501_1;
S_2472_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2502_0;
S_2501_1: /* 3 */
S_2473_0: /* 2 */
		/* else */;
S_2487_0: /* 2 */
S_2474_0: /* 2 */
		if (!(((((int)now.aep[3])==((int)t_ep))&&(((int)now.ahold[3])==(0+1)))))
			goto S_2487_1;
S_2475_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2488_0;
S_2487_1: /* 3 */
S_2476_0: /* 2 */
		/* else */;
S_2485_0: /* 2 */
S_2477_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[3]))))
			goto S_2485_1;
S_2478_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2486_0;
S_2485_1: /* 3 */
S_2479_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])<=(5+2)))))
			goto S_2485_2;
S_2480_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2486_0;
S_2485_2: /* 3 */
S_2481_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])>(5+2)))))
			goto S_2485_3;
S_2482_0: /* 2 */
		now.aep[3] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[3]", ((int)now.aep[3]));
#endif
		;
S_2483_0: /* 2 */
		now.ahold[3] = (0+1);
#ifdef VAR_RANGES
		logval("ahold[3]", ((int)now.ahold[3]));
#endif
		;
S_2484_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2486_0;
S_2485_3: /* 3 */
		Uerror("blocking sel in d_step (nr.276, near line 219)");
S_2486_0: /* 2 */
		goto S_2488_0;
S_2487_2: /* 3 */
		Uerror("blocking sel in d_step (nr.277, near line 210)");
S_2488_0: /* 2 */
S_2499_0: /* 2 */
S_2489_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_2499_1;
S_2490_0: /* 2 */
		now.aage[3] = 0;
#ifdef VAR_RANGES
		logval("aage[3]", ((int)now.aage[3]));
#endif
		;
S_2495_0: /* 2 */
S_2491_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2495_1;
S_2492_0: /* 2 */
		now.acf[3] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2496_0;
S_2495_1: /* 3 */
S_2493_0: /* 2 */
		/* else */;
S_2494_0: /* 2 */
		now.acf[3] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2496_0;
S_2495_2: /* 3 */
		Uerror("blocking sel in d_step (nr.278, near line 231)");
S_2496_0: /* 2 */
		goto S_2500_0;
S_2499_1: /* 3 */
S_2497_0: /* 2 */
		/* else */;
S_2498_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2500_0;
S_2499_2: /* 3 */
		Uerror("blocking sel in d_step (nr.279, near line 230)");
S_2500_0: /* 2 */
		goto S_2502_0;
S_2501_2: /* 3 */
		Uerror("blocking sel in d_step (nr.280, near line 207)");
S_2502_0: /* 2 */
S_2507_0: /* 2 */
S_2503_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2507_1;
S_2504_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2508_0;
S_2507_1: /* 3 */
S_2505_0: /* 2 */
		/* else */;
S_2506_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2508_0;
S_2507_2: /* 3 */
		Uerror("blocking sel in d_step (nr.281, near line 235)");
S_2508_0: /* 2 */
S_2509_0: /* 2 */
		now.rp[ Index(((((0*4)+3)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[3])<<2))|(((int)now.ahold[3])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((0*4)+3)*2)+1)]", ((int)now.rp[ Index(((((0*4)+3)*2)+1), 16) ]));
#endif
		;
S_2510_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2511_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2512_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2513_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2514_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2515_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_2516_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2518_0;
S_2518_0: /* 2 */
		now.rq[ Index(((((3*2)+0)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((3*2)+0)*2)+1)]", ((int)now.rq[ Index(((((3*2)+0)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 75: // STATE 2523 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((3*2)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][2523] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2520_0: /* 2 */
		if (!((((int)now.rq[ Index(((((3*2)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2521_0: /* 2 */
		now.rq[ Index(((((3*2)+0)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((3*2)+0)*2)+1)]", ((int)now.rq[ Index(((((3*2)+0)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 76: // STATE 2589 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((3*2)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][2589] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2523_0: /* 2 */
		if (!((((int)now.rq[ Index(((((3*2)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2587_0: /* 2 */
S_2524_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((3*2)+1)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2525_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2526_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2527_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2528_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2533_0: /* 2 */
S_2529_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2533_1;
S_2530_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2534_0;
S_2533_1: /* 3 */
S_2531_0: /* 2 */
		/* else */;
S_2532_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2534_0;
S_2533_2: /* 3 */
		Uerror("blocking sel in d_step (nr.282, near line 205)");
S_2534_0: /* 2 */
S_2539_0: /* 2 */
S_2535_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2539_1;
S_2536_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2540_0;
S_2539_1: /* 3 */
S_2537_0: /* 2 */
		/* else */;
S_2538_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2540_0;
S_2539_2: /* 3 */
		Uerror("blocking sel in d_step (nr.283, near line 206)");
S_2540_0: /* 2 */
S_2571_0: /* 2 */
S_2541_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(3!=3)))||((((int)t_max)==2)&&(3!=2))))))
			goto S_2571_1;
S_2542_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2572_0;
S_2571_1: /* 3 */
S_2543_0: /* 2 */
		/* else */;
S_2557_0: /* 2 */
S_2544_0: /* 2 */
		if (!(((((int)now.aep[3])==((int)t_ep))&&(((int)now.ahold[3])==(1+1)))))
			goto S_2557_1;
S_2545_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2558_0;
S_2557_1: /* 3 */
S_2546_0: /* 2 */
		/* else */;
S_2555_0: /* 2 */
S_2547_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[3]))))
			goto S_2555_1;
S_2548_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2556_0;
S_2555_1: /* 3 */
S_2549_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])<=(5+2)))))
			goto S_2555_2;
S_2550_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2556_0;
S_2555_2: /* 3 */
S_2551_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])>(5+2)))))
			goto S_2555_3;
S_2552_0: /* 2 */
		now.aep[3] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[3]", ((int)now.aep[3]));
#endif
		;
S_2553_0: /* 2 */
		now.ahold[3] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[3]", ((int)now.ahold[3]));
#endif
		;
S_2554_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2556_0;
S_2555_3: /* 3 */
		Uerror("blocking sel in d_step (nr.284, near line 219)");
S_2556_0: /* 2 */
		goto S_2558_0;
S_2557_2: /* 3 */
		Uerror("blocking sel in d_step (nr.285, near line 210)");
S_2558_0: /* 2 */
S_2569_0: /* 2 */
S_2559_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_2569_1;
S_2560_0: /* 2 */
		now.aage[3] = 0;
#ifdef VAR_RANGES
		logval("aage[3]", ((int)now.aage[3]));
#endif
		;
S_2565_0: /* 2 */
S_2561_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2565_1;
S_2562_0: /* 2 */
		now.acf[3] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2566_0;
S_2565_1: /* 3 */
S_2563_0: /* 2 */
		/* else */;
S_2564_0: /* 2 */
		now.acf[3] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2566_0;
S_2565_2: /* 3 */
		Uerror("blocking sel in d_step (nr.286, near line 231)");
S_2566_0: /* 2 */
		goto S_2570_0;
S_2569_1: /* 3 */
S_2567_0: /* 2 */
		/* else */;
S_2568_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2570_0;
S_2569_2: /* 3 */
		Uerror("blocking sel in d_step (nr.287, near line 230)");
S_2570_0: /* 2 */
		goto S_2572_0;
S_2571_2: /* 3 */
		Uerror("blocking sel in d_step (nr.288, near line 207)");
S_2572_0: /* 2 */
S_2577_0: /* 2 */
S_2573_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2577_1;
S_2574_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2578_0;
S_2577_1: /* 3 */
S_2575_0: /* 2 */
		/* else */;
S_2576_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2578_0;
S_2577_2: /* 3 */
		Uerror("blocking sel in d_step (nr.289, near line 235)");
S_2578_0: /* 2 */
S_2579_0: /* 2 */
		now.rp[ Index(((((1*4)+3)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[3])<<2))|(((int)now.ahold[3])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+3)*2)+0)]", ((int)now.rp[ Index(((((1*4)+3)*2)+0), 16) ]));
#endif
		;
S_2580_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2581_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2582_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2583_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2584_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2585_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_2586_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 77: // STATE 2656 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((3*2)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][2656] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2589_0: /* 2 */
		if (!((((int)now.rq[ Index(((((3*2)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2653_0: /* 2 */
S_2590_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((3*2)+1)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2591_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2592_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2593_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2594_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2599_0: /* 2 */
S_2595_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2599_1;
S_2596_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2600_0;
S_2599_1: /* 3 */
S_2597_0: /* 2 */
		/* else */;
S_2598_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2600_0;
S_2599_2: /* 3 */
		Uerror("blocking sel in d_step (nr.290, near line 205)");
S_2600_0: /* 2 */
S_2605_0: /* 2 */
S_2601_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2605_1;
S_2602_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2606_0;
S_2605_1: /* 3 */
S_2603_0: /* 2 */
		/* else */;
S_2604_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2606_0;
S_2605_2: /* 3 */
		Uerror("blocking sel in d_step (nr.291, near line 206)");
S_2606_0: /* 2 */
S_2637_0: /* 2 */
S_2607_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(3!=3)))||((((int)t_max)==2)&&(3!=2))))))
			goto S_2637_1;
S_2608_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2638_0;
S_2637_1: /* 3 */
S_2609_0: /* 2 */
		/* else */;
S_2623_0: /* 2 */
S_2610_0: /* 2 */
		if (!(((((int)now.aep[3])==((int)t_ep))&&(((int)now.ahold[3])==(1+1)))))
			goto S_2623_1;
S_2611_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2624_0;
S_2623_1: /* 3 */
S_2612_0: /* 2 */
		/* else */;
S_2621_0: /* 2 */
S_2613_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[3]))))
			goto S_2621_1;
S_2614_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2622_0;
S_2621_1: /* 3 */
S_2615_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])<=(5+2)))))
			goto S_2621_2;
S_2616_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2622_0;
S_2621_2: /* 3 */
S_2617_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])>(5+2)))))
			goto S_2621_3;
S_2618_0: /* 2 */
		now.aep[3] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[3]", ((int)now.aep[3]));
#endif
		;
S_2619_0: /* 2 */
		now.ahold[3] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[3]", ((int)now.ahold[3]));
#endif
		;
S_2620_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2622_0;
S_2621_3: /* 3 */
		Uerror("blocking sel in d_step (nr.292, near line 219)");
S_2622_0: /* 2 */
		goto S_2624_0;
S_2623_2: /* 3 */
		Uerror("blocking sel in d_step (nr.293, near line 210)");
S_2624_0: /* 2 */
S_2635_0: /* 2 */
S_2625_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_2635_1;
S_2626_0: /* 2 */
		now.aage[3] = 0;
#ifdef VAR_RANGES
		logval("aage[3]", ((int)now.aage[3]));
#endif
		;
S_2631_0: /* 2 */
S_2627_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2631_1;
S_2628_0: /* 2 */
		now.acf[3] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2632_0;
S_2631_1: /* 3 */
S_2629_0: /* 2 */
		/* else */;
S_2630_0: /* 2 */
		now.acf[3] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2632_0;
S_2631_2: /* 3 */
		Uerror("blocking sel in d_step (nr.294, near line 231)");
S_2632_0: /* 2 */
		goto S_2636_0;
S_2635_1: /* 3 */
S_2633_0: /* 2 */
		/* else */;
S_2634_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2636_0;
S_2635_2: /* 3 */
		Uerror("blocking sel in d_step (nr.295, near line 230)");
S_2636_0: /* 2 */
		goto S_2638_0;
S_2637_2: /* 3 */
		Uerror("blocking sel in d_step (nr.296, near line 207)");
S_2638_0: /* 2 */
S_2643_0: /* 2 */
S_2639_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2643_1;
S_2640_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2644_0;
S_2643_1: /* 3 */
S_2641_0: /* 2 */
		/* else */;
S_2642_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2644_0;
S_2643_2: /* 3 */
		Uerror("blocking sel in d_step (nr.297, near line 235)");
S_2644_0: /* 2 */
S_2645_0: /* 2 */
		now.rp[ Index(((((1*4)+3)*2)+0), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[3])<<2))|(((int)now.ahold[3])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+3)*2)+0)]", ((int)now.rp[ Index(((((1*4)+3)*2)+0), 16) ]));
#endif
		;
S_2646_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2647_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2648_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2649_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2650_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2651_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_2652_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2654_0;
S_2654_0: /* 2 */
		now.rq[ Index(((((3*2)+1)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((3*2)+1)*2)+0)]", ((int)now.rq[ Index(((((3*2)+1)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 78: // STATE 2659 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((3*2)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][2659] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2656_0: /* 2 */
		if (!((((int)now.rq[ Index(((((3*2)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2657_0: /* 2 */
		now.rq[ Index(((((3*2)+1)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((3*2)+1)*2)+0)]", ((int)now.rq[ Index(((((3*2)+1)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 79: // STATE 2725 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((3*2)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][2725] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2659_0: /* 2 */
		if (!((((int)now.rq[ Index(((((3*2)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2723_0: /* 2 */
S_2660_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((3*2)+1)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2661_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2662_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2663_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2664_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2669_0: /* 2 */
S_2665_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2669_1;
S_2666_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2670_0;
S_2669_1: /* 3 */
S_2667_0: /* 2 */
		/* else */;
S_2668_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2670_0;
S_2669_2: /* 3 */
		Uerror("blocking sel in d_step (nr.298, near line 205)");
S_2670_0: /* 2 */
S_2675_0: /* 2 */
S_2671_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2675_1;
S_2672_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2676_0;
S_2675_1: /* 3 */
S_2673_0: /* 2 */
		/* else */;
S_2674_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2676_0;
S_2675_2: /* 3 */
		Uerror("blocking sel in d_step (nr.299, near line 206)");
S_2676_0: /* 2 */
S_2707_0: /* 2 */
S_2677_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(3!=3)))||((((int)t_max)==2)&&(3!=2))))))
			goto S_2707_1;
S_2678_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2708_0;
S_2707_1: /* 3 */
S_2679_0: /* 2 */
		/* else */;
S_2693_0: /* 2 */
S_2680_0: /* 2 */
		if (!(((((int)now.aep[3])==((int)t_ep))&&(((int)now.ahold[3])==(1+1)))))
			goto S_2693_1;
S_2681_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2694_0;
S_2693_1: /* 3 */
S_2682_0: /* 2 */
		/* else */;
S_2691_0: /* 2 */
S_2683_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[3]))))
			goto S_2691_1;
S_2684_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2692_0;
S_2691_1: /* 3 */
S_2685_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])<=(5+2)))))
			goto S_2691_2;
S_2686_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2692_0;
S_2691_2: /* 3 */
S_2687_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])>(5+2)))))
			goto S_2691_3;
S_2688_0: /* 2 */
		now.aep[3] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[3]", ((int)now.aep[3]));
#endif
		;
S_2689_0: /* 2 */
		now.ahold[3] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[3]", ((int)now.ahold[3]));
#endif
		;
S_2690_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2692_0;
S_2691_3: /* 3 */
		Uerror("blocking sel in d_step (nr.300, near line 219)");
S_2692_0: /* 2 */
		goto S_2694_0;
S_2693_2: /* 3 */
		Uerror("blocking sel in d_step (nr.301, near line 210)");
S_2694_0: /* 2 */
S_2705_0: /* 2 */
S_2695_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_2705_1;
S_2696_0: /* 2 */
		now.aage[3] = 0;
#ifdef VAR_RANGES
		logval("aage[3]", ((int)now.aage[3]));
#endif
		;
S_2701_0: /* 2 */
S_2697_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2701_1;
S_2698_0: /* 2 */
		now.acf[3] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2702_0;
S_2701_1: /* 3 */
S_2699_0: /* 2 */
		/* else */;
S_2700_0: /* 2 */
		now.acf[3] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2702_0;
S_2701_2: /* 3 */
		Uerror("blocking sel in d_step (nr.302, near line 231)");
S_2702_0: /* 2 */
		goto S_2706_0;
S_2705_1: /* 3 */
S_2703_0: /* 2 */
		/* else */;
S_2704_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2706_0;
S_2705_2: /* 3 */
		Uerror("blocking sel in d_step (nr.303, near line 230)");
S_2706_0: /* 2 */
		goto S_2708_0;
S_2707_2: /* 3 */
		Uerror("blocking sel in d_step (nr.304, near line 207)");
S_2708_0: /* 2 */
S_2713_0: /* 2 */
S_2709_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2713_1;
S_2710_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2714_0;
S_2713_1: /* 3 */
S_2711_0: /* 2 */
		/* else */;
S_2712_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2714_0;
S_2713_2: /* 3 */
		Uerror("blocking sel in d_step (nr.305, near line 235)");
S_2714_0: /* 2 */
S_2715_0: /* 2 */
		now.rp[ Index(((((1*4)+3)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[3])<<2))|(((int)now.ahold[3])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+3)*2)+1)]", ((int)now.rp[ Index(((((1*4)+3)*2)+1), 16) ]));
#endif
		;
S_2716_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2717_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2718_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2719_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2720_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2721_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_2722_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 80: // STATE 2792 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((3*2)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][2792] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2725_0: /* 2 */
		if (!((((int)now.rq[ Index(((((3*2)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2789_0: /* 2 */
S_2726_0: /* 2 */
		t_v = ((int)now.rq[ Index(((((3*2)+1)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2727_0: /* 2 */
		t_kind = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2728_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2729_0: /* 2 */
		t_cf = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2730_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2735_0: /* 2 */
S_2731_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2735_1;
S_2732_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2736_0;
S_2735_1: /* 3 */
S_2733_0: /* 2 */
		/* else */;
S_2734_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2736_0;
S_2735_2: /* 3 */
		Uerror("blocking sel in d_step (nr.306, near line 205)");
S_2736_0: /* 2 */
S_2741_0: /* 2 */
S_2737_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2741_1;
S_2738_0: /* 2 */
		t_max = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2742_0;
S_2741_1: /* 3 */
S_2739_0: /* 2 */
		/* else */;
S_2740_0: /* 2 */
		t_max = ((int)t_acf);
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2742_0;
S_2741_2: /* 3 */
		Uerror("blocking sel in d_step (nr.307, near line 206)");
S_2742_0: /* 2 */
S_2773_0: /* 2 */
S_2743_0: /* 2 */
		if (!( !((((((int)t_max)==1)||((((int)t_max)==0)&&(3!=3)))||((((int)t_max)==2)&&(3!=2))))))
			goto S_2773_1;
S_2744_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2774_0;
S_2773_1: /* 3 */
S_2745_0: /* 2 */
		/* else */;
S_2759_0: /* 2 */
S_2746_0: /* 2 */
		if (!(((((int)now.aep[3])==((int)t_ep))&&(((int)now.ahold[3])==(1+1)))))
			goto S_2759_1;
S_2747_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2760_0;
S_2759_1: /* 3 */
S_2748_0: /* 2 */
		/* else */;
S_2757_0: /* 2 */
S_2749_0: /* 2 */
		if (!((((int)t_ep)<=((int)now.aep[3]))))
			goto S_2757_1;
S_2750_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2758_0;
S_2757_1: /* 3 */
S_2751_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])<=(5+2)))))
			goto S_2757_2;
S_2752_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2758_0;
S_2757_2: /* 3 */
S_2753_0: /* 2 */
		if (!(((((int)t_ep)>((int)now.aep[3]))&&(((int)now.aage[3])>(5+2)))))
			goto S_2757_3;
S_2754_0: /* 2 */
		now.aep[3] = ((int)t_ep);
#ifdef VAR_RANGES
		logval("aep[3]", ((int)now.aep[3]));
#endif
		;
S_2755_0: /* 2 */
		now.ahold[3] = (1+1);
#ifdef VAR_RANGES
		logval("ahold[3]", ((int)now.ahold[3]));
#endif
		;
S_2756_0: /* 2 */
		t_ok = 1;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
		goto S_2758_0;
S_2757_3: /* 3 */
		Uerror("blocking sel in d_step (nr.308, near line 219)");
S_2758_0: /* 2 */
		goto S_2760_0;
S_2759_2: /* 3 */
		Uerror("blocking sel in d_step (nr.309, near line 210)");
S_2760_0: /* 2 */
S_2771_0: /* 2 */
S_2761_0: /* 2 */
		if (!(((int)t_ok)))
			goto S_2771_1;
S_2762_0: /* 2 */
		now.aage[3] = 0;
#ifdef VAR_RANGES
		logval("aage[3]", ((int)now.aage[3]));
#endif
		;
S_2767_0: /* 2 */
S_2763_0: /* 2 */
		if (!((((int)t_cf)>((int)t_acf))))
			goto S_2767_1;
S_2764_0: /* 2 */
		now.acf[3] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2768_0;
S_2767_1: /* 3 */
S_2765_0: /* 2 */
		/* else */;
S_2766_0: /* 2 */
		now.acf[3] = ((int)t_acf);
#ifdef VAR_RANGES
		logval("acf[3]", ((int)now.acf[3]));
#endif
		;
		goto S_2768_0;
S_2767_2: /* 3 */
		Uerror("blocking sel in d_step (nr.310, near line 231)");
S_2768_0: /* 2 */
		goto S_2772_0;
S_2771_1: /* 3 */
S_2769_0: /* 2 */
		/* else */;
S_2770_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2772_0;
S_2771_2: /* 3 */
		Uerror("blocking sel in d_step (nr.311, near line 230)");
S_2772_0: /* 2 */
		goto S_2774_0;
S_2773_2: /* 3 */
		Uerror("blocking sel in d_step (nr.312, near line 207)");
S_2774_0: /* 2 */
S_2779_0: /* 2 */
S_2775_0: /* 2 */
		if (!((((int)now.aep[3])==0)))
			goto S_2779_1;
S_2776_0: /* 2 */
		t_acf = ((int)t_cf);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2780_0;
S_2779_1: /* 3 */
S_2777_0: /* 2 */
		/* else */;
S_2778_0: /* 2 */
		t_acf = ((int)now.acf[3]);
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
		goto S_2780_0;
S_2779_2: /* 3 */
		Uerror("blocking sel in d_step (nr.313, near line 235)");
S_2780_0: /* 2 */
S_2781_0: /* 2 */
		now.rp[ Index(((((1*4)+3)*2)+1), 16) ] = ((((1|(((int)t_ok)<<1))|(((int)now.aep[3])<<2))|(((int)now.ahold[3])<<4))|(((int)t_acf)<<6));
#ifdef VAR_RANGES
		logval("rp[((((1*4)+3)*2)+1)]", ((int)now.rp[ Index(((((1*4)+3)*2)+1), 16) ]));
#endif
		;
S_2782_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2783_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2784_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2785_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2786_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2787_0: /* 2 */
		t_acf = 0;
#ifdef VAR_RANGES
		logval("t_acf", ((int)t_acf));
#endif
		;
S_2788_0: /* 2 */
		t_max = 0;
#ifdef VAR_RANGES
		logval("t_max", ((int)t_max));
#endif
		;
		goto S_2790_0;
S_2790_0: /* 2 */
		now.rq[ Index(((((3*2)+1)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((3*2)+1)*2)+1)]", ((int)now.rq[ Index(((((3*2)+1)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 81: // STATE 2795 - lease.pml:323 - [D_STEP323]
		if (!(boq == -1 && (((int)now.rq[ Index(((((3*2)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][2795] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2792_0: /* 2 */
		if (!((((int)now.rq[ Index(((((3*2)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2793_0: /* 2 */
		now.rq[ Index(((((3*2)+1)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((3*2)+1)*2)+1)]", ((int)now.rq[ Index(((((3*2)+1)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 82: // STATE 2898 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][2898] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2795_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2896_0: /* 2 */
S_2796_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+0)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2797_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2798_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2799_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2800_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2888_0: /* 2 */
S_2801_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_2888_1;
S_2802_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2889_0;
S_2888_1: /* 3 */
S_2803_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_2888_2;
S_2804_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_2805_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_2806_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_2807_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_2808_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_2809_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_2889_0;
S_2888_2: /* 3 */
S_2810_0: /* 2 */
		/* else */;
S_2811_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_2816_0: /* 2 */
S_2812_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_2816_1;
S_2813_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_2817_0;
S_2816_1: /* 3 */
S_2814_0: /* 2 */
		/* else */;
S_2815_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2817_0;
S_2816_2: /* 3 */
		Uerror("blocking sel in d_step (nr.314, near line 190)");
S_2817_0: /* 2 */
S_2849_0: /* 2 */
S_2818_0: /* 2 */
		if (!(((0==((int)now.prid[0]))&&((int)t_ok))))
			goto S_2849_1;
S_2846_0: /* 2 */
S_2819_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<0));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_2844_0: /* 2 */
S_2820_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_2844_1;
S_2825_0: /* 2 */
S_2821_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_2825_1;
S_2822_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_2826_0;
S_2825_1: /* 3 */
S_2823_0: /* 2 */
		/* else */;
S_2824_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2826_0;
S_2825_2: /* 3 */
		Uerror("blocking sel in d_step (nr.315, near line 161)");
S_2826_0: /* 2 */
S_2831_0: /* 2 */
S_2827_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_2831_1;
S_2828_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_2832_0;
S_2831_1: /* 3 */
S_2829_0: /* 2 */
		/* else */;
S_2830_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2832_0;
S_2831_2: /* 3 */
		Uerror("blocking sel in d_step (nr.316, near line 166)");
S_2832_0: /* 2 */
S_2833_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_2840_0: /* 2 */
S_2834_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_2840_1;
S_2835_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_2836_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_2837_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_2841_0;
S_2840_1: /* 3 */
S_2838_0: /* 2 */
		/* else */;
S_2839_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2841_0;
S_2840_2: /* 3 */
		Uerror("blocking sel in d_step (nr.317, near line 169)");
S_2841_0: /* 2 */
		goto S_2845_0;
S_2844_1: /* 3 */
S_2842_0: /* 2 */
		/* else */;
S_2843_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2845_0;
S_2844_2: /* 3 */
		Uerror("blocking sel in d_step (nr.318, near line 159)");
S_2845_0: /* 2 */
		goto S_2850_0;
S_2849_1: /* 3 */
S_2847_0: /* 2 */
		/* else */;
S_2848_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2850_0;
S_2849_2: /* 3 */
		Uerror("blocking sel in d_step (nr.319, near line 191)");
S_2850_0: /* 2 */
S_2886_0: /* 2 */
S_2851_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_2886_1;
S_2883_0: /* 2 */
S_2852_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_2853_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_2861_0: /* 2 */
S_2860_0: /* 2 */
S_2854_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_2860_1;
S_2855_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_2856_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_2857_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_2861_0; /* ';' */
S_2860_1: /* 3 */
S_2858_0: /* 2 */
		/* else */;
S_2859_0: /* 2 */
		goto S_2863_0;	/* 'goto' */
S_2860_2: /* 3 */
		Uerror("blocking sel in d_step (nr.320, near line 140)");
S_2862_0: /* 2 */
		goto S_2863_0;	/* 'break' */
S_2863_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_2864_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_2865_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_2866_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2867_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_2879_0: /* 2 */
S_2878_0: /* 2 */
S_2868_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_2878_1;
S_2873_0: /* 2 */
S_2869_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_2873_1;
S_2870_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_2874_0;
S_2873_1: /* 3 */
S_2871_0: /* 2 */
		/* else */;
S_2872_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2874_0;
S_2873_2: /* 3 */
		Uerror("blocking sel in d_step (nr.321, near line 150)");
S_2874_0: /* 2 */
S_2875_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_2879_0; /* ';' */
S_2878_1: /* 3 */
S_2876_0: /* 2 */
		/* else */;
S_2877_0: /* 2 */
		goto S_2881_0;	/* 'goto' */
S_2878_2: /* 3 */
		Uerror("blocking sel in d_step (nr.322, near line 149)");
S_2880_0: /* 2 */
		goto S_2881_0;	/* 'break' */
S_2881_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_2882_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_2887_0;
S_2886_1: /* 3 */
S_2884_0: /* 2 */
		/* else */;
S_2885_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2887_0;
S_2886_2: /* 3 */
		Uerror("blocking sel in d_step (nr.323, near line 192)");
S_2887_0: /* 2 */
		goto S_2889_0;
S_2888_3: /* 3 */
		Uerror("blocking sel in d_step (nr.324, near line 183)");
S_2889_0: /* 2 */
S_2890_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2891_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2892_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2893_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2894_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2895_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 83: // STATE 3002 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][3002] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_2898_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_2999_0: /* 2 */
S_2899_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+0)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2900_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2901_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2902_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2903_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2991_0: /* 2 */
S_2904_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_2991_1;
S_2905_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2992_0;
S_2991_1: /* 3 */
S_2906_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_2991_2;
S_2907_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_2908_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_2909_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_2910_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_2911_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_2912_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_2992_0;
S_2991_2: /* 3 */
S_2913_0: /* 2 */
		/* else */;
S_2914_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_2919_0: /* 2 */
S_2915_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_2919_1;
S_2916_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_2920_0;
S_2919_1: /* 3 */
S_2917_0: /* 2 */
		/* else */;
S_2918_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2920_0;
S_2919_2: /* 3 */
		Uerror("blocking sel in d_step (nr.325, near line 190)");
S_2920_0: /* 2 */
S_2952_0: /* 2 */
S_2921_0: /* 2 */
		if (!(((0==((int)now.prid[0]))&&((int)t_ok))))
			goto S_2952_1;
S_2949_0: /* 2 */
S_2922_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<0));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_2947_0: /* 2 */
S_2923_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_2947_1;
S_2928_0: /* 2 */
S_2924_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_2928_1;
S_2925_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_2929_0;
S_2928_1: /* 3 */
S_2926_0: /* 2 */
		/* else */;
S_2927_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2929_0;
S_2928_2: /* 3 */
		Uerror("blocking sel in d_step (nr.326, near line 161)");
S_2929_0: /* 2 */
S_2934_0: /* 2 */
S_2930_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_2934_1;
S_2931_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_2935_0;
S_2934_1: /* 3 */
S_2932_0: /* 2 */
		/* else */;
S_2933_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2935_0;
S_2934_2: /* 3 */
		Uerror("blocking sel in d_step (nr.327, near line 166)");
S_2935_0: /* 2 */
S_2936_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_2943_0: /* 2 */
S_2937_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_2943_1;
S_2938_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_2939_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_2940_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_2944_0;
S_2943_1: /* 3 */
S_2941_0: /* 2 */
		/* else */;
S_2942_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2944_0;
S_2943_2: /* 3 */
		Uerror("blocking sel in d_step (nr.328, near line 169)");
S_2944_0: /* 2 */
		goto S_2948_0;
S_2947_1: /* 3 */
S_2945_0: /* 2 */
		/* else */;
S_2946_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2948_0;
S_2947_2: /* 3 */
		Uerror("blocking sel in d_step (nr.329, near line 159)");
S_2948_0: /* 2 */
		goto S_2953_0;
S_2952_1: /* 3 */
S_2950_0: /* 2 */
		/* else */;
S_2951_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2953_0;
S_2952_2: /* 3 */
		Uerror("blocking sel in d_step (nr.330, near line 191)");
S_2953_0: /* 2 */
S_2989_0: /* 2 */
S_2954_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_2989_1;
S_2986_0: /* 2 */
S_2955_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_2956_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_2964_0: /* 2 */
S_2963_0: /* 2 */
S_2957_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_2963_1;
S_2958_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_2959_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_2960_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_2964_0; /* ';' */
S_2963_1: /* 3 */
S_2961_0: /* 2 */
		/* else */;
S_2962_0: /* 2 */
		goto S_2966_0;	/* 'goto' */
S_2963_2: /* 3 */
		Uerror("blocking sel in d_step (nr.331, near line 140)");
S_2965_0: /* 2 */
		goto S_2966_0;	/* 'break' */
S_2966_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_2967_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_2968_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_2969_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2970_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_2982_0: /* 2 */
S_2981_0: /* 2 */
S_2971_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_2981_1;
S_2976_0: /* 2 */
S_2972_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_2976_1;
S_2973_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_2977_0;
S_2976_1: /* 3 */
S_2974_0: /* 2 */
		/* else */;
S_2975_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2977_0;
S_2976_2: /* 3 */
		Uerror("blocking sel in d_step (nr.332, near line 150)");
S_2977_0: /* 2 */
S_2978_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_2982_0; /* ';' */
S_2981_1: /* 3 */
S_2979_0: /* 2 */
		/* else */;
S_2980_0: /* 2 */
		goto S_2984_0;	/* 'goto' */
S_2981_2: /* 3 */
		Uerror("blocking sel in d_step (nr.333, near line 149)");
S_2983_0: /* 2 */
		goto S_2984_0;	/* 'break' */
S_2984_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_2985_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_2990_0;
S_2989_1: /* 3 */
S_2987_0: /* 2 */
		/* else */;
S_2988_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_2990_0;
S_2989_2: /* 3 */
		Uerror("blocking sel in d_step (nr.334, near line 192)");
S_2990_0: /* 2 */
		goto S_2992_0;
S_2991_3: /* 3 */
		Uerror("blocking sel in d_step (nr.335, near line 183)");
S_2992_0: /* 2 */
S_2993_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_2994_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_2995_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_2996_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_2997_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_2998_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_3000_0;
S_3000_0: /* 2 */
		now.rp[ Index(((((0*4)+0)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+0)*2)+0)]", ((int)now.rp[ Index(((((0*4)+0)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 84: // STATE 3005 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][3005] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3002_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3003_0: /* 2 */
		now.rp[ Index(((((0*4)+0)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+0)*2)+0)]", ((int)now.rp[ Index(((((0*4)+0)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 85: // STATE 3108 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][3108] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3005_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3106_0: /* 2 */
S_3006_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+0)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3007_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3008_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3009_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3010_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3098_0: /* 2 */
S_3011_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_3098_1;
S_3012_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3099_0;
S_3098_1: /* 3 */
S_3013_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_3098_2;
S_3014_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3015_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_3016_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3017_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3018_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3019_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_3099_0;
S_3098_2: /* 3 */
S_3020_0: /* 2 */
		/* else */;
S_3021_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_3026_0: /* 2 */
S_3022_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3026_1;
S_3023_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3027_0;
S_3026_1: /* 3 */
S_3024_0: /* 2 */
		/* else */;
S_3025_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3027_0;
S_3026_2: /* 3 */
		Uerror("blocking sel in d_step (nr.336, near line 190)");
S_3027_0: /* 2 */
S_3059_0: /* 2 */
S_3028_0: /* 2 */
		if (!(((1==((int)now.prid[0]))&&((int)t_ok))))
			goto S_3059_1;
S_3056_0: /* 2 */
S_3029_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<0));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3054_0: /* 2 */
S_3030_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_3054_1;
S_3035_0: /* 2 */
S_3031_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_3035_1;
S_3032_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_3036_0;
S_3035_1: /* 3 */
S_3033_0: /* 2 */
		/* else */;
S_3034_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3036_0;
S_3035_2: /* 3 */
		Uerror("blocking sel in d_step (nr.337, near line 161)");
S_3036_0: /* 2 */
S_3041_0: /* 2 */
S_3037_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_3041_1;
S_3038_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3042_0;
S_3041_1: /* 3 */
S_3039_0: /* 2 */
		/* else */;
S_3040_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3042_0;
S_3041_2: /* 3 */
		Uerror("blocking sel in d_step (nr.338, near line 166)");
S_3042_0: /* 2 */
S_3043_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3050_0: /* 2 */
S_3044_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_3050_1;
S_3045_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_3046_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_3047_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_3051_0;
S_3050_1: /* 3 */
S_3048_0: /* 2 */
		/* else */;
S_3049_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3051_0;
S_3050_2: /* 3 */
		Uerror("blocking sel in d_step (nr.339, near line 169)");
S_3051_0: /* 2 */
		goto S_3055_0;
S_3054_1: /* 3 */
S_3052_0: /* 2 */
		/* else */;
S_3053_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3055_0;
S_3054_2: /* 3 */
		Uerror("blocking sel in d_step (nr.340, near line 159)");
S_3055_0: /* 2 */
		goto S_3060_0;
S_3059_1: /* 3 */
S_3057_0: /* 2 */
		/* else */;
S_3058_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3060_0;
S_3059_2: /* 3 */
		Uerror("blocking sel in d_step (nr.341, near line 191)");
S_3060_0: /* 2 */
S_3096_0: /* 2 */
S_3061_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3096_1;
S_3093_0: /* 2 */
S_3062_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3063_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3071_0: /* 2 */
S_3070_0: /* 2 */
S_3064_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3070_1;
S_3065_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3066_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3067_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3071_0; /* ';' */
S_3070_1: /* 3 */
S_3068_0: /* 2 */
		/* else */;
S_3069_0: /* 2 */
		goto S_3073_0;	/* 'goto' */
S_3070_2: /* 3 */
		Uerror("blocking sel in d_step (nr.342, near line 140)");
S_3072_0: /* 2 */
		goto S_3073_0;	/* 'break' */
S_3073_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3074_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3075_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3076_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3077_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3089_0: /* 2 */
S_3088_0: /* 2 */
S_3078_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3088_1;
S_3083_0: /* 2 */
S_3079_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_3083_1;
S_3080_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_3084_0;
S_3083_1: /* 3 */
S_3081_0: /* 2 */
		/* else */;
S_3082_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3084_0;
S_3083_2: /* 3 */
		Uerror("blocking sel in d_step (nr.343, near line 150)");
S_3084_0: /* 2 */
S_3085_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3089_0; /* ';' */
S_3088_1: /* 3 */
S_3086_0: /* 2 */
		/* else */;
S_3087_0: /* 2 */
		goto S_3091_0;	/* 'goto' */
S_3088_2: /* 3 */
		Uerror("blocking sel in d_step (nr.344, near line 149)");
S_3090_0: /* 2 */
		goto S_3091_0;	/* 'break' */
S_3091_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3092_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_3097_0;
S_3096_1: /* 3 */
S_3094_0: /* 2 */
		/* else */;
S_3095_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3097_0;
S_3096_2: /* 3 */
		Uerror("blocking sel in d_step (nr.345, near line 192)");
S_3097_0: /* 2 */
		goto S_3099_0;
S_3098_3: /* 3 */
		Uerror("blocking sel in d_step (nr.346, near line 183)");
S_3099_0: /* 2 */
S_3100_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3101_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3102_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3103_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3104_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3105_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 86: // STATE 3212 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][3212] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3108_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3209_0: /* 2 */
S_3109_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+0)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3110_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3111_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3112_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3113_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3201_0: /* 2 */
S_3114_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_3201_1;
S_3115_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3202_0;
S_3201_1: /* 3 */
S_3116_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_3201_2;
S_3117_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3118_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_3119_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3120_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3121_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3122_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_3202_0;
S_3201_2: /* 3 */
S_3123_0: /* 2 */
		/* else */;
S_3124_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_3129_0: /* 2 */
S_3125_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3129_1;
S_3126_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3130_0;
S_3129_1: /* 3 */
S_3127_0: /* 2 */
		/* else */;
S_3128_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3130_0;
S_3129_2: /* 3 */
		Uerror("blocking sel in d_step (nr.347, near line 190)");
S_3130_0: /* 2 */
S_3162_0: /* 2 */
S_3131_0: /* 2 */
		if (!(((1==((int)now.prid[0]))&&((int)t_ok))))
			goto S_3162_1;
S_3159_0: /* 2 */
S_3132_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<0));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3157_0: /* 2 */
S_3133_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_3157_1;
S_3138_0: /* 2 */
S_3134_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_3138_1;
S_3135_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_3139_0;
S_3138_1: /* 3 */
S_3136_0: /* 2 */
		/* else */;
S_3137_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3139_0;
S_3138_2: /* 3 */
		Uerror("blocking sel in d_step (nr.348, near line 161)");
S_3139_0: /* 2 */
S_3144_0: /* 2 */
S_3140_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_3144_1;
S_3141_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3145_0;
S_3144_1: /* 3 */
S_3142_0: /* 2 */
		/* else */;
S_3143_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3145_0;
S_3144_2: /* 3 */
		Uerror("blocking sel in d_step (nr.349, near line 166)");
S_3145_0: /* 2 */
S_3146_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3153_0: /* 2 */
S_3147_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_3153_1;
S_3148_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_3149_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_3150_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_3154_0;
S_3153_1: /* 3 */
S_3151_0: /* 2 */
		/* else */;
S_3152_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3154_0;
S_3153_2: /* 3 */
		Uerror("blocking sel in d_step (nr.350, near line 169)");
S_3154_0: /* 2 */
		goto S_3158_0;
S_3157_1: /* 3 */
S_3155_0: /* 2 */
		/* else */;
S_3156_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3158_0;
S_3157_2: /* 3 */
		Uerror("blocking sel in d_step (nr.351, near line 159)");
S_3158_0: /* 2 */
		goto S_3163_0;
S_3162_1: /* 3 */
S_3160_0: /* 2 */
		/* else */;
S_3161_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3163_0;
S_3162_2: /* 3 */
		Uerror("blocking sel in d_step (nr.352, near line 191)");
S_3163_0: /* 2 */
S_3199_0: /* 2 */
S_3164_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3199_1;
S_3196_0: /* 2 */
S_3165_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3166_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3174_0: /* 2 */
S_3173_0: /* 2 */
S_3167_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3173_1;
S_3168_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3169_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3170_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3174_0; /* ';' */
S_3173_1: /* 3 */
S_3171_0: /* 2 */
		/* else */;
S_3172_0: /* 2 */
		goto S_3176_0;	/* 'goto' */
S_3173_2: /* 3 */
		Uerror("blocking sel in d_step (nr.353, near line 140)");
S_3175_0: /* 2 */
		goto S_3176_0;	/* 'break' */
S_3176_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3177_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3178_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3179_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3180_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3192_0: /* 2 */
S_3191_0: /* 2 */
S_3181_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3191_1;
S_3186_0: /* 2 */
S_3182_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_3186_1;
S_3183_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_3187_0;
S_3186_1: /* 3 */
S_3184_0: /* 2 */
		/* else */;
S_3185_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3187_0;
S_3186_2: /* 3 */
		Uerror("blocking sel in d_step (nr.354, near line 150)");
S_3187_0: /* 2 */
S_3188_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3192_0; /* ';' */
S_3191_1: /* 3 */
S_3189_0: /* 2 */
		/* else */;
S_3190_0: /* 2 */
		goto S_3194_0;	/* 'goto' */
S_3191_2: /* 3 */
		Uerror("blocking sel in d_step (nr.355, near line 149)");
S_3193_0: /* 2 */
		goto S_3194_0;	/* 'break' */
S_3194_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3195_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_3200_0;
S_3199_1: /* 3 */
S_3197_0: /* 2 */
		/* else */;
S_3198_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3200_0;
S_3199_2: /* 3 */
		Uerror("blocking sel in d_step (nr.356, near line 192)");
S_3200_0: /* 2 */
		goto S_3202_0;
S_3201_3: /* 3 */
		Uerror("blocking sel in d_step (nr.357, near line 183)");
S_3202_0: /* 2 */
S_3203_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3204_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3205_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3206_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3207_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3208_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_3210_0;
S_3210_0: /* 2 */
		now.rp[ Index(((((0*4)+0)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+0)*2)+1)]", ((int)now.rp[ Index(((((0*4)+0)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 87: // STATE 3215 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][3215] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3212_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3213_0: /* 2 */
		now.rp[ Index(((((0*4)+0)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+0)*2)+1)]", ((int)now.rp[ Index(((((0*4)+0)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 88: // STATE 3318 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][3318] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3215_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3316_0: /* 2 */
S_3216_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+1)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3217_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3218_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3219_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3220_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3308_0: /* 2 */
S_3221_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_3308_1;
S_3222_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3309_0;
S_3308_1: /* 3 */
S_3223_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_3308_2;
S_3224_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3225_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_3226_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3227_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3228_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3229_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_3309_0;
S_3308_2: /* 3 */
S_3230_0: /* 2 */
		/* else */;
S_3231_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_3236_0: /* 2 */
S_3232_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3236_1;
S_3233_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3237_0;
S_3236_1: /* 3 */
S_3234_0: /* 2 */
		/* else */;
S_3235_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3237_0;
S_3236_2: /* 3 */
		Uerror("blocking sel in d_step (nr.358, near line 190)");
S_3237_0: /* 2 */
S_3269_0: /* 2 */
S_3238_0: /* 2 */
		if (!(((0==((int)now.prid[0]))&&((int)t_ok))))
			goto S_3269_1;
S_3266_0: /* 2 */
S_3239_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<1));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3264_0: /* 2 */
S_3240_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_3264_1;
S_3245_0: /* 2 */
S_3241_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_3245_1;
S_3242_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_3246_0;
S_3245_1: /* 3 */
S_3243_0: /* 2 */
		/* else */;
S_3244_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3246_0;
S_3245_2: /* 3 */
		Uerror("blocking sel in d_step (nr.359, near line 161)");
S_3246_0: /* 2 */
S_3251_0: /* 2 */
S_3247_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_3251_1;
S_3248_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3252_0;
S_3251_1: /* 3 */
S_3249_0: /* 2 */
		/* else */;
S_3250_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3252_0;
S_3251_2: /* 3 */
		Uerror("blocking sel in d_step (nr.360, near line 166)");
S_3252_0: /* 2 */
S_3253_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3260_0: /* 2 */
S_3254_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_3260_1;
S_3255_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_3256_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_3257_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_3261_0;
S_3260_1: /* 3 */
S_3258_0: /* 2 */
		/* else */;
S_3259_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3261_0;
S_3260_2: /* 3 */
		Uerror("blocking sel in d_step (nr.361, near line 169)");
S_3261_0: /* 2 */
		goto S_3265_0;
S_3264_1: /* 3 */
S_3262_0: /* 2 */
		/* else */;
S_3263_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3265_0;
S_3264_2: /* 3 */
		Uerror("blocking sel in d_step (nr.362, near line 159)");
S_3265_0: /* 2 */
		goto S_3270_0;
S_3269_1: /* 3 */
S_3267_0: /* 2 */
		/* else */;
S_3268_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3270_0;
S_3269_2: /* 3 */
		Uerror("blocking sel in d_step (nr.363, near line 191)");
S_3270_0: /* 2 */
S_3306_0: /* 2 */
S_3271_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3306_1;
S_3303_0: /* 2 */
S_3272_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3273_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3281_0: /* 2 */
S_3280_0: /* 2 */
S_3274_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3280_1;
S_3275_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3276_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3277_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3281_0; /* ';' */
S_3280_1: /* 3 */
S_3278_0: /* 2 */
		/* else */;
S_3279_0: /* 2 */
		goto S_3283_0;	/* 'goto' */
S_3280_2: /* 3 */
		Uerror("blocking sel in d_step (nr.364, near line 140)");
S_3282_0: /* 2 */
		goto S_3283_0;	/* 'break' */
S_3283_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3284_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3285_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3286_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3287_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3299_0: /* 2 */
S_3298_0: /* 2 */
S_3288_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3298_1;
S_3293_0: /* 2 */
S_3289_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_3293_1;
S_3290_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_3294_0;
S_3293_1: /* 3 */
S_3291_0: /* 2 */
		/* else */;
S_3292_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3294_0;
S_3293_2: /* 3 */
		Uerror("blocking sel in d_step (nr.365, near line 150)");
S_3294_0: /* 2 */
S_3295_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3299_0; /* ';' */
S_3298_1: /* 3 */
S_3296_0: /* 2 */
		/* else */;
S_3297_0: /* 2 */
		goto S_3301_0;	/* 'goto' */
S_3298_2: /* 3 */
		Uerror("blocking sel in d_step (nr.366, near line 149)");
S_3300_0: /* 2 */
		goto S_3301_0;	/* 'break' */
S_3301_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3302_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_3307_0;
S_3306_1: /* 3 */
S_3304_0: /* 2 */
		/* else */;
S_3305_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3307_0;
S_3306_2: /* 3 */
		Uerror("blocking sel in d_step (nr.367, near line 192)");
S_3307_0: /* 2 */
		goto S_3309_0;
S_3308_3: /* 3 */
		Uerror("blocking sel in d_step (nr.368, near line 183)");
S_3309_0: /* 2 */
S_3310_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3311_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3312_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3313_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3314_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3315_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 89: // STATE 3422 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][3422] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3318_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3419_0: /* 2 */
S_3319_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+1)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3320_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3321_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3322_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3323_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3411_0: /* 2 */
S_3324_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_3411_1;
S_3325_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3412_0;
S_3411_1: /* 3 */
S_3326_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_3411_2;
S_3327_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3328_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_3329_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3330_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3331_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3332_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_3412_0;
S_3411_2: /* 3 */
S_3333_0: /* 2 */
		/* else */;
S_3334_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_3339_0: /* 2 */
S_3335_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3339_1;
S_3336_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3340_0;
S_3339_1: /* 3 */
S_3337_0: /* 2 */
		/* else */;
S_3338_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3340_0;
S_3339_2: /* 3 */
		Uerror("blocking sel in d_step (nr.369, near line 190)");
S_3340_0: /* 2 */
S_3372_0: /* 2 */
S_3341_0: /* 2 */
		if (!(((0==((int)now.prid[0]))&&((int)t_ok))))
			goto S_3372_1;
S_3369_0: /* 2 */
S_3342_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<1));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3367_0: /* 2 */
S_3343_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_3367_1;
S_3348_0: /* 2 */
S_3344_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_3348_1;
S_3345_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_3349_0;
S_3348_1: /* 3 */
S_3346_0: /* 2 */
		/* else */;
S_3347_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3349_0;
S_3348_2: /* 3 */
		Uerror("blocking sel in d_step (nr.370, near line 161)");
S_3349_0: /* 2 */
S_3354_0: /* 2 */
S_3350_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_3354_1;
S_3351_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3355_0;
S_3354_1: /* 3 */
S_3352_0: /* 2 */
		/* else */;
S_3353_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3355_0;
S_3354_2: /* 3 */
		Uerror("blocking sel in d_step (nr.371, near line 166)");
S_3355_0: /* 2 */
S_3356_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3363_0: /* 2 */
S_3357_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_3363_1;
S_3358_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_3359_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_3360_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_3364_0;
S_3363_1: /* 3 */
S_3361_0: /* 2 */
		/* else */;
S_3362_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3364_0;
S_3363_2: /* 3 */
		Uerror("blocking sel in d_step (nr.372, near line 169)");
S_3364_0: /* 2 */
		goto S_3368_0;
S_3367_1: /* 3 */
S_3365_0: /* 2 */
		/* else */;
S_3366_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3368_0;
S_3367_2: /* 3 */
		Uerror("blocking sel in d_step (nr.373, near line 159)");
S_3368_0: /* 2 */
		goto S_3373_0;
S_3372_1: /* 3 */
S_3370_0: /* 2 */
		/* else */;
S_3371_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3373_0;
S_3372_2: /* 3 */
		Uerror("blocking sel in d_step (nr.374, near line 191)");
S_3373_0: /* 2 */
S_3409_0: /* 2 */
S_3374_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3409_1;
S_3406_0: /* 2 */
S_3375_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3376_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3384_0: /* 2 */
S_3383_0: /* 2 */
S_3377_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3383_1;
S_3378_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3379_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3380_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3384_0; /* ';' */
S_3383_1: /* 3 */
S_3381_0: /* 2 */
		/* else */;
S_3382_0: /* 2 */
		goto S_3386_0;	/* 'goto' */
S_3383_2: /* 3 */
		Uerror("blocking sel in d_step (nr.375, near line 140)");
S_3385_0: /* 2 */
		goto S_3386_0;	/* 'break' */
S_3386_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3387_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3388_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3389_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3390_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3402_0: /* 2 */
S_3401_0: /* 2 */
S_3391_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3401_1;
S_3396_0: /* 2 */
S_3392_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_3396_1;
S_3393_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_3397_0;
S_3396_1: /* 3 */
S_3394_0: /* 2 */
		/* else */;
S_3395_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3397_0;
S_3396_2: /* 3 */
		Uerror("blocking sel in d_step (nr.376, near line 150)");
S_3397_0: /* 2 */
S_3398_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3402_0; /* ';' */
S_3401_1: /* 3 */
S_3399_0: /* 2 */
		/* else */;
S_3400_0: /* 2 */
		goto S_3404_0;	/* 'goto' */
S_3401_2: /* 3 */
		Uerror("blocking sel in d_step (nr.377, near line 149)");
S_3403_0: /* 2 */
		goto S_3404_0;	/* 'break' */
S_3404_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3405_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_3410_0;
S_3409_1: /* 3 */
S_3407_0: /* 2 */
		/* else */;
S_3408_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3410_0;
S_3409_2: /* 3 */
		Uerror("blocking sel in d_step (nr.378, near line 192)");
S_3410_0: /* 2 */
		goto S_3412_0;
S_3411_3: /* 3 */
		Uerror("blocking sel in d_step (nr.379, near line 183)");
S_3412_0: /* 2 */
S_3413_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3414_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3415_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3416_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3417_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3418_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_3420_0;
S_3420_0: /* 2 */
		now.rp[ Index(((((0*4)+1)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+1)*2)+0)]", ((int)now.rp[ Index(((((0*4)+1)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 90: // STATE 3425 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][3425] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3422_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3423_0: /* 2 */
		now.rp[ Index(((((0*4)+1)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+1)*2)+0)]", ((int)now.rp[ Index(((((0*4)+1)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 91: // STATE 3528 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][3528] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3425_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3526_0: /* 2 */
S_3426_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+1)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3427_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3428_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3429_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3430_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3518_0: /* 2 */
S_3431_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_3518_1;
S_3432_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3519_0;
S_3518_1: /* 3 */
S_3433_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_3518_2;
S_3434_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3435_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_3436_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3437_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3438_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3439_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_3519_0;
S_3518_2: /* 3 */
S_3440_0: /* 2 */
		/* else */;
S_3441_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_3446_0: /* 2 */
S_3442_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3446_1;
S_3443_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3447_0;
S_3446_1: /* 3 */
S_3444_0: /* 2 */
		/* else */;
S_3445_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3447_0;
S_3446_2: /* 3 */
		Uerror("blocking sel in d_step (nr.380, near line 190)");
S_3447_0: /* 2 */
S_3479_0: /* 2 */
S_3448_0: /* 2 */
		if (!(((1==((int)now.prid[0]))&&((int)t_ok))))
			goto S_3479_1;
S_3476_0: /* 2 */
S_3449_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<1));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3474_0: /* 2 */
S_3450_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_3474_1;
S_3455_0: /* 2 */
S_3451_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_3455_1;
S_3452_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_3456_0;
S_3455_1: /* 3 */
S_3453_0: /* 2 */
		/* else */;
S_3454_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3456_0;
S_3455_2: /* 3 */
		Uerror("blocking sel in d_step (nr.381, near line 161)");
S_3456_0: /* 2 */
S_3461_0: /* 2 */
S_3457_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_3461_1;
S_3458_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3462_0;
S_3461_1: /* 3 */
S_3459_0: /* 2 */
		/* else */;
S_3460_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3462_0;
S_3461_2: /* 3 */
		Uerror("blocking sel in d_step (nr.382, near line 166)");
S_3462_0: /* 2 */
S_3463_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3470_0: /* 2 */
S_3464_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_3470_1;
S_3465_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_3466_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_3467_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_3471_0;
S_3470_1: /* 3 */
S_3468_0: /* 2 */
		/* else */;
S_3469_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3471_0;
S_3470_2: /* 3 */
		Uerror("blocking sel in d_step (nr.383, near line 169)");
S_3471_0: /* 2 */
		goto S_3475_0;
S_3474_1: /* 3 */
S_3472_0: /* 2 */
		/* else */;
S_3473_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3475_0;
S_3474_2: /* 3 */
		Uerror("blocking sel in d_step (nr.384, near line 159)");
S_3475_0: /* 2 */
		goto S_3480_0;
S_3479_1: /* 3 */
S_3477_0: /* 2 */
		/* else */;
S_3478_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3480_0;
S_3479_2: /* 3 */
		Uerror("blocking sel in d_step (nr.385, near line 191)");
S_3480_0: /* 2 */
S_3516_0: /* 2 */
S_3481_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3516_1;
S_3513_0: /* 2 */
S_3482_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3483_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3491_0: /* 2 */
S_3490_0: /* 2 */
S_3484_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3490_1;
S_3485_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3486_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3487_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3491_0; /* ';' */
S_3490_1: /* 3 */
S_3488_0: /* 2 */
		/* else */;
S_3489_0: /* 2 */
		goto S_3493_0;	/* 'goto' */
S_3490_2: /* 3 */
		Uerror("blocking sel in d_step (nr.386, near line 140)");
S_3492_0: /* 2 */
		goto S_3493_0;	/* 'break' */
S_3493_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3494_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3495_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3496_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3497_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3509_0: /* 2 */
S_3508_0: /* 2 */
S_3498_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3508_1;
S_3503_0: /* 2 */
S_3499_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_3503_1;
S_3500_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_3504_0;
S_3503_1: /* 3 */
S_3501_0: /* 2 */
		/* else */;
S_3502_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3504_0;
S_3503_2: /* 3 */
		Uerror("blocking sel in d_step (nr.387, near line 150)");
S_3504_0: /* 2 */
S_3505_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3509_0; /* ';' */
S_3508_1: /* 3 */
S_3506_0: /* 2 */
		/* else */;
S_3507_0: /* 2 */
		goto S_3511_0;	/* 'goto' */
S_3508_2: /* 3 */
		Uerror("blocking sel in d_step (nr.388, near line 149)");
S_3510_0: /* 2 */
		goto S_3511_0;	/* 'break' */
S_3511_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3512_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_3517_0;
S_3516_1: /* 3 */
S_3514_0: /* 2 */
		/* else */;
S_3515_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3517_0;
S_3516_2: /* 3 */
		Uerror("blocking sel in d_step (nr.389, near line 192)");
S_3517_0: /* 2 */
		goto S_3519_0;
S_3518_3: /* 3 */
		Uerror("blocking sel in d_step (nr.390, near line 183)");
S_3519_0: /* 2 */
S_3520_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3521_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3522_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3523_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3524_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3525_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 92: // STATE 3632 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][3632] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3528_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3629_0: /* 2 */
S_3529_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+1)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3530_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3531_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3532_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3533_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3621_0: /* 2 */
S_3534_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_3621_1;
S_3535_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3622_0;
S_3621_1: /* 3 */
S_3536_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_3621_2;
S_3537_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3538_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_3539_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3540_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3541_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3542_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_3622_0;
S_3621_2: /* 3 */
S_3543_0: /* 2 */
		/* else */;
S_3544_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_3549_0: /* 2 */
S_3545_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3549_1;
S_3546_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3550_0;
S_3549_1: /* 3 */
S_3547_0: /* 2 */
		/* else */;
S_3548_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3550_0;
S_3549_2: /* 3 */
		Uerror("blocking sel in d_step (nr.391, near line 190)");
S_3550_0: /* 2 */
S_3582_0: /* 2 */
S_3551_0: /* 2 */
		if (!(((1==((int)now.prid[0]))&&((int)t_ok))))
			goto S_3582_1;
S_3579_0: /* 2 */
S_3552_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<1));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3577_0: /* 2 */
S_3553_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_3577_1;
S_3558_0: /* 2 */
S_3554_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_3558_1;
S_3555_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_3559_0;
S_3558_1: /* 3 */
S_3556_0: /* 2 */
		/* else */;
S_3557_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3559_0;
S_3558_2: /* 3 */
		Uerror("blocking sel in d_step (nr.392, near line 161)");
S_3559_0: /* 2 */
S_3564_0: /* 2 */
S_3560_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_3564_1;
S_3561_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3565_0;
S_3564_1: /* 3 */
S_3562_0: /* 2 */
		/* else */;
S_3563_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3565_0;
S_3564_2: /* 3 */
		Uerror("blocking sel in d_step (nr.393, near line 166)");
S_3565_0: /* 2 */
S_3566_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3573_0: /* 2 */
S_3567_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_3573_1;
S_3568_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_3569_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_3570_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_3574_0;
S_3573_1: /* 3 */
S_3571_0: /* 2 */
		/* else */;
S_3572_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3574_0;
S_3573_2: /* 3 */
		Uerror("blocking sel in d_step (nr.394, near line 169)");
S_3574_0: /* 2 */
		goto S_3578_0;
S_3577_1: /* 3 */
S_3575_0: /* 2 */
		/* else */;
S_3576_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3578_0;
S_3577_2: /* 3 */
		Uerror("blocking sel in d_step (nr.395, near line 159)");
S_3578_0: /* 2 */
		goto S_3583_0;
S_3582_1: /* 3 */
S_3580_0: /* 2 */
		/* else */;
S_3581_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3583_0;
S_3582_2: /* 3 */
		Uerror("blocking sel in d_step (nr.396, near line 191)");
S_3583_0: /* 2 */
S_3619_0: /* 2 */
S_3584_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3619_1;
S_3616_0: /* 2 */
S_3585_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3586_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3594_0: /* 2 */
S_3593_0: /* 2 */
S_3587_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3593_1;
S_3588_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3589_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3590_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3594_0; /* ';' */
S_3593_1: /* 3 */
S_3591_0: /* 2 */
		/* else */;
S_3592_0: /* 2 */
		goto S_3596_0;	/* 'goto' */
S_3593_2: /* 3 */
		Uerror("blocking sel in d_step (nr.397, near line 140)");
S_3595_0: /* 2 */
		goto S_3596_0;	/* 'break' */
S_3596_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3597_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3598_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3599_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3600_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3612_0: /* 2 */
S_3611_0: /* 2 */
S_3601_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3611_1;
S_3606_0: /* 2 */
S_3602_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_3606_1;
S_3603_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_3607_0;
S_3606_1: /* 3 */
S_3604_0: /* 2 */
		/* else */;
S_3605_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3607_0;
S_3606_2: /* 3 */
		Uerror("blocking sel in d_step (nr.398, near line 150)");
S_3607_0: /* 2 */
S_3608_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3612_0; /* ';' */
S_3611_1: /* 3 */
S_3609_0: /* 2 */
		/* else */;
S_3610_0: /* 2 */
		goto S_3614_0;	/* 'goto' */
S_3611_2: /* 3 */
		Uerror("blocking sel in d_step (nr.399, near line 149)");
S_3613_0: /* 2 */
		goto S_3614_0;	/* 'break' */
S_3614_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3615_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_3620_0;
S_3619_1: /* 3 */
S_3617_0: /* 2 */
		/* else */;
S_3618_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3620_0;
S_3619_2: /* 3 */
		Uerror("blocking sel in d_step (nr.400, near line 192)");
S_3620_0: /* 2 */
		goto S_3622_0;
S_3621_3: /* 3 */
		Uerror("blocking sel in d_step (nr.401, near line 183)");
S_3622_0: /* 2 */
S_3623_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3624_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3625_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3626_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3627_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3628_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_3630_0;
S_3630_0: /* 2 */
		now.rp[ Index(((((0*4)+1)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+1)*2)+1)]", ((int)now.rp[ Index(((((0*4)+1)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 93: // STATE 3635 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][3635] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3632_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3633_0: /* 2 */
		now.rp[ Index(((((0*4)+1)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+1)*2)+1)]", ((int)now.rp[ Index(((((0*4)+1)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 94: // STATE 3738 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+2)*2)+0), 16) ])!=0)))
			continue;

		reached[0][3738] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3635_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+2)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3736_0: /* 2 */
S_3636_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+2)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3637_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3638_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3639_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3640_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3728_0: /* 2 */
S_3641_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_3728_1;
S_3642_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3729_0;
S_3728_1: /* 3 */
S_3643_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_3728_2;
S_3644_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3645_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_3646_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3647_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3648_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3649_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_3729_0;
S_3728_2: /* 3 */
S_3650_0: /* 2 */
		/* else */;
S_3651_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_3656_0: /* 2 */
S_3652_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3656_1;
S_3653_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3657_0;
S_3656_1: /* 3 */
S_3654_0: /* 2 */
		/* else */;
S_3655_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3657_0;
S_3656_2: /* 3 */
		Uerror("blocking sel in d_step (nr.402, near line 190)");
S_3657_0: /* 2 */
S_3689_0: /* 2 */
S_3658_0: /* 2 */
		if (!(((0==((int)now.prid[0]))&&((int)t_ok))))
			goto S_3689_1;
S_3686_0: /* 2 */
S_3659_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<2));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3684_0: /* 2 */
S_3660_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_3684_1;
S_3665_0: /* 2 */
S_3661_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_3665_1;
S_3662_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_3666_0;
S_3665_1: /* 3 */
S_3663_0: /* 2 */
		/* else */;
S_3664_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3666_0;
S_3665_2: /* 3 */
		Uerror("blocking sel in d_step (nr.403, near line 161)");
S_3666_0: /* 2 */
S_3671_0: /* 2 */
S_3667_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_3671_1;
S_3668_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3672_0;
S_3671_1: /* 3 */
S_3669_0: /* 2 */
		/* else */;
S_3670_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3672_0;
S_3671_2: /* 3 */
		Uerror("blocking sel in d_step (nr.404, near line 166)");
S_3672_0: /* 2 */
S_3673_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3680_0: /* 2 */
S_3674_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_3680_1;
S_3675_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_3676_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_3677_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_3681_0;
S_3680_1: /* 3 */
S_3678_0: /* 2 */
		/* else */;
S_3679_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3681_0;
S_3680_2: /* 3 */
		Uerror("blocking sel in d_step (nr.405, near line 169)");
S_3681_0: /* 2 */
		goto S_3685_0;
S_3684_1: /* 3 */
S_3682_0: /* 2 */
		/* else */;
S_3683_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3685_0;
S_3684_2: /* 3 */
		Uerror("blocking sel in d_step (nr.406, near line 159)");
S_3685_0: /* 2 */
		goto S_3690_0;
S_3689_1: /* 3 */
S_3687_0: /* 2 */
		/* else */;
S_3688_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3690_0;
S_3689_2: /* 3 */
		Uerror("blocking sel in d_step (nr.407, near line 191)");
S_3690_0: /* 2 */
S_3726_0: /* 2 */
S_3691_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3726_1;
S_3723_0: /* 2 */
S_3692_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3693_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3701_0: /* 2 */
S_3700_0: /* 2 */
S_3694_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3700_1;
S_3695_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3696_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3697_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3701_0; /* ';' */
S_3700_1: /* 3 */
S_3698_0: /* 2 */
		/* else */;
S_3699_0: /* 2 */
		goto S_3703_0;	/* 'goto' */
S_3700_2: /* 3 */
		Uerror("blocking sel in d_step (nr.408, near line 140)");
S_3702_0: /* 2 */
		goto S_3703_0;	/* 'break' */
S_3703_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3704_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3705_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3706_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3707_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3719_0: /* 2 */
S_3718_0: /* 2 */
S_3708_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3718_1;
S_3713_0: /* 2 */
S_3709_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_3713_1;
S_3710_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_3714_0;
S_3713_1: /* 3 */
S_3711_0: /* 2 */
		/* else */;
S_3712_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3714_0;
S_3713_2: /* 3 */
		Uerror("blocking sel in d_step (nr.409, near line 150)");
S_3714_0: /* 2 */
S_3715_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3719_0; /* ';' */
S_3718_1: /* 3 */
S_3716_0: /* 2 */
		/* else */;
S_3717_0: /* 2 */
		goto S_3721_0;	/* 'goto' */
S_3718_2: /* 3 */
		Uerror("blocking sel in d_step (nr.410, near line 149)");
S_3720_0: /* 2 */
		goto S_3721_0;	/* 'break' */
S_3721_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3722_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_3727_0;
S_3726_1: /* 3 */
S_3724_0: /* 2 */
		/* else */;
S_3725_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3727_0;
S_3726_2: /* 3 */
		Uerror("blocking sel in d_step (nr.411, near line 192)");
S_3727_0: /* 2 */
		goto S_3729_0;
S_3728_3: /* 3 */
		Uerror("blocking sel in d_step (nr.412, near line 183)");
S_3729_0: /* 2 */
S_3730_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3731_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3732_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3733_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3734_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3735_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 95: // STATE 3842 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+2)*2)+0), 16) ])!=0)))
			continue;

		reached[0][3842] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3738_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+2)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3839_0: /* 2 */
S_3739_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+2)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3740_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3741_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3742_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3743_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3831_0: /* 2 */
S_3744_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_3831_1;
S_3745_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3832_0;
S_3831_1: /* 3 */
S_3746_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_3831_2;
S_3747_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3748_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_3749_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3750_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3751_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3752_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_3832_0;
S_3831_2: /* 3 */
S_3753_0: /* 2 */
		/* else */;
S_3754_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_3759_0: /* 2 */
S_3755_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3759_1;
S_3756_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3760_0;
S_3759_1: /* 3 */
S_3757_0: /* 2 */
		/* else */;
S_3758_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3760_0;
S_3759_2: /* 3 */
		Uerror("blocking sel in d_step (nr.413, near line 190)");
S_3760_0: /* 2 */
S_3792_0: /* 2 */
S_3761_0: /* 2 */
		if (!(((0==((int)now.prid[0]))&&((int)t_ok))))
			goto S_3792_1;
S_3789_0: /* 2 */
S_3762_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<2));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3787_0: /* 2 */
S_3763_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_3787_1;
S_3768_0: /* 2 */
S_3764_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_3768_1;
S_3765_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_3769_0;
S_3768_1: /* 3 */
S_3766_0: /* 2 */
		/* else */;
S_3767_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3769_0;
S_3768_2: /* 3 */
		Uerror("blocking sel in d_step (nr.414, near line 161)");
S_3769_0: /* 2 */
S_3774_0: /* 2 */
S_3770_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_3774_1;
S_3771_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3775_0;
S_3774_1: /* 3 */
S_3772_0: /* 2 */
		/* else */;
S_3773_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3775_0;
S_3774_2: /* 3 */
		Uerror("blocking sel in d_step (nr.415, near line 166)");
S_3775_0: /* 2 */
S_3776_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3783_0: /* 2 */
S_3777_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_3783_1;
S_3778_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_3779_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_3780_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_3784_0;
S_3783_1: /* 3 */
S_3781_0: /* 2 */
		/* else */;
S_3782_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3784_0;
S_3783_2: /* 3 */
		Uerror("blocking sel in d_step (nr.416, near line 169)");
S_3784_0: /* 2 */
		goto S_3788_0;
S_3787_1: /* 3 */
S_3785_0: /* 2 */
		/* else */;
S_3786_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3788_0;
S_3787_2: /* 3 */
		Uerror("blocking sel in d_step (nr.417, near line 159)");
S_3788_0: /* 2 */
		goto S_3793_0;
S_3792_1: /* 3 */
S_3790_0: /* 2 */
		/* else */;
S_3791_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3793_0;
S_3792_2: /* 3 */
		Uerror("blocking sel in d_step (nr.418, near line 191)");
S_3793_0: /* 2 */
S_3829_0: /* 2 */
S_3794_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3829_1;
S_3826_0: /* 2 */
S_3795_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3796_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3804_0: /* 2 */
S_3803_0: /* 2 */
S_3797_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3803_1;
S_3798_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3799_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3800_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3804_0; /* ';' */
S_3803_1: /* 3 */
S_3801_0: /* 2 */
		/* else */;
S_3802_0: /* 2 */
		goto S_3806_0;	/* 'goto' */
S_3803_2: /* 3 */
		Uerror("blocking sel in d_step (nr.419, near line 140)");
S_3805_0: /* 2 */
		goto S_3806_0;	/* 'break' */
S_3806_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3807_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3808_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3809_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3810_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3822_0: /* 2 */
S_3821_0: /* 2 */
S_3811_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3821_1;
S_3816_0: /* 2 */
S_3812_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_3816_1;
S_3813_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_3817_0;
S_3816_1: /* 3 */
S_3814_0: /* 2 */
		/* else */;
S_3815_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3817_0;
S_3816_2: /* 3 */
		Uerror("blocking sel in d_step (nr.420, near line 150)");
S_3817_0: /* 2 */
S_3818_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3822_0; /* ';' */
S_3821_1: /* 3 */
S_3819_0: /* 2 */
		/* else */;
S_3820_0: /* 2 */
		goto S_3824_0;	/* 'goto' */
S_3821_2: /* 3 */
		Uerror("blocking sel in d_step (nr.421, near line 149)");
S_3823_0: /* 2 */
		goto S_3824_0;	/* 'break' */
S_3824_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3825_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_3830_0;
S_3829_1: /* 3 */
S_3827_0: /* 2 */
		/* else */;
S_3828_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3830_0;
S_3829_2: /* 3 */
		Uerror("blocking sel in d_step (nr.422, near line 192)");
S_3830_0: /* 2 */
		goto S_3832_0;
S_3831_3: /* 3 */
		Uerror("blocking sel in d_step (nr.423, near line 183)");
S_3832_0: /* 2 */
S_3833_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3834_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3835_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3836_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3837_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3838_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_3840_0;
S_3840_0: /* 2 */
		now.rp[ Index(((((0*4)+2)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+2)*2)+0)]", ((int)now.rp[ Index(((((0*4)+2)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 96: // STATE 3845 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+2)*2)+0), 16) ])!=0)))
			continue;

		reached[0][3845] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3842_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+2)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3843_0: /* 2 */
		now.rp[ Index(((((0*4)+2)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+2)*2)+0)]", ((int)now.rp[ Index(((((0*4)+2)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 97: // STATE 3948 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+2)*2)+1), 16) ])!=0)))
			continue;

		reached[0][3948] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3845_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+2)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_3946_0: /* 2 */
S_3846_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+2)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3847_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3848_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3849_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3850_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3938_0: /* 2 */
S_3851_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_3938_1;
S_3852_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3939_0;
S_3938_1: /* 3 */
S_3853_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_3938_2;
S_3854_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3855_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_3856_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3857_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3858_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3859_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_3939_0;
S_3938_2: /* 3 */
S_3860_0: /* 2 */
		/* else */;
S_3861_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_3866_0: /* 2 */
S_3862_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3866_1;
S_3863_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3867_0;
S_3866_1: /* 3 */
S_3864_0: /* 2 */
		/* else */;
S_3865_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3867_0;
S_3866_2: /* 3 */
		Uerror("blocking sel in d_step (nr.424, near line 190)");
S_3867_0: /* 2 */
S_3899_0: /* 2 */
S_3868_0: /* 2 */
		if (!(((1==((int)now.prid[0]))&&((int)t_ok))))
			goto S_3899_1;
S_3896_0: /* 2 */
S_3869_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<2));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3894_0: /* 2 */
S_3870_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_3894_1;
S_3875_0: /* 2 */
S_3871_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_3875_1;
S_3872_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_3876_0;
S_3875_1: /* 3 */
S_3873_0: /* 2 */
		/* else */;
S_3874_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3876_0;
S_3875_2: /* 3 */
		Uerror("blocking sel in d_step (nr.425, near line 161)");
S_3876_0: /* 2 */
S_3881_0: /* 2 */
S_3877_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_3881_1;
S_3878_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3882_0;
S_3881_1: /* 3 */
S_3879_0: /* 2 */
		/* else */;
S_3880_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3882_0;
S_3881_2: /* 3 */
		Uerror("blocking sel in d_step (nr.426, near line 166)");
S_3882_0: /* 2 */
S_3883_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3890_0: /* 2 */
S_3884_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_3890_1;
S_3885_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_3886_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_3887_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_3891_0;
S_3890_1: /* 3 */
S_3888_0: /* 2 */
		/* else */;
S_3889_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3891_0;
S_3890_2: /* 3 */
		Uerror("blocking sel in d_step (nr.427, near line 169)");
S_3891_0: /* 2 */
		goto S_3895_0;
S_3894_1: /* 3 */
S_3892_0: /* 2 */
		/* else */;
S_3893_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3895_0;
S_3894_2: /* 3 */
		Uerror("blocking sel in d_step (nr.428, near line 159)");
S_3895_0: /* 2 */
		goto S_3900_0;
S_3899_1: /* 3 */
S_3897_0: /* 2 */
		/* else */;
S_3898_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3900_0;
S_3899_2: /* 3 */
		Uerror("blocking sel in d_step (nr.429, near line 191)");
S_3900_0: /* 2 */
S_3936_0: /* 2 */
S_3901_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3936_1;
S_3933_0: /* 2 */
S_3902_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3903_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3911_0: /* 2 */
S_3910_0: /* 2 */
S_3904_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3910_1;
S_3905_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3906_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_3907_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3911_0; /* ';' */
S_3910_1: /* 3 */
S_3908_0: /* 2 */
		/* else */;
S_3909_0: /* 2 */
		goto S_3913_0;	/* 'goto' */
S_3910_2: /* 3 */
		Uerror("blocking sel in d_step (nr.430, near line 140)");
S_3912_0: /* 2 */
		goto S_3913_0;	/* 'break' */
S_3913_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3914_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3915_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3916_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3917_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3929_0: /* 2 */
S_3928_0: /* 2 */
S_3918_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_3928_1;
S_3923_0: /* 2 */
S_3919_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_3923_1;
S_3920_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_3924_0;
S_3923_1: /* 3 */
S_3921_0: /* 2 */
		/* else */;
S_3922_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3924_0;
S_3923_2: /* 3 */
		Uerror("blocking sel in d_step (nr.431, near line 150)");
S_3924_0: /* 2 */
S_3925_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_3929_0; /* ';' */
S_3928_1: /* 3 */
S_3926_0: /* 2 */
		/* else */;
S_3927_0: /* 2 */
		goto S_3931_0;	/* 'goto' */
S_3928_2: /* 3 */
		Uerror("blocking sel in d_step (nr.432, near line 149)");
S_3930_0: /* 2 */
		goto S_3931_0;	/* 'break' */
S_3931_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_3932_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_3937_0;
S_3936_1: /* 3 */
S_3934_0: /* 2 */
		/* else */;
S_3935_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3937_0;
S_3936_2: /* 3 */
		Uerror("blocking sel in d_step (nr.433, near line 192)");
S_3937_0: /* 2 */
		goto S_3939_0;
S_3938_3: /* 3 */
		Uerror("blocking sel in d_step (nr.434, near line 183)");
S_3939_0: /* 2 */
S_3940_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3941_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3942_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3943_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3944_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_3945_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 98: // STATE 4052 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+2)*2)+1), 16) ])!=0)))
			continue;

		reached[0][4052] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_3948_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+2)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4049_0: /* 2 */
S_3949_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+2)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_3950_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_3951_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_3952_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_3953_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4041_0: /* 2 */
S_3954_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_4041_1;
S_3955_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4042_0;
S_4041_1: /* 3 */
S_3956_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_4041_2;
S_3957_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3958_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_3959_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_3960_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_3961_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_3962_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_4042_0;
S_4041_2: /* 3 */
S_3963_0: /* 2 */
		/* else */;
S_3964_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_3969_0: /* 2 */
S_3965_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_3969_1;
S_3966_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3970_0;
S_3969_1: /* 3 */
S_3967_0: /* 2 */
		/* else */;
S_3968_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3970_0;
S_3969_2: /* 3 */
		Uerror("blocking sel in d_step (nr.435, near line 190)");
S_3970_0: /* 2 */
S_4002_0: /* 2 */
S_3971_0: /* 2 */
		if (!(((1==((int)now.prid[0]))&&((int)t_ok))))
			goto S_4002_1;
S_3999_0: /* 2 */
S_3972_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<2));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_3997_0: /* 2 */
S_3973_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_3997_1;
S_3978_0: /* 2 */
S_3974_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_3978_1;
S_3975_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_3979_0;
S_3978_1: /* 3 */
S_3976_0: /* 2 */
		/* else */;
S_3977_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3979_0;
S_3978_2: /* 3 */
		Uerror("blocking sel in d_step (nr.436, near line 161)");
S_3979_0: /* 2 */
S_3984_0: /* 2 */
S_3980_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_3984_1;
S_3981_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_3985_0;
S_3984_1: /* 3 */
S_3982_0: /* 2 */
		/* else */;
S_3983_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3985_0;
S_3984_2: /* 3 */
		Uerror("blocking sel in d_step (nr.437, near line 166)");
S_3985_0: /* 2 */
S_3986_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_3993_0: /* 2 */
S_3987_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_3993_1;
S_3988_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_3989_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_3990_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_3994_0;
S_3993_1: /* 3 */
S_3991_0: /* 2 */
		/* else */;
S_3992_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3994_0;
S_3993_2: /* 3 */
		Uerror("blocking sel in d_step (nr.438, near line 169)");
S_3994_0: /* 2 */
		goto S_3998_0;
S_3997_1: /* 3 */
S_3995_0: /* 2 */
		/* else */;
S_3996_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_3998_0;
S_3997_2: /* 3 */
		Uerror("blocking sel in d_step (nr.439, near line 159)");
S_3998_0: /* 2 */
		goto S_4003_0;
S_4002_1: /* 3 */
S_4000_0: /* 2 */
		/* else */;
S_4001_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4003_0;
S_4002_2: /* 3 */
		Uerror("blocking sel in d_step (nr.440, near line 191)");
S_4003_0: /* 2 */
S_4039_0: /* 2 */
S_4004_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4039_1;
S_4036_0: /* 2 */
S_4005_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_4006_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4014_0: /* 2 */
S_4013_0: /* 2 */
S_4007_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4013_1;
S_4008_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_4009_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_4010_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4014_0; /* ';' */
S_4013_1: /* 3 */
S_4011_0: /* 2 */
		/* else */;
S_4012_0: /* 2 */
		goto S_4016_0;	/* 'goto' */
S_4013_2: /* 3 */
		Uerror("blocking sel in d_step (nr.441, near line 140)");
S_4015_0: /* 2 */
		goto S_4016_0;	/* 'break' */
S_4016_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_4017_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_4018_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_4019_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4020_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4032_0: /* 2 */
S_4031_0: /* 2 */
S_4021_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4031_1;
S_4026_0: /* 2 */
S_4022_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_4026_1;
S_4023_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_4027_0;
S_4026_1: /* 3 */
S_4024_0: /* 2 */
		/* else */;
S_4025_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4027_0;
S_4026_2: /* 3 */
		Uerror("blocking sel in d_step (nr.442, near line 150)");
S_4027_0: /* 2 */
S_4028_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4032_0; /* ';' */
S_4031_1: /* 3 */
S_4029_0: /* 2 */
		/* else */;
S_4030_0: /* 2 */
		goto S_4034_0;	/* 'goto' */
S_4031_2: /* 3 */
		Uerror("blocking sel in d_step (nr.443, near line 149)");
S_4033_0: /* 2 */
		goto S_4034_0;	/* 'break' */
S_4034_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4035_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_4040_0;
S_4039_1: /* 3 */
S_4037_0: /* 2 */
		/* else */;
S_4038_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4040_0;
S_4039_2: /* 3 */
		Uerror("blocking sel in d_step (nr.444, near line 192)");
S_4040_0: /* 2 */
		goto S_4042_0;
S_4041_3: /* 3 */
		Uerror("blocking sel in d_step (nr.445, near line 183)");
S_4042_0: /* 2 */
S_4043_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4044_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4045_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4046_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4047_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4048_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_4050_0;
S_4050_0: /* 2 */
		now.rp[ Index(((((0*4)+2)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+2)*2)+1)]", ((int)now.rp[ Index(((((0*4)+2)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 99: // STATE 4055 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+2)*2)+1), 16) ])!=0)))
			continue;

		reached[0][4055] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4052_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+2)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4053_0: /* 2 */
		now.rp[ Index(((((0*4)+2)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+2)*2)+1)]", ((int)now.rp[ Index(((((0*4)+2)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 100: // STATE 4158 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+3)*2)+0), 16) ])!=0)))
			continue;

		reached[0][4158] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4055_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+3)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4156_0: /* 2 */
S_4056_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+3)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4057_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4058_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4059_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4060_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4148_0: /* 2 */
S_4061_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_4148_1;
S_4062_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4149_0;
S_4148_1: /* 3 */
S_4063_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_4148_2;
S_4064_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_4065_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_4066_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_4067_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_4068_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_4069_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_4149_0;
S_4148_2: /* 3 */
S_4070_0: /* 2 */
		/* else */;
S_4071_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_4076_0: /* 2 */
S_4072_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4076_1;
S_4073_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_4077_0;
S_4076_1: /* 3 */
S_4074_0: /* 2 */
		/* else */;
S_4075_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4077_0;
S_4076_2: /* 3 */
		Uerror("blocking sel in d_step (nr.446, near line 190)");
S_4077_0: /* 2 */
S_4109_0: /* 2 */
S_4078_0: /* 2 */
		if (!(((0==((int)now.prid[0]))&&((int)t_ok))))
			goto S_4109_1;
S_4106_0: /* 2 */
S_4079_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<3));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_4104_0: /* 2 */
S_4080_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_4104_1;
S_4085_0: /* 2 */
S_4081_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_4085_1;
S_4082_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_4086_0;
S_4085_1: /* 3 */
S_4083_0: /* 2 */
		/* else */;
S_4084_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4086_0;
S_4085_2: /* 3 */
		Uerror("blocking sel in d_step (nr.447, near line 161)");
S_4086_0: /* 2 */
S_4091_0: /* 2 */
S_4087_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_4091_1;
S_4088_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_4092_0;
S_4091_1: /* 3 */
S_4089_0: /* 2 */
		/* else */;
S_4090_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4092_0;
S_4091_2: /* 3 */
		Uerror("blocking sel in d_step (nr.448, near line 166)");
S_4092_0: /* 2 */
S_4093_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_4100_0: /* 2 */
S_4094_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_4100_1;
S_4095_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_4096_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_4097_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_4101_0;
S_4100_1: /* 3 */
S_4098_0: /* 2 */
		/* else */;
S_4099_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4101_0;
S_4100_2: /* 3 */
		Uerror("blocking sel in d_step (nr.449, near line 169)");
S_4101_0: /* 2 */
		goto S_4105_0;
S_4104_1: /* 3 */
S_4102_0: /* 2 */
		/* else */;
S_4103_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4105_0;
S_4104_2: /* 3 */
		Uerror("blocking sel in d_step (nr.450, near line 159)");
S_4105_0: /* 2 */
		goto S_4110_0;
S_4109_1: /* 3 */
S_4107_0: /* 2 */
		/* else */;
S_4108_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4110_0;
S_4109_2: /* 3 */
		Uerror("blocking sel in d_step (nr.451, near line 191)");
S_4110_0: /* 2 */
S_4146_0: /* 2 */
S_4111_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4146_1;
S_4143_0: /* 2 */
S_4112_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_4113_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4121_0: /* 2 */
S_4120_0: /* 2 */
S_4114_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4120_1;
S_4115_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_4116_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_4117_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4121_0; /* ';' */
S_4120_1: /* 3 */
S_4118_0: /* 2 */
		/* else */;
S_4119_0: /* 2 */
		goto S_4123_0;	/* 'goto' */
S_4120_2: /* 3 */
		Uerror("blocking sel in d_step (nr.452, near line 140)");
S_4122_0: /* 2 */
		goto S_4123_0;	/* 'break' */
S_4123_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_4124_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_4125_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_4126_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4127_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4139_0: /* 2 */
S_4138_0: /* 2 */
S_4128_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4138_1;
S_4133_0: /* 2 */
S_4129_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_4133_1;
S_4130_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_4134_0;
S_4133_1: /* 3 */
S_4131_0: /* 2 */
		/* else */;
S_4132_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4134_0;
S_4133_2: /* 3 */
		Uerror("blocking sel in d_step (nr.453, near line 150)");
S_4134_0: /* 2 */
S_4135_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4139_0; /* ';' */
S_4138_1: /* 3 */
S_4136_0: /* 2 */
		/* else */;
S_4137_0: /* 2 */
		goto S_4141_0;	/* 'goto' */
S_4138_2: /* 3 */
		Uerror("blocking sel in d_step (nr.454, near line 149)");
S_4140_0: /* 2 */
		goto S_4141_0;	/* 'break' */
S_4141_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4142_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_4147_0;
S_4146_1: /* 3 */
S_4144_0: /* 2 */
		/* else */;
S_4145_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4147_0;
S_4146_2: /* 3 */
		Uerror("blocking sel in d_step (nr.455, near line 192)");
S_4147_0: /* 2 */
		goto S_4149_0;
S_4148_3: /* 3 */
		Uerror("blocking sel in d_step (nr.456, near line 183)");
S_4149_0: /* 2 */
S_4150_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4151_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4152_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4153_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4154_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4155_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 101: // STATE 4262 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+3)*2)+0), 16) ])!=0)))
			continue;

		reached[0][4262] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4158_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+3)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4259_0: /* 2 */
S_4159_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+3)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4160_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4161_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4162_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4163_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4251_0: /* 2 */
S_4164_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_4251_1;
S_4165_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4252_0;
S_4251_1: /* 3 */
S_4166_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_4251_2;
S_4167_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_4168_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_4169_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_4170_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_4171_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_4172_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_4252_0;
S_4251_2: /* 3 */
S_4173_0: /* 2 */
		/* else */;
S_4174_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_4179_0: /* 2 */
S_4175_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4179_1;
S_4176_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_4180_0;
S_4179_1: /* 3 */
S_4177_0: /* 2 */
		/* else */;
S_4178_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4180_0;
S_4179_2: /* 3 */
		Uerror("blocking sel in d_step (nr.457, near line 190)");
S_4180_0: /* 2 */
S_4212_0: /* 2 */
S_4181_0: /* 2 */
		if (!(((0==((int)now.prid[0]))&&((int)t_ok))))
			goto S_4212_1;
S_4209_0: /* 2 */
S_4182_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<3));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_4207_0: /* 2 */
S_4183_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_4207_1;
S_4188_0: /* 2 */
S_4184_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_4188_1;
S_4185_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_4189_0;
S_4188_1: /* 3 */
S_4186_0: /* 2 */
		/* else */;
S_4187_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4189_0;
S_4188_2: /* 3 */
		Uerror("blocking sel in d_step (nr.458, near line 161)");
S_4189_0: /* 2 */
S_4194_0: /* 2 */
S_4190_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_4194_1;
S_4191_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_4195_0;
S_4194_1: /* 3 */
S_4192_0: /* 2 */
		/* else */;
S_4193_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4195_0;
S_4194_2: /* 3 */
		Uerror("blocking sel in d_step (nr.459, near line 166)");
S_4195_0: /* 2 */
S_4196_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_4203_0: /* 2 */
S_4197_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_4203_1;
S_4198_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_4199_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_4200_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_4204_0;
S_4203_1: /* 3 */
S_4201_0: /* 2 */
		/* else */;
S_4202_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4204_0;
S_4203_2: /* 3 */
		Uerror("blocking sel in d_step (nr.460, near line 169)");
S_4204_0: /* 2 */
		goto S_4208_0;
S_4207_1: /* 3 */
S_4205_0: /* 2 */
		/* else */;
S_4206_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4208_0;
S_4207_2: /* 3 */
		Uerror("blocking sel in d_step (nr.461, near line 159)");
S_4208_0: /* 2 */
		goto S_4213_0;
S_4212_1: /* 3 */
S_4210_0: /* 2 */
		/* else */;
S_4211_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4213_0;
S_4212_2: /* 3 */
		Uerror("blocking sel in d_step (nr.462, near line 191)");
S_4213_0: /* 2 */
S_4249_0: /* 2 */
S_4214_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4249_1;
S_4246_0: /* 2 */
S_4215_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_4216_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4224_0: /* 2 */
S_4223_0: /* 2 */
S_4217_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4223_1;
S_4218_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_4219_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_4220_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4224_0; /* ';' */
S_4223_1: /* 3 */
S_4221_0: /* 2 */
		/* else */;
S_4222_0: /* 2 */
		goto S_4226_0;	/* 'goto' */
S_4223_2: /* 3 */
		Uerror("blocking sel in d_step (nr.463, near line 140)");
S_4225_0: /* 2 */
		goto S_4226_0;	/* 'break' */
S_4226_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_4227_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_4228_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_4229_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4230_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4242_0: /* 2 */
S_4241_0: /* 2 */
S_4231_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4241_1;
S_4236_0: /* 2 */
S_4232_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_4236_1;
S_4233_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_4237_0;
S_4236_1: /* 3 */
S_4234_0: /* 2 */
		/* else */;
S_4235_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4237_0;
S_4236_2: /* 3 */
		Uerror("blocking sel in d_step (nr.464, near line 150)");
S_4237_0: /* 2 */
S_4238_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4242_0; /* ';' */
S_4241_1: /* 3 */
S_4239_0: /* 2 */
		/* else */;
S_4240_0: /* 2 */
		goto S_4244_0;	/* 'goto' */
S_4241_2: /* 3 */
		Uerror("blocking sel in d_step (nr.465, near line 149)");
S_4243_0: /* 2 */
		goto S_4244_0;	/* 'break' */
S_4244_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4245_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_4250_0;
S_4249_1: /* 3 */
S_4247_0: /* 2 */
		/* else */;
S_4248_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4250_0;
S_4249_2: /* 3 */
		Uerror("blocking sel in d_step (nr.466, near line 192)");
S_4250_0: /* 2 */
		goto S_4252_0;
S_4251_3: /* 3 */
		Uerror("blocking sel in d_step (nr.467, near line 183)");
S_4252_0: /* 2 */
S_4253_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4254_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4255_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4256_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4257_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4258_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_4260_0;
S_4260_0: /* 2 */
		now.rp[ Index(((((0*4)+3)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+3)*2)+0)]", ((int)now.rp[ Index(((((0*4)+3)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 102: // STATE 4265 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+3)*2)+0), 16) ])!=0)))
			continue;

		reached[0][4265] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4262_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+3)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4263_0: /* 2 */
		now.rp[ Index(((((0*4)+3)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+3)*2)+0)]", ((int)now.rp[ Index(((((0*4)+3)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 103: // STATE 4368 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+3)*2)+1), 16) ])!=0)))
			continue;

		reached[0][4368] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4265_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+3)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4366_0: /* 2 */
S_4266_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+3)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4267_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4268_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4269_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4270_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4358_0: /* 2 */
S_4271_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_4358_1;
S_4272_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4359_0;
S_4358_1: /* 3 */
S_4273_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_4358_2;
S_4274_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_4275_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_4276_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_4277_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_4278_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_4279_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_4359_0;
S_4358_2: /* 3 */
S_4280_0: /* 2 */
		/* else */;
S_4281_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_4286_0: /* 2 */
S_4282_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4286_1;
S_4283_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_4287_0;
S_4286_1: /* 3 */
S_4284_0: /* 2 */
		/* else */;
S_4285_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4287_0;
S_4286_2: /* 3 */
		Uerror("blocking sel in d_step (nr.468, near line 190)");
S_4287_0: /* 2 */
S_4319_0: /* 2 */
S_4288_0: /* 2 */
		if (!(((1==((int)now.prid[0]))&&((int)t_ok))))
			goto S_4319_1;
S_4316_0: /* 2 */
S_4289_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<3));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_4314_0: /* 2 */
S_4290_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_4314_1;
S_4295_0: /* 2 */
S_4291_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_4295_1;
S_4292_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_4296_0;
S_4295_1: /* 3 */
S_4293_0: /* 2 */
		/* else */;
S_4294_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4296_0;
S_4295_2: /* 3 */
		Uerror("blocking sel in d_step (nr.469, near line 161)");
S_4296_0: /* 2 */
S_4301_0: /* 2 */
S_4297_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_4301_1;
S_4298_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_4302_0;
S_4301_1: /* 3 */
S_4299_0: /* 2 */
		/* else */;
S_4300_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4302_0;
S_4301_2: /* 3 */
		Uerror("blocking sel in d_step (nr.470, near line 166)");
S_4302_0: /* 2 */
S_4303_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_4310_0: /* 2 */
S_4304_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_4310_1;
S_4305_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_4306_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_4307_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_4311_0;
S_4310_1: /* 3 */
S_4308_0: /* 2 */
		/* else */;
S_4309_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4311_0;
S_4310_2: /* 3 */
		Uerror("blocking sel in d_step (nr.471, near line 169)");
S_4311_0: /* 2 */
		goto S_4315_0;
S_4314_1: /* 3 */
S_4312_0: /* 2 */
		/* else */;
S_4313_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4315_0;
S_4314_2: /* 3 */
		Uerror("blocking sel in d_step (nr.472, near line 159)");
S_4315_0: /* 2 */
		goto S_4320_0;
S_4319_1: /* 3 */
S_4317_0: /* 2 */
		/* else */;
S_4318_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4320_0;
S_4319_2: /* 3 */
		Uerror("blocking sel in d_step (nr.473, near line 191)");
S_4320_0: /* 2 */
S_4356_0: /* 2 */
S_4321_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4356_1;
S_4353_0: /* 2 */
S_4322_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_4323_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4331_0: /* 2 */
S_4330_0: /* 2 */
S_4324_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4330_1;
S_4325_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_4326_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_4327_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4331_0; /* ';' */
S_4330_1: /* 3 */
S_4328_0: /* 2 */
		/* else */;
S_4329_0: /* 2 */
		goto S_4333_0;	/* 'goto' */
S_4330_2: /* 3 */
		Uerror("blocking sel in d_step (nr.474, near line 140)");
S_4332_0: /* 2 */
		goto S_4333_0;	/* 'break' */
S_4333_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_4334_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_4335_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_4336_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4337_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4349_0: /* 2 */
S_4348_0: /* 2 */
S_4338_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4348_1;
S_4343_0: /* 2 */
S_4339_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_4343_1;
S_4340_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_4344_0;
S_4343_1: /* 3 */
S_4341_0: /* 2 */
		/* else */;
S_4342_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4344_0;
S_4343_2: /* 3 */
		Uerror("blocking sel in d_step (nr.475, near line 150)");
S_4344_0: /* 2 */
S_4345_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4349_0; /* ';' */
S_4348_1: /* 3 */
S_4346_0: /* 2 */
		/* else */;
S_4347_0: /* 2 */
		goto S_4351_0;	/* 'goto' */
S_4348_2: /* 3 */
		Uerror("blocking sel in d_step (nr.476, near line 149)");
S_4350_0: /* 2 */
		goto S_4351_0;	/* 'break' */
S_4351_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4352_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_4357_0;
S_4356_1: /* 3 */
S_4354_0: /* 2 */
		/* else */;
S_4355_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4357_0;
S_4356_2: /* 3 */
		Uerror("blocking sel in d_step (nr.477, near line 192)");
S_4357_0: /* 2 */
		goto S_4359_0;
S_4358_3: /* 3 */
		Uerror("blocking sel in d_step (nr.478, near line 183)");
S_4359_0: /* 2 */
S_4360_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4361_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4362_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4363_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4364_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4365_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 104: // STATE 4472 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+3)*2)+1), 16) ])!=0)))
			continue;

		reached[0][4472] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4368_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+3)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4469_0: /* 2 */
S_4369_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((0*4)+3)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4370_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4371_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4372_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4373_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4461_0: /* 2 */
S_4374_0: /* 2 */
		if (!((((int)now.pst[0])==0)))
			goto S_4461_1;
S_4375_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4462_0;
S_4461_1: /* 3 */
S_4376_0: /* 2 */
		if (!((((((int)now.pst[0])!=0)&&(((int)t_kind)!=(0+1)))&&(((int)t_ep)>((int)now.pep[0])))))
			goto S_4461_2;
S_4377_0: /* 2 */
		now.pst[0] = 0;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_4378_0: /* 2 */
		now.pep[0] = 0;
#ifdef VAR_RANGES
		logval("pep[0]", ((int)now.pep[0]));
#endif
		;
S_4379_0: /* 2 */
		now.prid[0] = 0;
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_4380_0: /* 2 */
		now.prj[0] = 0;
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_4381_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_4382_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
		goto S_4462_0;
S_4461_2: /* 3 */
S_4383_0: /* 2 */
		/* else */;
S_4384_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[0]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_4389_0: /* 2 */
S_4385_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4389_1;
S_4386_0: /* 2 */
		now.pcf[0] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_4390_0;
S_4389_1: /* 3 */
S_4387_0: /* 2 */
		/* else */;
S_4388_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4390_0;
S_4389_2: /* 3 */
		Uerror("blocking sel in d_step (nr.479, near line 190)");
S_4390_0: /* 2 */
S_4422_0: /* 2 */
S_4391_0: /* 2 */
		if (!(((1==((int)now.prid[0]))&&((int)t_ok))))
			goto S_4422_1;
S_4419_0: /* 2 */
S_4392_0: /* 2 */
		now.pgr[0] = (((int)now.pgr[0])|(1<<3));
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_4417_0: /* 2 */
S_4393_0: /* 2 */
		if (!(((((((int)now.pcf[0])==0)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))||(((((int)now.pcf[0])==1)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>2)&1))>=2))&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))||((((int)now.pcf[0])==2)&&((((((int)now.pgr[0])&1)+((((int)now.pgr[0])>>1)&1))+((((int)now.pgr[0])>>3)&1))>=2)))))
			goto S_4417_1;
S_4398_0: /* 2 */
S_4394_0: /* 2 */
		if (!((((5-2)>((int)now.prage[0]))&&(((5-2)-((int)now.prage[0]))>((int)now.pleft[0])))))
			goto S_4398_1;
S_4395_0: /* 2 */
		now.pleft[0] = ((5-2)-((int)now.prage[0]));
#ifdef VAR_RANGES
		logval("pleft[0]", ((int)now.pleft[0]));
#endif
		;
		goto S_4399_0;
S_4398_1: /* 3 */
S_4396_0: /* 2 */
		/* else */;
S_4397_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4399_0;
S_4398_2: /* 3 */
		Uerror("blocking sel in d_step (nr.480, near line 161)");
S_4399_0: /* 2 */
S_4404_0: /* 2 */
S_4400_0: /* 2 */
		if (!(((((int)now.pcf[0])==1)&&((int)now.prj[0]))))
			goto S_4404_1;
S_4401_0: /* 2 */
		now.pcf[0] = 2;
#ifdef VAR_RANGES
		logval("pcf[0]", ((int)now.pcf[0]));
#endif
		;
		goto S_4405_0;
S_4404_1: /* 3 */
S_4402_0: /* 2 */
		/* else */;
S_4403_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4405_0;
S_4404_2: /* 3 */
		Uerror("blocking sel in d_step (nr.481, near line 166)");
S_4405_0: /* 2 */
S_4406_0: /* 2 */
		now.pst[0] = 2;
#ifdef VAR_RANGES
		logval("pst[0]", ((int)now.pst[0]));
#endif
		;
S_4413_0: /* 2 */
S_4407_0: /* 2 */
		if (!(((((int)now.pleft[0])>0)&& !(((int)now.prun[0])))))
			goto S_4413_1;
S_4408_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-0), 2) ])), " !(prun[(1-0)])", II, tt, t);
S_4409_0: /* 2 */
		now.prun[0] = 1;
#ifdef VAR_RANGES
		logval("prun[0]", ((int)now.prun[0]));
#endif
		;
S_4410_0: /* 2 */
		now.pfc[0] = 0;
#ifdef VAR_RANGES
		logval("pfc[0]", ((int)now.pfc[0]));
#endif
		;
		goto S_4414_0;
S_4413_1: /* 3 */
S_4411_0: /* 2 */
		/* else */;
S_4412_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4414_0;
S_4413_2: /* 3 */
		Uerror("blocking sel in d_step (nr.482, near line 169)");
S_4414_0: /* 2 */
		goto S_4418_0;
S_4417_1: /* 3 */
S_4415_0: /* 2 */
		/* else */;
S_4416_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4418_0;
S_4417_2: /* 3 */
		Uerror("blocking sel in d_step (nr.483, near line 159)");
S_4418_0: /* 2 */
		goto S_4423_0;
S_4422_1: /* 3 */
S_4420_0: /* 2 */
		/* else */;
S_4421_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4423_0;
S_4422_2: /* 3 */
		Uerror("blocking sel in d_step (nr.484, near line 191)");
S_4423_0: /* 2 */
S_4459_0: /* 2 */
S_4424_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4459_1;
S_4456_0: /* 2 */
S_4425_0: /* 2 */
		now.prid[0] = (1-((int)now.prid[0]));
#ifdef VAR_RANGES
		logval("prid[0]", ((int)now.prid[0]));
#endif
		;
S_4426_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4434_0: /* 2 */
S_4433_0: /* 2 */
S_4427_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4433_1;
S_4428_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_4429_0: /* 2 */
		now.rp[ Index(((((0*4)+t_i)*2)+now.prid[0]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+t_i)*2)+prid[0])]", ((int)now.rp[ Index(((((0*4)+((int)t_i))*2)+((int)now.prid[0])), 16) ]));
#endif
		;
S_4430_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4434_0; /* ';' */
S_4433_1: /* 3 */
S_4431_0: /* 2 */
		/* else */;
S_4432_0: /* 2 */
		goto S_4436_0;	/* 'goto' */
S_4433_2: /* 3 */
		Uerror("blocking sel in d_step (nr.485, near line 140)");
S_4435_0: /* 2 */
		goto S_4436_0;	/* 'break' */
S_4436_0: /* 2 */
		now.prage[0] = 0;
#ifdef VAR_RANGES
		logval("prage[0]", ((int)now.prage[0]));
#endif
		;
S_4437_0: /* 2 */
		now.pgr[0] = 0;
#ifdef VAR_RANGES
		logval("pgr[0]", ((int)now.pgr[0]));
#endif
		;
S_4438_0: /* 2 */
		now.prj[0] = (((int)now.pcf[0])==1);
#ifdef VAR_RANGES
		logval("prj[0]", ((int)now.prj[0]));
#endif
		;
S_4439_0: /* 2 */
		t_v = (((1|((((int)now.pst[0])==1)<<1))|(((int)now.pep[0])<<2))|(((int)now.pcf[0])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4440_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4452_0: /* 2 */
S_4451_0: /* 2 */
S_4441_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4451_1;
S_4446_0: /* 2 */
S_4442_0: /* 2 */
		if (!((((((int)now.pcf[0])==1)||((((int)now.pcf[0])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[0])==2)&&(((int)t_i)!=2)))))
			goto S_4446_1;
S_4443_0: /* 2 */
		now.rq[ Index(((((t_i*2)+0)*2)+now.prid[0]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+0)*2)+prid[0])]", ((int)now.rq[ Index(((((((int)t_i)*2)+0)*2)+((int)now.prid[0])), 16) ]));
#endif
		;
		goto S_4447_0;
S_4446_1: /* 3 */
S_4444_0: /* 2 */
		/* else */;
S_4445_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4447_0;
S_4446_2: /* 3 */
		Uerror("blocking sel in d_step (nr.486, near line 150)");
S_4447_0: /* 2 */
S_4448_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4452_0; /* ';' */
S_4451_1: /* 3 */
S_4449_0: /* 2 */
		/* else */;
S_4450_0: /* 2 */
		goto S_4454_0;	/* 'goto' */
S_4451_2: /* 3 */
		Uerror("blocking sel in d_step (nr.487, near line 149)");
S_4453_0: /* 2 */
		goto S_4454_0;	/* 'break' */
S_4454_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4455_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_4460_0;
S_4459_1: /* 3 */
S_4457_0: /* 2 */
		/* else */;
S_4458_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4460_0;
S_4459_2: /* 3 */
		Uerror("blocking sel in d_step (nr.488, near line 192)");
S_4460_0: /* 2 */
		goto S_4462_0;
S_4461_3: /* 3 */
		Uerror("blocking sel in d_step (nr.489, near line 183)");
S_4462_0: /* 2 */
S_4463_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4464_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4465_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4466_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4467_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4468_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_4470_0;
S_4470_0: /* 2 */
		now.rp[ Index(((((0*4)+3)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+3)*2)+1)]", ((int)now.rp[ Index(((((0*4)+3)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 105: // STATE 4475 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((0*4)+3)*2)+1), 16) ])!=0)))
			continue;

		reached[0][4475] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4472_0: /* 2 */
		if (!((((int)now.rp[ Index(((((0*4)+3)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4473_0: /* 2 */
		now.rp[ Index(((((0*4)+3)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((0*4)+3)*2)+1)]", ((int)now.rp[ Index(((((0*4)+3)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 106: // STATE 4578 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][4578] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4475_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4576_0: /* 2 */
S_4476_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+0)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4477_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4478_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4479_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4480_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4568_0: /* 2 */
S_4481_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_4568_1;
S_4482_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4569_0;
S_4568_1: /* 3 */
S_4483_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_4568_2;
S_4484_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_4485_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_4486_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_4487_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_4488_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_4489_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_4569_0;
S_4568_2: /* 3 */
S_4490_0: /* 2 */
		/* else */;
S_4491_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_4496_0: /* 2 */
S_4492_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4496_1;
S_4493_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_4497_0;
S_4496_1: /* 3 */
S_4494_0: /* 2 */
		/* else */;
S_4495_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4497_0;
S_4496_2: /* 3 */
		Uerror("blocking sel in d_step (nr.490, near line 190)");
S_4497_0: /* 2 */
S_4529_0: /* 2 */
S_4498_0: /* 2 */
		if (!(((0==((int)now.prid[1]))&&((int)t_ok))))
			goto S_4529_1;
S_4526_0: /* 2 */
S_4499_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<0));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_4524_0: /* 2 */
S_4500_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_4524_1;
S_4505_0: /* 2 */
S_4501_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_4505_1;
S_4502_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_4506_0;
S_4505_1: /* 3 */
S_4503_0: /* 2 */
		/* else */;
S_4504_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4506_0;
S_4505_2: /* 3 */
		Uerror("blocking sel in d_step (nr.491, near line 161)");
S_4506_0: /* 2 */
S_4511_0: /* 2 */
S_4507_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_4511_1;
S_4508_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_4512_0;
S_4511_1: /* 3 */
S_4509_0: /* 2 */
		/* else */;
S_4510_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4512_0;
S_4511_2: /* 3 */
		Uerror("blocking sel in d_step (nr.492, near line 166)");
S_4512_0: /* 2 */
S_4513_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_4520_0: /* 2 */
S_4514_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_4520_1;
S_4515_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_4516_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_4517_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_4521_0;
S_4520_1: /* 3 */
S_4518_0: /* 2 */
		/* else */;
S_4519_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4521_0;
S_4520_2: /* 3 */
		Uerror("blocking sel in d_step (nr.493, near line 169)");
S_4521_0: /* 2 */
		goto S_4525_0;
S_4524_1: /* 3 */
S_4522_0: /* 2 */
		/* else */;
S_4523_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4525_0;
S_4524_2: /* 3 */
		Uerror("blocking sel in d_step (nr.494, near line 159)");
S_4525_0: /* 2 */
		goto S_4530_0;
S_4529_1: /* 3 */
S_4527_0: /* 2 */
		/* else */;
S_4528_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4530_0;
S_4529_2: /* 3 */
		Uerror("blocking sel in d_step (nr.495, near line 191)");
S_4530_0: /* 2 */
S_4566_0: /* 2 */
S_4531_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4566_1;
S_4563_0: /* 2 */
S_4532_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_4533_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4541_0: /* 2 */
S_4540_0: /* 2 */
S_4534_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4540_1;
S_4535_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_4536_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_4537_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4541_0; /* ';' */
S_4540_1: /* 3 */
S_4538_0: /* 2 */
		/* else */;
S_4539_0: /* 2 */
		goto S_4543_0;	/* 'goto' */
S_4540_2: /* 3 */
		Uerror("blocking sel in d_step (nr.496, near line 140)");
S_4542_0: /* 2 */
		goto S_4543_0;	/* 'break' */
S_4543_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_4544_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_4545_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_4546_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4547_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4559_0: /* 2 */
S_4558_0: /* 2 */
S_4548_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4558_1;
S_4553_0: /* 2 */
S_4549_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_4553_1;
S_4550_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_4554_0;
S_4553_1: /* 3 */
S_4551_0: /* 2 */
		/* else */;
S_4552_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4554_0;
S_4553_2: /* 3 */
		Uerror("blocking sel in d_step (nr.497, near line 150)");
S_4554_0: /* 2 */
S_4555_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4559_0; /* ';' */
S_4558_1: /* 3 */
S_4556_0: /* 2 */
		/* else */;
S_4557_0: /* 2 */
		goto S_4561_0;	/* 'goto' */
S_4558_2: /* 3 */
		Uerror("blocking sel in d_step (nr.498, near line 149)");
S_4560_0: /* 2 */
		goto S_4561_0;	/* 'break' */
S_4561_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4562_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_4567_0;
S_4566_1: /* 3 */
S_4564_0: /* 2 */
		/* else */;
S_4565_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4567_0;
S_4566_2: /* 3 */
		Uerror("blocking sel in d_step (nr.499, near line 192)");
S_4567_0: /* 2 */
		goto S_4569_0;
S_4568_3: /* 3 */
		Uerror("blocking sel in d_step (nr.500, near line 183)");
S_4569_0: /* 2 */
S_4570_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4571_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4572_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4573_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4574_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4575_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 107: // STATE 4682 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][4682] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4578_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4679_0: /* 2 */
S_4579_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+0)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4580_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4581_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4582_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4583_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4671_0: /* 2 */
S_4584_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_4671_1;
S_4585_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4672_0;
S_4671_1: /* 3 */
S_4586_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_4671_2;
S_4587_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_4588_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_4589_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_4590_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_4591_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_4592_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_4672_0;
S_4671_2: /* 3 */
S_4593_0: /* 2 */
		/* else */;
S_4594_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_4599_0: /* 2 */
S_4595_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4599_1;
S_4596_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_4600_0;
S_4599_1: /* 3 */
S_4597_0: /* 2 */
		/* else */;
S_4598_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4600_0;
S_4599_2: /* 3 */
		Uerror("blocking sel in d_step (nr.501, near line 190)");
S_4600_0: /* 2 */
S_4632_0: /* 2 */
S_4601_0: /* 2 */
		if (!(((0==((int)now.prid[1]))&&((int)t_ok))))
			goto S_4632_1;
S_4629_0: /* 2 */
S_4602_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<0));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_4627_0: /* 2 */
S_4603_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_4627_1;
S_4608_0: /* 2 */
S_4604_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_4608_1;
S_4605_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_4609_0;
S_4608_1: /* 3 */
S_4606_0: /* 2 */
		/* else */;
S_4607_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4609_0;
S_4608_2: /* 3 */
		Uerror("blocking sel in d_step (nr.502, near line 161)");
S_4609_0: /* 2 */
S_4614_0: /* 2 */
S_4610_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_4614_1;
S_4611_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_4615_0;
S_4614_1: /* 3 */
S_4612_0: /* 2 */
		/* else */;
S_4613_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4615_0;
S_4614_2: /* 3 */
		Uerror("blocking sel in d_step (nr.503, near line 166)");
S_4615_0: /* 2 */
S_4616_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_4623_0: /* 2 */
S_4617_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_4623_1;
S_4618_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_4619_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_4620_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_4624_0;
S_4623_1: /* 3 */
S_4621_0: /* 2 */
		/* else */;
S_4622_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4624_0;
S_4623_2: /* 3 */
		Uerror("blocking sel in d_step (nr.504, near line 169)");
S_4624_0: /* 2 */
		goto S_4628_0;
S_4627_1: /* 3 */
S_4625_0: /* 2 */
		/* else */;
S_4626_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4628_0;
S_4627_2: /* 3 */
		Uerror("blocking sel in d_step (nr.505, near line 159)");
S_4628_0: /* 2 */
		goto S_4633_0;
S_4632_1: /* 3 */
S_4630_0: /* 2 */
		/* else */;
S_4631_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4633_0;
S_4632_2: /* 3 */
		Uerror("blocking sel in d_step (nr.506, near line 191)");
S_4633_0: /* 2 */
S_4669_0: /* 2 */
S_4634_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4669_1;
S_4666_0: /* 2 */
S_4635_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_4636_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4644_0: /* 2 */
S_4643_0: /* 2 */
S_4637_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4643_1;
S_4638_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_4639_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_4640_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4644_0; /* ';' */
S_4643_1: /* 3 */
S_4641_0: /* 2 */
		/* else */;
S_4642_0: /* 2 */
		goto S_4646_0;	/* 'goto' */
S_4643_2: /* 3 */
		Uerror("blocking sel in d_step (nr.507, near line 140)");
S_4645_0: /* 2 */
		goto S_4646_0;	/* 'break' */
S_4646_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_4647_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_4648_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_4649_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4650_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4662_0: /* 2 */
S_4661_0: /* 2 */
S_4651_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4661_1;
S_4656_0: /* 2 */
S_4652_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_4656_1;
S_4653_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_4657_0;
S_4656_1: /* 3 */
S_4654_0: /* 2 */
		/* else */;
S_4655_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4657_0;
S_4656_2: /* 3 */
		Uerror("blocking sel in d_step (nr.508, near line 150)");
S_4657_0: /* 2 */
S_4658_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4662_0; /* ';' */
S_4661_1: /* 3 */
S_4659_0: /* 2 */
		/* else */;
S_4660_0: /* 2 */
		goto S_4664_0;	/* 'goto' */
S_4661_2: /* 3 */
		Uerror("blocking sel in d_step (nr.509, near line 149)");
S_4663_0: /* 2 */
		goto S_4664_0;	/* 'break' */
S_4664_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4665_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_4670_0;
S_4669_1: /* 3 */
S_4667_0: /* 2 */
		/* else */;
S_4668_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4670_0;
S_4669_2: /* 3 */
		Uerror("blocking sel in d_step (nr.510, near line 192)");
S_4670_0: /* 2 */
		goto S_4672_0;
S_4671_3: /* 3 */
		Uerror("blocking sel in d_step (nr.511, near line 183)");
S_4672_0: /* 2 */
S_4673_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4674_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4675_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4676_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4677_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4678_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_4680_0;
S_4680_0: /* 2 */
		now.rp[ Index(((((1*4)+0)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+0)*2)+0)]", ((int)now.rp[ Index(((((1*4)+0)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 108: // STATE 4685 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+0)*2)+0), 16) ])!=0)))
			continue;

		reached[0][4685] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4682_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+0)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4683_0: /* 2 */
		now.rp[ Index(((((1*4)+0)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+0)*2)+0)]", ((int)now.rp[ Index(((((1*4)+0)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 109: // STATE 4788 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][4788] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4685_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4786_0: /* 2 */
S_4686_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+0)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4687_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4688_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4689_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4690_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4778_0: /* 2 */
S_4691_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_4778_1;
S_4692_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4779_0;
S_4778_1: /* 3 */
S_4693_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_4778_2;
S_4694_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_4695_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_4696_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_4697_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_4698_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_4699_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_4779_0;
S_4778_2: /* 3 */
S_4700_0: /* 2 */
		/* else */;
S_4701_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_4706_0: /* 2 */
S_4702_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4706_1;
S_4703_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_4707_0;
S_4706_1: /* 3 */
S_4704_0: /* 2 */
		/* else */;
S_4705_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4707_0;
S_4706_2: /* 3 */
		Uerror("blocking sel in d_step (nr.512, near line 190)");
S_4707_0: /* 2 */
S_4739_0: /* 2 */
S_4708_0: /* 2 */
		if (!(((1==((int)now.prid[1]))&&((int)t_ok))))
			goto S_4739_1;
S_4736_0: /* 2 */
S_4709_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<0));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_4734_0: /* 2 */
S_4710_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_4734_1;
S_4715_0: /* 2 */
S_4711_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_4715_1;
S_4712_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_4716_0;
S_4715_1: /* 3 */
S_4713_0: /* 2 */
		/* else */;
S_4714_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4716_0;
S_4715_2: /* 3 */
		Uerror("blocking sel in d_step (nr.513, near line 161)");
S_4716_0: /* 2 */
S_4721_0: /* 2 */
S_4717_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_4721_1;
S_4718_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_4722_0;
S_4721_1: /* 3 */
S_4719_0: /* 2 */
		/* else */;
S_4720_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4722_0;
S_4721_2: /* 3 */
		Uerror("blocking sel in d_step (nr.514, near line 166)");
S_4722_0: /* 2 */
S_4723_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_4730_0: /* 2 */
S_4724_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_4730_1;
S_4725_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_4726_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_4727_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_4731_0;
S_4730_1: /* 3 */
S_4728_0: /* 2 */
		/* else */;
S_4729_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4731_0;
S_4730_2: /* 3 */
		Uerror("blocking sel in d_step (nr.515, near line 169)");
S_4731_0: /* 2 */
		goto S_4735_0;
S_4734_1: /* 3 */
S_4732_0: /* 2 */
		/* else */;
S_4733_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4735_0;
S_4734_2: /* 3 */
		Uerror("blocking sel in d_step (nr.516, near line 159)");
S_4735_0: /* 2 */
		goto S_4740_0;
S_4739_1: /* 3 */
S_4737_0: /* 2 */
		/* else */;
S_4738_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4740_0;
S_4739_2: /* 3 */
		Uerror("blocking sel in d_step (nr.517, near line 191)");
S_4740_0: /* 2 */
S_4776_0: /* 2 */
S_4741_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4776_1;
S_4773_0: /* 2 */
S_4742_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_4743_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4751_0: /* 2 */
S_4750_0: /* 2 */
S_4744_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4750_1;
S_4745_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_4746_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_4747_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4751_0; /* ';' */
S_4750_1: /* 3 */
S_4748_0: /* 2 */
		/* else */;
S_4749_0: /* 2 */
		goto S_4753_0;	/* 'goto' */
S_4750_2: /* 3 */
		Uerror("blocking sel in d_step (nr.518, near line 140)");
S_4752_0: /* 2 */
		goto S_4753_0;	/* 'break' */
S_4753_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_4754_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_4755_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_4756_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4757_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4769_0: /* 2 */
S_4768_0: /* 2 */
S_4758_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4768_1;
S_4763_0: /* 2 */
S_4759_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_4763_1;
S_4760_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_4764_0;
S_4763_1: /* 3 */
S_4761_0: /* 2 */
		/* else */;
S_4762_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4764_0;
S_4763_2: /* 3 */
		Uerror("blocking sel in d_step (nr.519, near line 150)");
S_4764_0: /* 2 */
S_4765_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4769_0; /* ';' */
S_4768_1: /* 3 */
S_4766_0: /* 2 */
		/* else */;
S_4767_0: /* 2 */
		goto S_4771_0;	/* 'goto' */
S_4768_2: /* 3 */
		Uerror("blocking sel in d_step (nr.520, near line 149)");
S_4770_0: /* 2 */
		goto S_4771_0;	/* 'break' */
S_4771_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4772_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_4777_0;
S_4776_1: /* 3 */
S_4774_0: /* 2 */
		/* else */;
S_4775_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4777_0;
S_4776_2: /* 3 */
		Uerror("blocking sel in d_step (nr.521, near line 192)");
S_4777_0: /* 2 */
		goto S_4779_0;
S_4778_3: /* 3 */
		Uerror("blocking sel in d_step (nr.522, near line 183)");
S_4779_0: /* 2 */
S_4780_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4781_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4782_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4783_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4784_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4785_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 110: // STATE 4892 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][4892] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4788_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4889_0: /* 2 */
S_4789_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+0)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4790_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4791_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4792_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4793_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4881_0: /* 2 */
S_4794_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_4881_1;
S_4795_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4882_0;
S_4881_1: /* 3 */
S_4796_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_4881_2;
S_4797_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_4798_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_4799_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_4800_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_4801_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_4802_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_4882_0;
S_4881_2: /* 3 */
S_4803_0: /* 2 */
		/* else */;
S_4804_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_4809_0: /* 2 */
S_4805_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4809_1;
S_4806_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_4810_0;
S_4809_1: /* 3 */
S_4807_0: /* 2 */
		/* else */;
S_4808_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4810_0;
S_4809_2: /* 3 */
		Uerror("blocking sel in d_step (nr.523, near line 190)");
S_4810_0: /* 2 */
S_4842_0: /* 2 */
S_4811_0: /* 2 */
		if (!(((1==((int)now.prid[1]))&&((int)t_ok))))
			goto S_4842_1;
S_4839_0: /* 2 */
S_4812_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<0));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_4837_0: /* 2 */
S_4813_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_4837_1;
S_4818_0: /* 2 */
S_4814_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_4818_1;
S_4815_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_4819_0;
S_4818_1: /* 3 */
S_4816_0: /* 2 */
		/* else */;
S_4817_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4819_0;
S_4818_2: /* 3 */
		Uerror("blocking sel in d_step (nr.524, near line 161)");
S_4819_0: /* 2 */
S_4824_0: /* 2 */
S_4820_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_4824_1;
S_4821_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_4825_0;
S_4824_1: /* 3 */
S_4822_0: /* 2 */
		/* else */;
S_4823_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4825_0;
S_4824_2: /* 3 */
		Uerror("blocking sel in d_step (nr.525, near line 166)");
S_4825_0: /* 2 */
S_4826_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_4833_0: /* 2 */
S_4827_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_4833_1;
S_4828_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_4829_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_4830_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_4834_0;
S_4833_1: /* 3 */
S_4831_0: /* 2 */
		/* else */;
S_4832_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4834_0;
S_4833_2: /* 3 */
		Uerror("blocking sel in d_step (nr.526, near line 169)");
S_4834_0: /* 2 */
		goto S_4838_0;
S_4837_1: /* 3 */
S_4835_0: /* 2 */
		/* else */;
S_4836_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4838_0;
S_4837_2: /* 3 */
		Uerror("blocking sel in d_step (nr.527, near line 159)");
S_4838_0: /* 2 */
		goto S_4843_0;
S_4842_1: /* 3 */
S_4840_0: /* 2 */
		/* else */;
S_4841_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4843_0;
S_4842_2: /* 3 */
		Uerror("blocking sel in d_step (nr.528, near line 191)");
S_4843_0: /* 2 */
S_4879_0: /* 2 */
S_4844_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4879_1;
S_4876_0: /* 2 */
S_4845_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_4846_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4854_0: /* 2 */
S_4853_0: /* 2 */
S_4847_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4853_1;
S_4848_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_4849_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_4850_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4854_0; /* ';' */
S_4853_1: /* 3 */
S_4851_0: /* 2 */
		/* else */;
S_4852_0: /* 2 */
		goto S_4856_0;	/* 'goto' */
S_4853_2: /* 3 */
		Uerror("blocking sel in d_step (nr.529, near line 140)");
S_4855_0: /* 2 */
		goto S_4856_0;	/* 'break' */
S_4856_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_4857_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_4858_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_4859_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4860_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4872_0: /* 2 */
S_4871_0: /* 2 */
S_4861_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4871_1;
S_4866_0: /* 2 */
S_4862_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_4866_1;
S_4863_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_4867_0;
S_4866_1: /* 3 */
S_4864_0: /* 2 */
		/* else */;
S_4865_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4867_0;
S_4866_2: /* 3 */
		Uerror("blocking sel in d_step (nr.530, near line 150)");
S_4867_0: /* 2 */
S_4868_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4872_0; /* ';' */
S_4871_1: /* 3 */
S_4869_0: /* 2 */
		/* else */;
S_4870_0: /* 2 */
		goto S_4874_0;	/* 'goto' */
S_4871_2: /* 3 */
		Uerror("blocking sel in d_step (nr.531, near line 149)");
S_4873_0: /* 2 */
		goto S_4874_0;	/* 'break' */
S_4874_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4875_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_4880_0;
S_4879_1: /* 3 */
S_4877_0: /* 2 */
		/* else */;
S_4878_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4880_0;
S_4879_2: /* 3 */
		Uerror("blocking sel in d_step (nr.532, near line 192)");
S_4880_0: /* 2 */
		goto S_4882_0;
S_4881_3: /* 3 */
		Uerror("blocking sel in d_step (nr.533, near line 183)");
S_4882_0: /* 2 */
S_4883_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4884_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4885_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4886_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4887_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4888_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_4890_0;
S_4890_0: /* 2 */
		now.rp[ Index(((((1*4)+0)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+0)*2)+1)]", ((int)now.rp[ Index(((((1*4)+0)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 111: // STATE 4895 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+0)*2)+1), 16) ])!=0)))
			continue;

		reached[0][4895] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4892_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+0)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4893_0: /* 2 */
		now.rp[ Index(((((1*4)+0)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+0)*2)+1)]", ((int)now.rp[ Index(((((1*4)+0)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 112: // STATE 4998 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][4998] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4895_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_4996_0: /* 2 */
S_4896_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+1)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4897_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4898_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4899_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4900_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4988_0: /* 2 */
S_4901_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_4988_1;
S_4902_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4989_0;
S_4988_1: /* 3 */
S_4903_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_4988_2;
S_4904_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_4905_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_4906_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_4907_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_4908_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_4909_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_4989_0;
S_4988_2: /* 3 */
S_4910_0: /* 2 */
		/* else */;
S_4911_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_4916_0: /* 2 */
S_4912_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4916_1;
S_4913_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_4917_0;
S_4916_1: /* 3 */
S_4914_0: /* 2 */
		/* else */;
S_4915_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4917_0;
S_4916_2: /* 3 */
		Uerror("blocking sel in d_step (nr.534, near line 190)");
S_4917_0: /* 2 */
S_4949_0: /* 2 */
S_4918_0: /* 2 */
		if (!(((0==((int)now.prid[1]))&&((int)t_ok))))
			goto S_4949_1;
S_4946_0: /* 2 */
S_4919_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<1));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_4944_0: /* 2 */
S_4920_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_4944_1;
S_4925_0: /* 2 */
S_4921_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_4925_1;
S_4922_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_4926_0;
S_4925_1: /* 3 */
S_4923_0: /* 2 */
		/* else */;
S_4924_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4926_0;
S_4925_2: /* 3 */
		Uerror("blocking sel in d_step (nr.535, near line 161)");
S_4926_0: /* 2 */
S_4931_0: /* 2 */
S_4927_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_4931_1;
S_4928_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_4932_0;
S_4931_1: /* 3 */
S_4929_0: /* 2 */
		/* else */;
S_4930_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4932_0;
S_4931_2: /* 3 */
		Uerror("blocking sel in d_step (nr.536, near line 166)");
S_4932_0: /* 2 */
S_4933_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_4940_0: /* 2 */
S_4934_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_4940_1;
S_4935_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_4936_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_4937_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_4941_0;
S_4940_1: /* 3 */
S_4938_0: /* 2 */
		/* else */;
S_4939_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4941_0;
S_4940_2: /* 3 */
		Uerror("blocking sel in d_step (nr.537, near line 169)");
S_4941_0: /* 2 */
		goto S_4945_0;
S_4944_1: /* 3 */
S_4942_0: /* 2 */
		/* else */;
S_4943_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4945_0;
S_4944_2: /* 3 */
		Uerror("blocking sel in d_step (nr.538, near line 159)");
S_4945_0: /* 2 */
		goto S_4950_0;
S_4949_1: /* 3 */
S_4947_0: /* 2 */
		/* else */;
S_4948_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4950_0;
S_4949_2: /* 3 */
		Uerror("blocking sel in d_step (nr.539, near line 191)");
S_4950_0: /* 2 */
S_4986_0: /* 2 */
S_4951_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_4986_1;
S_4983_0: /* 2 */
S_4952_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_4953_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4961_0: /* 2 */
S_4960_0: /* 2 */
S_4954_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4960_1;
S_4955_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_4956_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_4957_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4961_0; /* ';' */
S_4960_1: /* 3 */
S_4958_0: /* 2 */
		/* else */;
S_4959_0: /* 2 */
		goto S_4963_0;	/* 'goto' */
S_4960_2: /* 3 */
		Uerror("blocking sel in d_step (nr.540, near line 140)");
S_4962_0: /* 2 */
		goto S_4963_0;	/* 'break' */
S_4963_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_4964_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_4965_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_4966_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4967_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4979_0: /* 2 */
S_4978_0: /* 2 */
S_4968_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_4978_1;
S_4973_0: /* 2 */
S_4969_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_4973_1;
S_4970_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_4974_0;
S_4973_1: /* 3 */
S_4971_0: /* 2 */
		/* else */;
S_4972_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4974_0;
S_4973_2: /* 3 */
		Uerror("blocking sel in d_step (nr.541, near line 150)");
S_4974_0: /* 2 */
S_4975_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_4979_0; /* ';' */
S_4978_1: /* 3 */
S_4976_0: /* 2 */
		/* else */;
S_4977_0: /* 2 */
		goto S_4981_0;	/* 'goto' */
S_4978_2: /* 3 */
		Uerror("blocking sel in d_step (nr.542, near line 149)");
S_4980_0: /* 2 */
		goto S_4981_0;	/* 'break' */
S_4981_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_4982_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_4987_0;
S_4986_1: /* 3 */
S_4984_0: /* 2 */
		/* else */;
S_4985_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_4987_0;
S_4986_2: /* 3 */
		Uerror("blocking sel in d_step (nr.543, near line 192)");
S_4987_0: /* 2 */
		goto S_4989_0;
S_4988_3: /* 3 */
		Uerror("blocking sel in d_step (nr.544, near line 183)");
S_4989_0: /* 2 */
S_4990_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_4991_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_4992_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_4993_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_4994_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_4995_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 113: // STATE 5102 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][5102] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_4998_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5099_0: /* 2 */
S_4999_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+1)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5000_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5001_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5002_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5003_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5091_0: /* 2 */
S_5004_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_5091_1;
S_5005_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5092_0;
S_5091_1: /* 3 */
S_5006_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_5091_2;
S_5007_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5008_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_5009_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5010_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5011_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5012_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_5092_0;
S_5091_2: /* 3 */
S_5013_0: /* 2 */
		/* else */;
S_5014_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_5019_0: /* 2 */
S_5015_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5019_1;
S_5016_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5020_0;
S_5019_1: /* 3 */
S_5017_0: /* 2 */
		/* else */;
S_5018_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5020_0;
S_5019_2: /* 3 */
		Uerror("blocking sel in d_step (nr.545, near line 190)");
S_5020_0: /* 2 */
S_5052_0: /* 2 */
S_5021_0: /* 2 */
		if (!(((0==((int)now.prid[1]))&&((int)t_ok))))
			goto S_5052_1;
S_5049_0: /* 2 */
S_5022_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<1));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5047_0: /* 2 */
S_5023_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_5047_1;
S_5028_0: /* 2 */
S_5024_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_5028_1;
S_5025_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_5029_0;
S_5028_1: /* 3 */
S_5026_0: /* 2 */
		/* else */;
S_5027_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5029_0;
S_5028_2: /* 3 */
		Uerror("blocking sel in d_step (nr.546, near line 161)");
S_5029_0: /* 2 */
S_5034_0: /* 2 */
S_5030_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_5034_1;
S_5031_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5035_0;
S_5034_1: /* 3 */
S_5032_0: /* 2 */
		/* else */;
S_5033_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5035_0;
S_5034_2: /* 3 */
		Uerror("blocking sel in d_step (nr.547, near line 166)");
S_5035_0: /* 2 */
S_5036_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5043_0: /* 2 */
S_5037_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_5043_1;
S_5038_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_5039_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_5040_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_5044_0;
S_5043_1: /* 3 */
S_5041_0: /* 2 */
		/* else */;
S_5042_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5044_0;
S_5043_2: /* 3 */
		Uerror("blocking sel in d_step (nr.548, near line 169)");
S_5044_0: /* 2 */
		goto S_5048_0;
S_5047_1: /* 3 */
S_5045_0: /* 2 */
		/* else */;
S_5046_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5048_0;
S_5047_2: /* 3 */
		Uerror("blocking sel in d_step (nr.549, near line 159)");
S_5048_0: /* 2 */
		goto S_5053_0;
S_5052_1: /* 3 */
S_5050_0: /* 2 */
		/* else */;
S_5051_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5053_0;
S_5052_2: /* 3 */
		Uerror("blocking sel in d_step (nr.550, near line 191)");
S_5053_0: /* 2 */
S_5089_0: /* 2 */
S_5054_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5089_1;
S_5086_0: /* 2 */
S_5055_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5056_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5064_0: /* 2 */
S_5063_0: /* 2 */
S_5057_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5063_1;
S_5058_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5059_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5060_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5064_0; /* ';' */
S_5063_1: /* 3 */
S_5061_0: /* 2 */
		/* else */;
S_5062_0: /* 2 */
		goto S_5066_0;	/* 'goto' */
S_5063_2: /* 3 */
		Uerror("blocking sel in d_step (nr.551, near line 140)");
S_5065_0: /* 2 */
		goto S_5066_0;	/* 'break' */
S_5066_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5067_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5068_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5069_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5070_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5082_0: /* 2 */
S_5081_0: /* 2 */
S_5071_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5081_1;
S_5076_0: /* 2 */
S_5072_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_5076_1;
S_5073_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_5077_0;
S_5076_1: /* 3 */
S_5074_0: /* 2 */
		/* else */;
S_5075_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5077_0;
S_5076_2: /* 3 */
		Uerror("blocking sel in d_step (nr.552, near line 150)");
S_5077_0: /* 2 */
S_5078_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5082_0; /* ';' */
S_5081_1: /* 3 */
S_5079_0: /* 2 */
		/* else */;
S_5080_0: /* 2 */
		goto S_5084_0;	/* 'goto' */
S_5081_2: /* 3 */
		Uerror("blocking sel in d_step (nr.553, near line 149)");
S_5083_0: /* 2 */
		goto S_5084_0;	/* 'break' */
S_5084_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5085_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_5090_0;
S_5089_1: /* 3 */
S_5087_0: /* 2 */
		/* else */;
S_5088_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5090_0;
S_5089_2: /* 3 */
		Uerror("blocking sel in d_step (nr.554, near line 192)");
S_5090_0: /* 2 */
		goto S_5092_0;
S_5091_3: /* 3 */
		Uerror("blocking sel in d_step (nr.555, near line 183)");
S_5092_0: /* 2 */
S_5093_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5094_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5095_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5096_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5097_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5098_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_5100_0;
S_5100_0: /* 2 */
		now.rp[ Index(((((1*4)+1)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+1)*2)+0)]", ((int)now.rp[ Index(((((1*4)+1)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 114: // STATE 5105 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+1)*2)+0), 16) ])!=0)))
			continue;

		reached[0][5105] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5102_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+1)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5103_0: /* 2 */
		now.rp[ Index(((((1*4)+1)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+1)*2)+0)]", ((int)now.rp[ Index(((((1*4)+1)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 115: // STATE 5208 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][5208] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5105_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5206_0: /* 2 */
S_5106_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+1)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5107_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5108_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5109_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5110_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5198_0: /* 2 */
S_5111_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_5198_1;
S_5112_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5199_0;
S_5198_1: /* 3 */
S_5113_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_5198_2;
S_5114_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5115_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_5116_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5117_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5118_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5119_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_5199_0;
S_5198_2: /* 3 */
S_5120_0: /* 2 */
		/* else */;
S_5121_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_5126_0: /* 2 */
S_5122_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5126_1;
S_5123_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5127_0;
S_5126_1: /* 3 */
S_5124_0: /* 2 */
		/* else */;
S_5125_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5127_0;
S_5126_2: /* 3 */
		Uerror("blocking sel in d_step (nr.556, near line 190)");
S_5127_0: /* 2 */
S_5159_0: /* 2 */
S_5128_0: /* 2 */
		if (!(((1==((int)now.prid[1]))&&((int)t_ok))))
			goto S_5159_1;
S_5156_0: /* 2 */
S_5129_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<1));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5154_0: /* 2 */
S_5130_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_5154_1;
S_5135_0: /* 2 */
S_5131_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_5135_1;
S_5132_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_5136_0;
S_5135_1: /* 3 */
S_5133_0: /* 2 */
		/* else */;
S_5134_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5136_0;
S_5135_2: /* 3 */
		Uerror("blocking sel in d_step (nr.557, near line 161)");
S_5136_0: /* 2 */
S_5141_0: /* 2 */
S_5137_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_5141_1;
S_5138_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5142_0;
S_5141_1: /* 3 */
S_5139_0: /* 2 */
		/* else */;
S_5140_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5142_0;
S_5141_2: /* 3 */
		Uerror("blocking sel in d_step (nr.558, near line 166)");
S_5142_0: /* 2 */
S_5143_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5150_0: /* 2 */
S_5144_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_5150_1;
S_5145_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_5146_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_5147_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_5151_0;
S_5150_1: /* 3 */
S_5148_0: /* 2 */
		/* else */;
S_5149_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5151_0;
S_5150_2: /* 3 */
		Uerror("blocking sel in d_step (nr.559, near line 169)");
S_5151_0: /* 2 */
		goto S_5155_0;
S_5154_1: /* 3 */
S_5152_0: /* 2 */
		/* else */;
S_5153_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5155_0;
S_5154_2: /* 3 */
		Uerror("blocking sel in d_step (nr.560, near line 159)");
S_5155_0: /* 2 */
		goto S_5160_0;
S_5159_1: /* 3 */
S_5157_0: /* 2 */
		/* else */;
S_5158_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5160_0;
S_5159_2: /* 3 */
		Uerror("blocking sel in d_step (nr.561, near line 191)");
S_5160_0: /* 2 */
S_5196_0: /* 2 */
S_5161_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5196_1;
S_5193_0: /* 2 */
S_5162_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5163_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5171_0: /* 2 */
S_5170_0: /* 2 */
S_5164_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5170_1;
S_5165_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5166_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5167_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5171_0; /* ';' */
S_5170_1: /* 3 */
S_5168_0: /* 2 */
		/* else */;
S_5169_0: /* 2 */
		goto S_5173_0;	/* 'goto' */
S_5170_2: /* 3 */
		Uerror("blocking sel in d_step (nr.562, near line 140)");
S_5172_0: /* 2 */
		goto S_5173_0;	/* 'break' */
S_5173_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5174_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5175_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5176_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5177_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5189_0: /* 2 */
S_5188_0: /* 2 */
S_5178_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5188_1;
S_5183_0: /* 2 */
S_5179_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_5183_1;
S_5180_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_5184_0;
S_5183_1: /* 3 */
S_5181_0: /* 2 */
		/* else */;
S_5182_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5184_0;
S_5183_2: /* 3 */
		Uerror("blocking sel in d_step (nr.563, near line 150)");
S_5184_0: /* 2 */
S_5185_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5189_0; /* ';' */
S_5188_1: /* 3 */
S_5186_0: /* 2 */
		/* else */;
S_5187_0: /* 2 */
		goto S_5191_0;	/* 'goto' */
S_5188_2: /* 3 */
		Uerror("blocking sel in d_step (nr.564, near line 149)");
S_5190_0: /* 2 */
		goto S_5191_0;	/* 'break' */
S_5191_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5192_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_5197_0;
S_5196_1: /* 3 */
S_5194_0: /* 2 */
		/* else */;
S_5195_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5197_0;
S_5196_2: /* 3 */
		Uerror("blocking sel in d_step (nr.565, near line 192)");
S_5197_0: /* 2 */
		goto S_5199_0;
S_5198_3: /* 3 */
		Uerror("blocking sel in d_step (nr.566, near line 183)");
S_5199_0: /* 2 */
S_5200_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5201_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5202_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5203_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5204_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5205_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 116: // STATE 5312 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][5312] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5208_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5309_0: /* 2 */
S_5209_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+1)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5210_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5211_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5212_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5213_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5301_0: /* 2 */
S_5214_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_5301_1;
S_5215_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5302_0;
S_5301_1: /* 3 */
S_5216_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_5301_2;
S_5217_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5218_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_5219_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5220_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5221_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5222_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_5302_0;
S_5301_2: /* 3 */
S_5223_0: /* 2 */
		/* else */;
S_5224_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_5229_0: /* 2 */
S_5225_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5229_1;
S_5226_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5230_0;
S_5229_1: /* 3 */
S_5227_0: /* 2 */
		/* else */;
S_5228_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5230_0;
S_5229_2: /* 3 */
		Uerror("blocking sel in d_step (nr.567, near line 190)");
S_5230_0: /* 2 */
S_5262_0: /* 2 */
S_5231_0: /* 2 */
		if (!(((1==((int)now.prid[1]))&&((int)t_ok))))
			goto S_5262_1;
S_5259_0: /* 2 */
S_5232_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<1));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5257_0: /* 2 */
S_5233_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_5257_1;
S_5238_0: /* 2 */
S_5234_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_5238_1;
S_5235_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_5239_0;
S_5238_1: /* 3 */
S_5236_0: /* 2 */
		/* else */;
S_5237_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5239_0;
S_5238_2: /* 3 */
		Uerror("blocking sel in d_step (nr.568, near line 161)");
S_5239_0: /* 2 */
S_5244_0: /* 2 */
S_5240_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_5244_1;
S_5241_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5245_0;
S_5244_1: /* 3 */
S_5242_0: /* 2 */
		/* else */;
S_5243_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5245_0;
S_5244_2: /* 3 */
		Uerror("blocking sel in d_step (nr.569, near line 166)");
S_5245_0: /* 2 */
S_5246_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5253_0: /* 2 */
S_5247_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_5253_1;
S_5248_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_5249_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_5250_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_5254_0;
S_5253_1: /* 3 */
S_5251_0: /* 2 */
		/* else */;
S_5252_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5254_0;
S_5253_2: /* 3 */
		Uerror("blocking sel in d_step (nr.570, near line 169)");
S_5254_0: /* 2 */
		goto S_5258_0;
S_5257_1: /* 3 */
S_5255_0: /* 2 */
		/* else */;
S_5256_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5258_0;
S_5257_2: /* 3 */
		Uerror("blocking sel in d_step (nr.571, near line 159)");
S_5258_0: /* 2 */
		goto S_5263_0;
S_5262_1: /* 3 */
S_5260_0: /* 2 */
		/* else */;
S_5261_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5263_0;
S_5262_2: /* 3 */
		Uerror("blocking sel in d_step (nr.572, near line 191)");
S_5263_0: /* 2 */
S_5299_0: /* 2 */
S_5264_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5299_1;
S_5296_0: /* 2 */
S_5265_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5266_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5274_0: /* 2 */
S_5273_0: /* 2 */
S_5267_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5273_1;
S_5268_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5269_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5270_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5274_0; /* ';' */
S_5273_1: /* 3 */
S_5271_0: /* 2 */
		/* else */;
S_5272_0: /* 2 */
		goto S_5276_0;	/* 'goto' */
S_5273_2: /* 3 */
		Uerror("blocking sel in d_step (nr.573, near line 140)");
S_5275_0: /* 2 */
		goto S_5276_0;	/* 'break' */
S_5276_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5277_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5278_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5279_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5280_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5292_0: /* 2 */
S_5291_0: /* 2 */
S_5281_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5291_1;
S_5286_0: /* 2 */
S_5282_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_5286_1;
S_5283_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_5287_0;
S_5286_1: /* 3 */
S_5284_0: /* 2 */
		/* else */;
S_5285_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5287_0;
S_5286_2: /* 3 */
		Uerror("blocking sel in d_step (nr.574, near line 150)");
S_5287_0: /* 2 */
S_5288_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5292_0; /* ';' */
S_5291_1: /* 3 */
S_5289_0: /* 2 */
		/* else */;
S_5290_0: /* 2 */
		goto S_5294_0;	/* 'goto' */
S_5291_2: /* 3 */
		Uerror("blocking sel in d_step (nr.575, near line 149)");
S_5293_0: /* 2 */
		goto S_5294_0;	/* 'break' */
S_5294_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5295_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_5300_0;
S_5299_1: /* 3 */
S_5297_0: /* 2 */
		/* else */;
S_5298_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5300_0;
S_5299_2: /* 3 */
		Uerror("blocking sel in d_step (nr.576, near line 192)");
S_5300_0: /* 2 */
		goto S_5302_0;
S_5301_3: /* 3 */
		Uerror("blocking sel in d_step (nr.577, near line 183)");
S_5302_0: /* 2 */
S_5303_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5304_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5305_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5306_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5307_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5308_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_5310_0;
S_5310_0: /* 2 */
		now.rp[ Index(((((1*4)+1)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+1)*2)+1)]", ((int)now.rp[ Index(((((1*4)+1)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 117: // STATE 5315 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+1)*2)+1), 16) ])!=0)))
			continue;

		reached[0][5315] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5312_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+1)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5313_0: /* 2 */
		now.rp[ Index(((((1*4)+1)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+1)*2)+1)]", ((int)now.rp[ Index(((((1*4)+1)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 118: // STATE 5418 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+2)*2)+0), 16) ])!=0)))
			continue;

		reached[0][5418] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5315_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+2)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5416_0: /* 2 */
S_5316_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+2)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5317_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5318_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5319_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5320_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5408_0: /* 2 */
S_5321_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_5408_1;
S_5322_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5409_0;
S_5408_1: /* 3 */
S_5323_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_5408_2;
S_5324_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5325_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_5326_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5327_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5328_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5329_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_5409_0;
S_5408_2: /* 3 */
S_5330_0: /* 2 */
		/* else */;
S_5331_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_5336_0: /* 2 */
S_5332_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5336_1;
S_5333_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5337_0;
S_5336_1: /* 3 */
S_5334_0: /* 2 */
		/* else */;
S_5335_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5337_0;
S_5336_2: /* 3 */
		Uerror("blocking sel in d_step (nr.578, near line 190)");
S_5337_0: /* 2 */
S_5369_0: /* 2 */
S_5338_0: /* 2 */
		if (!(((0==((int)now.prid[1]))&&((int)t_ok))))
			goto S_5369_1;
S_5366_0: /* 2 */
S_5339_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<2));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5364_0: /* 2 */
S_5340_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_5364_1;
S_5345_0: /* 2 */
S_5341_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_5345_1;
S_5342_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_5346_0;
S_5345_1: /* 3 */
S_5343_0: /* 2 */
		/* else */;
S_5344_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5346_0;
S_5345_2: /* 3 */
		Uerror("blocking sel in d_step (nr.579, near line 161)");
S_5346_0: /* 2 */
S_5351_0: /* 2 */
S_5347_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_5351_1;
S_5348_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5352_0;
S_5351_1: /* 3 */
S_5349_0: /* 2 */
		/* else */;
S_5350_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5352_0;
S_5351_2: /* 3 */
		Uerror("blocking sel in d_step (nr.580, near line 166)");
S_5352_0: /* 2 */
S_5353_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5360_0: /* 2 */
S_5354_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_5360_1;
S_5355_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_5356_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_5357_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_5361_0;
S_5360_1: /* 3 */
S_5358_0: /* 2 */
		/* else */;
S_5359_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5361_0;
S_5360_2: /* 3 */
		Uerror("blocking sel in d_step (nr.581, near line 169)");
S_5361_0: /* 2 */
		goto S_5365_0;
S_5364_1: /* 3 */
S_5362_0: /* 2 */
		/* else */;
S_5363_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5365_0;
S_5364_2: /* 3 */
		Uerror("blocking sel in d_step (nr.582, near line 159)");
S_5365_0: /* 2 */
		goto S_5370_0;
S_5369_1: /* 3 */
S_5367_0: /* 2 */
		/* else */;
S_5368_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5370_0;
S_5369_2: /* 3 */
		Uerror("blocking sel in d_step (nr.583, near line 191)");
S_5370_0: /* 2 */
S_5406_0: /* 2 */
S_5371_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5406_1;
S_5403_0: /* 2 */
S_5372_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5373_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5381_0: /* 2 */
S_5380_0: /* 2 */
S_5374_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5380_1;
S_5375_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5376_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5377_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5381_0; /* ';' */
S_5380_1: /* 3 */
S_5378_0: /* 2 */
		/* else */;
S_5379_0: /* 2 */
		goto S_5383_0;	/* 'goto' */
S_5380_2: /* 3 */
		Uerror("blocking sel in d_step (nr.584, near line 140)");
S_5382_0: /* 2 */
		goto S_5383_0;	/* 'break' */
S_5383_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5384_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5385_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5386_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5387_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5399_0: /* 2 */
S_5398_0: /* 2 */
S_5388_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5398_1;
S_5393_0: /* 2 */
S_5389_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_5393_1;
S_5390_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_5394_0;
S_5393_1: /* 3 */
S_5391_0: /* 2 */
		/* else */;
S_5392_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5394_0;
S_5393_2: /* 3 */
		Uerror("blocking sel in d_step (nr.585, near line 150)");
S_5394_0: /* 2 */
S_5395_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5399_0; /* ';' */
S_5398_1: /* 3 */
S_5396_0: /* 2 */
		/* else */;
S_5397_0: /* 2 */
		goto S_5401_0;	/* 'goto' */
S_5398_2: /* 3 */
		Uerror("blocking sel in d_step (nr.586, near line 149)");
S_5400_0: /* 2 */
		goto S_5401_0;	/* 'break' */
S_5401_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5402_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_5407_0;
S_5406_1: /* 3 */
S_5404_0: /* 2 */
		/* else */;
S_5405_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5407_0;
S_5406_2: /* 3 */
		Uerror("blocking sel in d_step (nr.587, near line 192)");
S_5407_0: /* 2 */
		goto S_5409_0;
S_5408_3: /* 3 */
		Uerror("blocking sel in d_step (nr.588, near line 183)");
S_5409_0: /* 2 */
S_5410_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5411_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5412_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5413_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5414_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5415_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 119: // STATE 5522 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+2)*2)+0), 16) ])!=0)))
			continue;

		reached[0][5522] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5418_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+2)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5519_0: /* 2 */
S_5419_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+2)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5420_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5421_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5422_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5423_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5511_0: /* 2 */
S_5424_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_5511_1;
S_5425_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5512_0;
S_5511_1: /* 3 */
S_5426_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_5511_2;
S_5427_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5428_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_5429_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5430_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5431_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5432_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_5512_0;
S_5511_2: /* 3 */
S_5433_0: /* 2 */
		/* else */;
S_5434_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_5439_0: /* 2 */
S_5435_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5439_1;
S_5436_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5440_0;
S_5439_1: /* 3 */
S_5437_0: /* 2 */
		/* else */;
S_5438_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5440_0;
S_5439_2: /* 3 */
		Uerror("blocking sel in d_step (nr.589, near line 190)");
S_5440_0: /* 2 */
S_5472_0: /* 2 */
S_5441_0: /* 2 */
		if (!(((0==((int)now.prid[1]))&&((int)t_ok))))
			goto S_5472_1;
S_5469_0: /* 2 */
S_5442_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<2));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5467_0: /* 2 */
S_5443_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_5467_1;
S_5448_0: /* 2 */
S_5444_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_5448_1;
S_5445_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_5449_0;
S_5448_1: /* 3 */
S_5446_0: /* 2 */
		/* else */;
S_5447_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5449_0;
S_5448_2: /* 3 */
		Uerror("blocking sel in d_step (nr.590, near line 161)");
S_5449_0: /* 2 */
S_5454_0: /* 2 */
S_5450_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_5454_1;
S_5451_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5455_0;
S_5454_1: /* 3 */
S_5452_0: /* 2 */
		/* else */;
S_5453_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5455_0;
S_5454_2: /* 3 */
		Uerror("blocking sel in d_step (nr.591, near line 166)");
S_5455_0: /* 2 */
S_5456_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5463_0: /* 2 */
S_5457_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_5463_1;
S_5458_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_5459_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_5460_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_5464_0;
S_5463_1: /* 3 */
S_5461_0: /* 2 */
		/* else */;
S_5462_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5464_0;
S_5463_2: /* 3 */
		Uerror("blocking sel in d_step (nr.592, near line 169)");
S_5464_0: /* 2 */
		goto S_5468_0;
S_5467_1: /* 3 */
S_5465_0: /* 2 */
		/* else */;
S_5466_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5468_0;
S_5467_2: /* 3 */
		Uerror("blocking sel in d_step (nr.593, near line 159)");
S_5468_0: /* 2 */
		goto S_5473_0;
S_5472_1: /* 3 */
S_5470_0: /* 2 */
		/* else */;
S_5471_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5473_0;
S_5472_2: /* 3 */
		Uerror("blocking sel in d_step (nr.594, near line 191)");
S_5473_0: /* 2 */
S_5509_0: /* 2 */
S_5474_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5509_1;
S_5506_0: /* 2 */
S_5475_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5476_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5484_0: /* 2 */
S_5483_0: /* 2 */
S_5477_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5483_1;
S_5478_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5479_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5480_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5484_0; /* ';' */
S_5483_1: /* 3 */
S_5481_0: /* 2 */
		/* else */;
S_5482_0: /* 2 */
		goto S_5486_0;	/* 'goto' */
S_5483_2: /* 3 */
		Uerror("blocking sel in d_step (nr.595, near line 140)");
S_5485_0: /* 2 */
		goto S_5486_0;	/* 'break' */
S_5486_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5487_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5488_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5489_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5490_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5502_0: /* 2 */
S_5501_0: /* 2 */
S_5491_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5501_1;
S_5496_0: /* 2 */
S_5492_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_5496_1;
S_5493_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_5497_0;
S_5496_1: /* 3 */
S_5494_0: /* 2 */
		/* else */;
S_5495_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5497_0;
S_5496_2: /* 3 */
		Uerror("blocking sel in d_step (nr.596, near line 150)");
S_5497_0: /* 2 */
S_5498_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5502_0; /* ';' */
S_5501_1: /* 3 */
S_5499_0: /* 2 */
		/* else */;
S_5500_0: /* 2 */
		goto S_5504_0;	/* 'goto' */
S_5501_2: /* 3 */
		Uerror("blocking sel in d_step (nr.597, near line 149)");
S_5503_0: /* 2 */
		goto S_5504_0;	/* 'break' */
S_5504_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5505_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_5510_0;
S_5509_1: /* 3 */
S_5507_0: /* 2 */
		/* else */;
S_5508_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5510_0;
S_5509_2: /* 3 */
		Uerror("blocking sel in d_step (nr.598, near line 192)");
S_5510_0: /* 2 */
		goto S_5512_0;
S_5511_3: /* 3 */
		Uerror("blocking sel in d_step (nr.599, near line 183)");
S_5512_0: /* 2 */
S_5513_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5514_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5515_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5516_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5517_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5518_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_5520_0;
S_5520_0: /* 2 */
		now.rp[ Index(((((1*4)+2)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+2)*2)+0)]", ((int)now.rp[ Index(((((1*4)+2)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 120: // STATE 5525 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+2)*2)+0), 16) ])!=0)))
			continue;

		reached[0][5525] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5522_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+2)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5523_0: /* 2 */
		now.rp[ Index(((((1*4)+2)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+2)*2)+0)]", ((int)now.rp[ Index(((((1*4)+2)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 121: // STATE 5628 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+2)*2)+1), 16) ])!=0)))
			continue;

		reached[0][5628] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5525_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+2)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5626_0: /* 2 */
S_5526_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+2)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5527_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5528_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5529_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5530_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5618_0: /* 2 */
S_5531_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_5618_1;
S_5532_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5619_0;
S_5618_1: /* 3 */
S_5533_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_5618_2;
S_5534_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5535_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_5536_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5537_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5538_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5539_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_5619_0;
S_5618_2: /* 3 */
S_5540_0: /* 2 */
		/* else */;
S_5541_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_5546_0: /* 2 */
S_5542_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5546_1;
S_5543_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5547_0;
S_5546_1: /* 3 */
S_5544_0: /* 2 */
		/* else */;
S_5545_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5547_0;
S_5546_2: /* 3 */
		Uerror("blocking sel in d_step (nr.600, near line 190)");
S_5547_0: /* 2 */
S_5579_0: /* 2 */
S_5548_0: /* 2 */
		if (!(((1==((int)now.prid[1]))&&((int)t_ok))))
			goto S_5579_1;
S_5576_0: /* 2 */
S_5549_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<2));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5574_0: /* 2 */
S_5550_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_5574_1;
S_5555_0: /* 2 */
S_5551_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_5555_1;
S_5552_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_5556_0;
S_5555_1: /* 3 */
S_5553_0: /* 2 */
		/* else */;
S_5554_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5556_0;
S_5555_2: /* 3 */
		Uerror("blocking sel in d_step (nr.601, near line 161)");
S_5556_0: /* 2 */
S_5561_0: /* 2 */
S_5557_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_5561_1;
S_5558_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5562_0;
S_5561_1: /* 3 */
S_5559_0: /* 2 */
		/* else */;
S_5560_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5562_0;
S_5561_2: /* 3 */
		Uerror("blocking sel in d_step (nr.602, near line 166)");
S_5562_0: /* 2 */
S_5563_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5570_0: /* 2 */
S_5564_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_5570_1;
S_5565_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_5566_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_5567_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_5571_0;
S_5570_1: /* 3 */
S_5568_0: /* 2 */
		/* else */;
S_5569_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5571_0;
S_5570_2: /* 3 */
		Uerror("blocking sel in d_step (nr.603, near line 169)");
S_5571_0: /* 2 */
		goto S_5575_0;
S_5574_1: /* 3 */
S_5572_0: /* 2 */
		/* else */;
S_5573_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5575_0;
S_5574_2: /* 3 */
		Uerror("blocking sel in d_step (nr.604, near line 159)");
S_5575_0: /* 2 */
		goto S_5580_0;
S_5579_1: /* 3 */
S_5577_0: /* 2 */
		/* else */;
S_5578_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5580_0;
S_5579_2: /* 3 */
		Uerror("blocking sel in d_step (nr.605, near line 191)");
S_5580_0: /* 2 */
S_5616_0: /* 2 */
S_5581_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5616_1;
S_5613_0: /* 2 */
S_5582_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5583_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5591_0: /* 2 */
S_5590_0: /* 2 */
S_5584_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5590_1;
S_5585_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5586_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5587_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5591_0; /* ';' */
S_5590_1: /* 3 */
S_5588_0: /* 2 */
		/* else */;
S_5589_0: /* 2 */
		goto S_5593_0;	/* 'goto' */
S_5590_2: /* 3 */
		Uerror("blocking sel in d_step (nr.606, near line 140)");
S_5592_0: /* 2 */
		goto S_5593_0;	/* 'break' */
S_5593_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5594_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5595_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5596_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5597_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5609_0: /* 2 */
S_5608_0: /* 2 */
S_5598_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5608_1;
S_5603_0: /* 2 */
S_5599_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_5603_1;
S_5600_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_5604_0;
S_5603_1: /* 3 */
S_5601_0: /* 2 */
		/* else */;
S_5602_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5604_0;
S_5603_2: /* 3 */
		Uerror("blocking sel in d_step (nr.607, near line 150)");
S_5604_0: /* 2 */
S_5605_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5609_0; /* ';' */
S_5608_1: /* 3 */
S_5606_0: /* 2 */
		/* else */;
S_5607_0: /* 2 */
		goto S_5611_0;	/* 'goto' */
S_5608_2: /* 3 */
		Uerror("blocking sel in d_step (nr.608, near line 149)");
S_5610_0: /* 2 */
		goto S_5611_0;	/* 'break' */
S_5611_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5612_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_5617_0;
S_5616_1: /* 3 */
S_5614_0: /* 2 */
		/* else */;
S_5615_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5617_0;
S_5616_2: /* 3 */
		Uerror("blocking sel in d_step (nr.609, near line 192)");
S_5617_0: /* 2 */
		goto S_5619_0;
S_5618_3: /* 3 */
		Uerror("blocking sel in d_step (nr.610, near line 183)");
S_5619_0: /* 2 */
S_5620_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5621_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5622_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5623_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5624_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5625_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 122: // STATE 5732 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+2)*2)+1), 16) ])!=0)))
			continue;

		reached[0][5732] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5628_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+2)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5729_0: /* 2 */
S_5629_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+2)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5630_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5631_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5632_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5633_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5721_0: /* 2 */
S_5634_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_5721_1;
S_5635_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5722_0;
S_5721_1: /* 3 */
S_5636_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_5721_2;
S_5637_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5638_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_5639_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5640_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5641_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5642_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_5722_0;
S_5721_2: /* 3 */
S_5643_0: /* 2 */
		/* else */;
S_5644_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_5649_0: /* 2 */
S_5645_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5649_1;
S_5646_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5650_0;
S_5649_1: /* 3 */
S_5647_0: /* 2 */
		/* else */;
S_5648_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5650_0;
S_5649_2: /* 3 */
		Uerror("blocking sel in d_step (nr.611, near line 190)");
S_5650_0: /* 2 */
S_5682_0: /* 2 */
S_5651_0: /* 2 */
		if (!(((1==((int)now.prid[1]))&&((int)t_ok))))
			goto S_5682_1;
S_5679_0: /* 2 */
S_5652_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<2));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5677_0: /* 2 */
S_5653_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_5677_1;
S_5658_0: /* 2 */
S_5654_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_5658_1;
S_5655_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_5659_0;
S_5658_1: /* 3 */
S_5656_0: /* 2 */
		/* else */;
S_5657_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5659_0;
S_5658_2: /* 3 */
		Uerror("blocking sel in d_step (nr.612, near line 161)");
S_5659_0: /* 2 */
S_5664_0: /* 2 */
S_5660_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_5664_1;
S_5661_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5665_0;
S_5664_1: /* 3 */
S_5662_0: /* 2 */
		/* else */;
S_5663_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5665_0;
S_5664_2: /* 3 */
		Uerror("blocking sel in d_step (nr.613, near line 166)");
S_5665_0: /* 2 */
S_5666_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5673_0: /* 2 */
S_5667_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_5673_1;
S_5668_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_5669_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_5670_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_5674_0;
S_5673_1: /* 3 */
S_5671_0: /* 2 */
		/* else */;
S_5672_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5674_0;
S_5673_2: /* 3 */
		Uerror("blocking sel in d_step (nr.614, near line 169)");
S_5674_0: /* 2 */
		goto S_5678_0;
S_5677_1: /* 3 */
S_5675_0: /* 2 */
		/* else */;
S_5676_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5678_0;
S_5677_2: /* 3 */
		Uerror("blocking sel in d_step (nr.615, near line 159)");
S_5678_0: /* 2 */
		goto S_5683_0;
S_5682_1: /* 3 */
S_5680_0: /* 2 */
		/* else */;
S_5681_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5683_0;
S_5682_2: /* 3 */
		Uerror("blocking sel in d_step (nr.616, near line 191)");
S_5683_0: /* 2 */
S_5719_0: /* 2 */
S_5684_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5719_1;
S_5716_0: /* 2 */
S_5685_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5686_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5694_0: /* 2 */
S_5693_0: /* 2 */
S_5687_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5693_1;
S_5688_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5689_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5690_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5694_0; /* ';' */
S_5693_1: /* 3 */
S_5691_0: /* 2 */
		/* else */;
S_5692_0: /* 2 */
		goto S_5696_0;	/* 'goto' */
S_5693_2: /* 3 */
		Uerror("blocking sel in d_step (nr.617, near line 140)");
S_5695_0: /* 2 */
		goto S_5696_0;	/* 'break' */
S_5696_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5697_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5698_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5699_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5700_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5712_0: /* 2 */
S_5711_0: /* 2 */
S_5701_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5711_1;
S_5706_0: /* 2 */
S_5702_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_5706_1;
S_5703_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_5707_0;
S_5706_1: /* 3 */
S_5704_0: /* 2 */
		/* else */;
S_5705_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5707_0;
S_5706_2: /* 3 */
		Uerror("blocking sel in d_step (nr.618, near line 150)");
S_5707_0: /* 2 */
S_5708_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5712_0; /* ';' */
S_5711_1: /* 3 */
S_5709_0: /* 2 */
		/* else */;
S_5710_0: /* 2 */
		goto S_5714_0;	/* 'goto' */
S_5711_2: /* 3 */
		Uerror("blocking sel in d_step (nr.619, near line 149)");
S_5713_0: /* 2 */
		goto S_5714_0;	/* 'break' */
S_5714_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5715_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_5720_0;
S_5719_1: /* 3 */
S_5717_0: /* 2 */
		/* else */;
S_5718_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5720_0;
S_5719_2: /* 3 */
		Uerror("blocking sel in d_step (nr.620, near line 192)");
S_5720_0: /* 2 */
		goto S_5722_0;
S_5721_3: /* 3 */
		Uerror("blocking sel in d_step (nr.621, near line 183)");
S_5722_0: /* 2 */
S_5723_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5724_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5725_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5726_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5727_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5728_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_5730_0;
S_5730_0: /* 2 */
		now.rp[ Index(((((1*4)+2)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+2)*2)+1)]", ((int)now.rp[ Index(((((1*4)+2)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 123: // STATE 5735 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+2)*2)+1), 16) ])!=0)))
			continue;

		reached[0][5735] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5732_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+2)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5733_0: /* 2 */
		now.rp[ Index(((((1*4)+2)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+2)*2)+1)]", ((int)now.rp[ Index(((((1*4)+2)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 124: // STATE 5838 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+3)*2)+0), 16) ])!=0)))
			continue;

		reached[0][5838] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5735_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+3)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5836_0: /* 2 */
S_5736_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+3)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5737_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5738_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5739_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5740_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5828_0: /* 2 */
S_5741_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_5828_1;
S_5742_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5829_0;
S_5828_1: /* 3 */
S_5743_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_5828_2;
S_5744_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5745_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_5746_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5747_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5748_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5749_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_5829_0;
S_5828_2: /* 3 */
S_5750_0: /* 2 */
		/* else */;
S_5751_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_5756_0: /* 2 */
S_5752_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5756_1;
S_5753_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5757_0;
S_5756_1: /* 3 */
S_5754_0: /* 2 */
		/* else */;
S_5755_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5757_0;
S_5756_2: /* 3 */
		Uerror("blocking sel in d_step (nr.622, near line 190)");
S_5757_0: /* 2 */
S_5789_0: /* 2 */
S_5758_0: /* 2 */
		if (!(((0==((int)now.prid[1]))&&((int)t_ok))))
			goto S_5789_1;
S_5786_0: /* 2 */
S_5759_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<3));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5784_0: /* 2 */
S_5760_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_5784_1;
S_5765_0: /* 2 */
S_5761_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_5765_1;
S_5762_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_5766_0;
S_5765_1: /* 3 */
S_5763_0: /* 2 */
		/* else */;
S_5764_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5766_0;
S_5765_2: /* 3 */
		Uerror("blocking sel in d_step (nr.623, near line 161)");
S_5766_0: /* 2 */
S_5771_0: /* 2 */
S_5767_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_5771_1;
S_5768_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5772_0;
S_5771_1: /* 3 */
S_5769_0: /* 2 */
		/* else */;
S_5770_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5772_0;
S_5771_2: /* 3 */
		Uerror("blocking sel in d_step (nr.624, near line 166)");
S_5772_0: /* 2 */
S_5773_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5780_0: /* 2 */
S_5774_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_5780_1;
S_5775_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_5776_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_5777_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_5781_0;
S_5780_1: /* 3 */
S_5778_0: /* 2 */
		/* else */;
S_5779_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5781_0;
S_5780_2: /* 3 */
		Uerror("blocking sel in d_step (nr.625, near line 169)");
S_5781_0: /* 2 */
		goto S_5785_0;
S_5784_1: /* 3 */
S_5782_0: /* 2 */
		/* else */;
S_5783_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5785_0;
S_5784_2: /* 3 */
		Uerror("blocking sel in d_step (nr.626, near line 159)");
S_5785_0: /* 2 */
		goto S_5790_0;
S_5789_1: /* 3 */
S_5787_0: /* 2 */
		/* else */;
S_5788_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5790_0;
S_5789_2: /* 3 */
		Uerror("blocking sel in d_step (nr.627, near line 191)");
S_5790_0: /* 2 */
S_5826_0: /* 2 */
S_5791_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5826_1;
S_5823_0: /* 2 */
S_5792_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5793_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5801_0: /* 2 */
S_5800_0: /* 2 */
S_5794_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5800_1;
S_5795_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5796_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5797_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5801_0; /* ';' */
S_5800_1: /* 3 */
S_5798_0: /* 2 */
		/* else */;
S_5799_0: /* 2 */
		goto S_5803_0;	/* 'goto' */
S_5800_2: /* 3 */
		Uerror("blocking sel in d_step (nr.628, near line 140)");
S_5802_0: /* 2 */
		goto S_5803_0;	/* 'break' */
S_5803_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5804_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5805_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5806_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5807_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5819_0: /* 2 */
S_5818_0: /* 2 */
S_5808_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5818_1;
S_5813_0: /* 2 */
S_5809_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_5813_1;
S_5810_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_5814_0;
S_5813_1: /* 3 */
S_5811_0: /* 2 */
		/* else */;
S_5812_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5814_0;
S_5813_2: /* 3 */
		Uerror("blocking sel in d_step (nr.629, near line 150)");
S_5814_0: /* 2 */
S_5815_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5819_0; /* ';' */
S_5818_1: /* 3 */
S_5816_0: /* 2 */
		/* else */;
S_5817_0: /* 2 */
		goto S_5821_0;	/* 'goto' */
S_5818_2: /* 3 */
		Uerror("blocking sel in d_step (nr.630, near line 149)");
S_5820_0: /* 2 */
		goto S_5821_0;	/* 'break' */
S_5821_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5822_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_5827_0;
S_5826_1: /* 3 */
S_5824_0: /* 2 */
		/* else */;
S_5825_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5827_0;
S_5826_2: /* 3 */
		Uerror("blocking sel in d_step (nr.631, near line 192)");
S_5827_0: /* 2 */
		goto S_5829_0;
S_5828_3: /* 3 */
		Uerror("blocking sel in d_step (nr.632, near line 183)");
S_5829_0: /* 2 */
S_5830_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5831_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5832_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5833_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5834_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5835_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 125: // STATE 5942 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+3)*2)+0), 16) ])!=0)))
			continue;

		reached[0][5942] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5838_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+3)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5939_0: /* 2 */
S_5839_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+3)*2)+0), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5840_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5841_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5842_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5843_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5931_0: /* 2 */
S_5844_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_5931_1;
S_5845_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5932_0;
S_5931_1: /* 3 */
S_5846_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_5931_2;
S_5847_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5848_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_5849_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5850_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5851_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5852_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_5932_0;
S_5931_2: /* 3 */
S_5853_0: /* 2 */
		/* else */;
S_5854_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_5859_0: /* 2 */
S_5855_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5859_1;
S_5856_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5860_0;
S_5859_1: /* 3 */
S_5857_0: /* 2 */
		/* else */;
S_5858_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5860_0;
S_5859_2: /* 3 */
		Uerror("blocking sel in d_step (nr.633, near line 190)");
S_5860_0: /* 2 */
S_5892_0: /* 2 */
S_5861_0: /* 2 */
		if (!(((0==((int)now.prid[1]))&&((int)t_ok))))
			goto S_5892_1;
S_5889_0: /* 2 */
S_5862_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<3));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5887_0: /* 2 */
S_5863_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_5887_1;
S_5868_0: /* 2 */
S_5864_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_5868_1;
S_5865_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_5869_0;
S_5868_1: /* 3 */
S_5866_0: /* 2 */
		/* else */;
S_5867_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5869_0;
S_5868_2: /* 3 */
		Uerror("blocking sel in d_step (nr.634, near line 161)");
S_5869_0: /* 2 */
S_5874_0: /* 2 */
S_5870_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_5874_1;
S_5871_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5875_0;
S_5874_1: /* 3 */
S_5872_0: /* 2 */
		/* else */;
S_5873_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5875_0;
S_5874_2: /* 3 */
		Uerror("blocking sel in d_step (nr.635, near line 166)");
S_5875_0: /* 2 */
S_5876_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5883_0: /* 2 */
S_5877_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_5883_1;
S_5878_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_5879_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_5880_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_5884_0;
S_5883_1: /* 3 */
S_5881_0: /* 2 */
		/* else */;
S_5882_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5884_0;
S_5883_2: /* 3 */
		Uerror("blocking sel in d_step (nr.636, near line 169)");
S_5884_0: /* 2 */
		goto S_5888_0;
S_5887_1: /* 3 */
S_5885_0: /* 2 */
		/* else */;
S_5886_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5888_0;
S_5887_2: /* 3 */
		Uerror("blocking sel in d_step (nr.637, near line 159)");
S_5888_0: /* 2 */
		goto S_5893_0;
S_5892_1: /* 3 */
S_5890_0: /* 2 */
		/* else */;
S_5891_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5893_0;
S_5892_2: /* 3 */
		Uerror("blocking sel in d_step (nr.638, near line 191)");
S_5893_0: /* 2 */
S_5929_0: /* 2 */
S_5894_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5929_1;
S_5926_0: /* 2 */
S_5895_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5896_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5904_0: /* 2 */
S_5903_0: /* 2 */
S_5897_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5903_1;
S_5898_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5899_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_5900_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5904_0; /* ';' */
S_5903_1: /* 3 */
S_5901_0: /* 2 */
		/* else */;
S_5902_0: /* 2 */
		goto S_5906_0;	/* 'goto' */
S_5903_2: /* 3 */
		Uerror("blocking sel in d_step (nr.639, near line 140)");
S_5905_0: /* 2 */
		goto S_5906_0;	/* 'break' */
S_5906_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5907_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5908_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5909_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5910_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5922_0: /* 2 */
S_5921_0: /* 2 */
S_5911_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_5921_1;
S_5916_0: /* 2 */
S_5912_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_5916_1;
S_5913_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_5917_0;
S_5916_1: /* 3 */
S_5914_0: /* 2 */
		/* else */;
S_5915_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5917_0;
S_5916_2: /* 3 */
		Uerror("blocking sel in d_step (nr.640, near line 150)");
S_5917_0: /* 2 */
S_5918_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_5922_0; /* ';' */
S_5921_1: /* 3 */
S_5919_0: /* 2 */
		/* else */;
S_5920_0: /* 2 */
		goto S_5924_0;	/* 'goto' */
S_5921_2: /* 3 */
		Uerror("blocking sel in d_step (nr.641, near line 149)");
S_5923_0: /* 2 */
		goto S_5924_0;	/* 'break' */
S_5924_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_5925_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_5930_0;
S_5929_1: /* 3 */
S_5927_0: /* 2 */
		/* else */;
S_5928_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5930_0;
S_5929_2: /* 3 */
		Uerror("blocking sel in d_step (nr.642, near line 192)");
S_5930_0: /* 2 */
		goto S_5932_0;
S_5931_3: /* 3 */
		Uerror("blocking sel in d_step (nr.643, near line 183)");
S_5932_0: /* 2 */
S_5933_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5934_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5935_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5936_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5937_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_5938_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_5940_0;
S_5940_0: /* 2 */
		now.rp[ Index(((((1*4)+3)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+3)*2)+0)]", ((int)now.rp[ Index(((((1*4)+3)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 126: // STATE 5945 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+3)*2)+0), 16) ])!=0)))
			continue;

		reached[0][5945] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5942_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+3)*2)+0), 16) ])!=0)))
			Uerror("block in d_step seq");
S_5943_0: /* 2 */
		now.rp[ Index(((((1*4)+3)*2)+0), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+3)*2)+0)]", ((int)now.rp[ Index(((((1*4)+3)*2)+0), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 127: // STATE 6048 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+3)*2)+1), 16) ])!=0)))
			continue;

		reached[0][6048] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_5945_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+3)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_6046_0: /* 2 */
S_5946_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+3)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_5947_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_5948_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_5949_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_5950_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_6038_0: /* 2 */
S_5951_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_6038_1;
S_5952_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6039_0;
S_6038_1: /* 3 */
S_5953_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_6038_2;
S_5954_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5955_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_5956_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_5957_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_5958_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_5959_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_6039_0;
S_6038_2: /* 3 */
S_5960_0: /* 2 */
		/* else */;
S_5961_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_5966_0: /* 2 */
S_5962_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_5966_1;
S_5963_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5967_0;
S_5966_1: /* 3 */
S_5964_0: /* 2 */
		/* else */;
S_5965_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5967_0;
S_5966_2: /* 3 */
		Uerror("blocking sel in d_step (nr.644, near line 190)");
S_5967_0: /* 2 */
S_5999_0: /* 2 */
S_5968_0: /* 2 */
		if (!(((1==((int)now.prid[1]))&&((int)t_ok))))
			goto S_5999_1;
S_5996_0: /* 2 */
S_5969_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<3));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_5994_0: /* 2 */
S_5970_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_5994_1;
S_5975_0: /* 2 */
S_5971_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_5975_1;
S_5972_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_5976_0;
S_5975_1: /* 3 */
S_5973_0: /* 2 */
		/* else */;
S_5974_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5976_0;
S_5975_2: /* 3 */
		Uerror("blocking sel in d_step (nr.645, near line 161)");
S_5976_0: /* 2 */
S_5981_0: /* 2 */
S_5977_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_5981_1;
S_5978_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_5982_0;
S_5981_1: /* 3 */
S_5979_0: /* 2 */
		/* else */;
S_5980_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5982_0;
S_5981_2: /* 3 */
		Uerror("blocking sel in d_step (nr.646, near line 166)");
S_5982_0: /* 2 */
S_5983_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_5990_0: /* 2 */
S_5984_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_5990_1;
S_5985_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_5986_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_5987_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_5991_0;
S_5990_1: /* 3 */
S_5988_0: /* 2 */
		/* else */;
S_5989_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5991_0;
S_5990_2: /* 3 */
		Uerror("blocking sel in d_step (nr.647, near line 169)");
S_5991_0: /* 2 */
		goto S_5995_0;
S_5994_1: /* 3 */
S_5992_0: /* 2 */
		/* else */;
S_5993_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_5995_0;
S_5994_2: /* 3 */
		Uerror("blocking sel in d_step (nr.648, near line 159)");
S_5995_0: /* 2 */
		goto S_6000_0;
S_5999_1: /* 3 */
S_5997_0: /* 2 */
		/* else */;
S_5998_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6000_0;
S_5999_2: /* 3 */
		Uerror("blocking sel in d_step (nr.649, near line 191)");
S_6000_0: /* 2 */
S_6036_0: /* 2 */
S_6001_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_6036_1;
S_6033_0: /* 2 */
S_6002_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_6003_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_6011_0: /* 2 */
S_6010_0: /* 2 */
S_6004_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_6010_1;
S_6005_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_6006_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_6007_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_6011_0; /* ';' */
S_6010_1: /* 3 */
S_6008_0: /* 2 */
		/* else */;
S_6009_0: /* 2 */
		goto S_6013_0;	/* 'goto' */
S_6010_2: /* 3 */
		Uerror("blocking sel in d_step (nr.650, near line 140)");
S_6012_0: /* 2 */
		goto S_6013_0;	/* 'break' */
S_6013_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_6014_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_6015_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_6016_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_6017_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_6029_0: /* 2 */
S_6028_0: /* 2 */
S_6018_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_6028_1;
S_6023_0: /* 2 */
S_6019_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_6023_1;
S_6020_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_6024_0;
S_6023_1: /* 3 */
S_6021_0: /* 2 */
		/* else */;
S_6022_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6024_0;
S_6023_2: /* 3 */
		Uerror("blocking sel in d_step (nr.651, near line 150)");
S_6024_0: /* 2 */
S_6025_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_6029_0; /* ';' */
S_6028_1: /* 3 */
S_6026_0: /* 2 */
		/* else */;
S_6027_0: /* 2 */
		goto S_6031_0;	/* 'goto' */
S_6028_2: /* 3 */
		Uerror("blocking sel in d_step (nr.652, near line 149)");
S_6030_0: /* 2 */
		goto S_6031_0;	/* 'break' */
S_6031_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_6032_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_6037_0;
S_6036_1: /* 3 */
S_6034_0: /* 2 */
		/* else */;
S_6035_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6037_0;
S_6036_2: /* 3 */
		Uerror("blocking sel in d_step (nr.653, near line 192)");
S_6037_0: /* 2 */
		goto S_6039_0;
S_6038_3: /* 3 */
		Uerror("blocking sel in d_step (nr.654, near line 183)");
S_6039_0: /* 2 */
S_6040_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_6041_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_6042_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_6043_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_6044_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_6045_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6156_0; /* ';' */
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 128: // STATE 6152 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+3)*2)+1), 16) ])!=0)))
			continue;

		reached[0][6152] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_6048_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+3)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_6149_0: /* 2 */
S_6049_0: /* 2 */
		t_v = ((int)now.rp[ Index(((((1*4)+3)*2)+1), 16) ]);
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_6050_0: /* 2 */
		t_ok = ((((int)t_v)>>1)&1);
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_6051_0: /* 2 */
		t_ep = ((((int)t_v)>>2)&3);
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_6052_0: /* 2 */
		t_kind = ((((int)t_v)>>4)&3);
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_6053_0: /* 2 */
		t_cf = ((((int)t_v)>>6)&3);
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_6141_0: /* 2 */
S_6054_0: /* 2 */
		if (!((((int)now.pst[1])==0)))
			goto S_6141_1;
S_6055_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6142_0;
S_6141_1: /* 3 */
S_6056_0: /* 2 */
		if (!((((((int)now.pst[1])!=0)&&(((int)t_kind)!=(1+1)))&&(((int)t_ep)>((int)now.pep[1])))))
			goto S_6141_2;
S_6057_0: /* 2 */
		now.pst[1] = 0;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_6058_0: /* 2 */
		now.pep[1] = 0;
#ifdef VAR_RANGES
		logval("pep[1]", ((int)now.pep[1]));
#endif
		;
S_6059_0: /* 2 */
		now.prid[1] = 0;
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_6060_0: /* 2 */
		now.prj[1] = 0;
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_6061_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_6062_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
		goto S_6142_0;
S_6141_2: /* 3 */
S_6063_0: /* 2 */
		/* else */;
S_6064_0: /* 2 */
		t_raised = (((int)t_cf)>((int)now.pcf[1]));
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
S_6069_0: /* 2 */
S_6065_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_6069_1;
S_6066_0: /* 2 */
		now.pcf[1] = ((int)t_cf);
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_6070_0;
S_6069_1: /* 3 */
S_6067_0: /* 2 */
		/* else */;
S_6068_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6070_0;
S_6069_2: /* 3 */
		Uerror("blocking sel in d_step (nr.655, near line 190)");
S_6070_0: /* 2 */
S_6102_0: /* 2 */
S_6071_0: /* 2 */
		if (!(((1==((int)now.prid[1]))&&((int)t_ok))))
			goto S_6102_1;
S_6099_0: /* 2 */
S_6072_0: /* 2 */
		now.pgr[1] = (((int)now.pgr[1])|(1<<3));
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_6097_0: /* 2 */
S_6073_0: /* 2 */
		if (!(((((((int)now.pcf[1])==0)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))||(((((int)now.pcf[1])==1)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>2)&1))>=2))&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))||((((int)now.pcf[1])==2)&&((((((int)now.pgr[1])&1)+((((int)now.pgr[1])>>1)&1))+((((int)now.pgr[1])>>3)&1))>=2)))))
			goto S_6097_1;
S_6078_0: /* 2 */
S_6074_0: /* 2 */
		if (!((((5-2)>((int)now.prage[1]))&&(((5-2)-((int)now.prage[1]))>((int)now.pleft[1])))))
			goto S_6078_1;
S_6075_0: /* 2 */
		now.pleft[1] = ((5-2)-((int)now.prage[1]));
#ifdef VAR_RANGES
		logval("pleft[1]", ((int)now.pleft[1]));
#endif
		;
		goto S_6079_0;
S_6078_1: /* 3 */
S_6076_0: /* 2 */
		/* else */;
S_6077_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6079_0;
S_6078_2: /* 3 */
		Uerror("blocking sel in d_step (nr.656, near line 161)");
S_6079_0: /* 2 */
S_6084_0: /* 2 */
S_6080_0: /* 2 */
		if (!(((((int)now.pcf[1])==1)&&((int)now.prj[1]))))
			goto S_6084_1;
S_6081_0: /* 2 */
		now.pcf[1] = 2;
#ifdef VAR_RANGES
		logval("pcf[1]", ((int)now.pcf[1]));
#endif
		;
		goto S_6085_0;
S_6084_1: /* 3 */
S_6082_0: /* 2 */
		/* else */;
S_6083_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6085_0;
S_6084_2: /* 3 */
		Uerror("blocking sel in d_step (nr.657, near line 166)");
S_6085_0: /* 2 */
S_6086_0: /* 2 */
		now.pst[1] = 2;
#ifdef VAR_RANGES
		logval("pst[1]", ((int)now.pst[1]));
#endif
		;
S_6093_0: /* 2 */
S_6087_0: /* 2 */
		if (!(((((int)now.pleft[1])>0)&& !(((int)now.prun[1])))))
			goto S_6093_1;
S_6088_0: /* 2 */
		spin_assert( !(((int)now.prun[ Index((1-1), 2) ])), " !(prun[(1-1)])", II, tt, t);
S_6089_0: /* 2 */
		now.prun[1] = 1;
#ifdef VAR_RANGES
		logval("prun[1]", ((int)now.prun[1]));
#endif
		;
S_6090_0: /* 2 */
		now.pfc[1] = 0;
#ifdef VAR_RANGES
		logval("pfc[1]", ((int)now.pfc[1]));
#endif
		;
		goto S_6094_0;
S_6093_1: /* 3 */
S_6091_0: /* 2 */
		/* else */;
S_6092_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6094_0;
S_6093_2: /* 3 */
		Uerror("blocking sel in d_step (nr.658, near line 169)");
S_6094_0: /* 2 */
		goto S_6098_0;
S_6097_1: /* 3 */
S_6095_0: /* 2 */
		/* else */;
S_6096_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6098_0;
S_6097_2: /* 3 */
		Uerror("blocking sel in d_step (nr.659, near line 159)");
S_6098_0: /* 2 */
		goto S_6103_0;
S_6102_1: /* 3 */
S_6100_0: /* 2 */
		/* else */;
S_6101_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6103_0;
S_6102_2: /* 3 */
		Uerror("blocking sel in d_step (nr.660, near line 191)");
S_6103_0: /* 2 */
S_6139_0: /* 2 */
S_6104_0: /* 2 */
		if (!(((int)t_raised)))
			goto S_6139_1;
S_6136_0: /* 2 */
S_6105_0: /* 2 */
		now.prid[1] = (1-((int)now.prid[1]));
#ifdef VAR_RANGES
		logval("prid[1]", ((int)now.prid[1]));
#endif
		;
S_6106_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_6114_0: /* 2 */
S_6113_0: /* 2 */
S_6107_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_6113_1;
S_6108_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_6109_0: /* 2 */
		now.rp[ Index(((((1*4)+t_i)*2)+now.prid[1]), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+t_i)*2)+prid[1])]", ((int)now.rp[ Index(((((1*4)+((int)t_i))*2)+((int)now.prid[1])), 16) ]));
#endif
		;
S_6110_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_6114_0; /* ';' */
S_6113_1: /* 3 */
S_6111_0: /* 2 */
		/* else */;
S_6112_0: /* 2 */
		goto S_6116_0;	/* 'goto' */
S_6113_2: /* 3 */
		Uerror("blocking sel in d_step (nr.661, near line 140)");
S_6115_0: /* 2 */
		goto S_6116_0;	/* 'break' */
S_6116_0: /* 2 */
		now.prage[1] = 0;
#ifdef VAR_RANGES
		logval("prage[1]", ((int)now.prage[1]));
#endif
		;
S_6117_0: /* 2 */
		now.pgr[1] = 0;
#ifdef VAR_RANGES
		logval("pgr[1]", ((int)now.pgr[1]));
#endif
		;
S_6118_0: /* 2 */
		now.prj[1] = (((int)now.pcf[1])==1);
#ifdef VAR_RANGES
		logval("prj[1]", ((int)now.prj[1]));
#endif
		;
S_6119_0: /* 2 */
		t_v = (((1|((((int)now.pst[1])==1)<<1))|(((int)now.pep[1])<<2))|(((int)now.pcf[1])<<4));
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_6120_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_6132_0: /* 2 */
S_6131_0: /* 2 */
S_6121_0: /* 2 */
		if (!((((int)t_i)<4)))
			goto S_6131_1;
S_6126_0: /* 2 */
S_6122_0: /* 2 */
		if (!((((((int)now.pcf[1])==1)||((((int)now.pcf[1])==0)&&(((int)t_i)!=3)))||((((int)now.pcf[1])==2)&&(((int)t_i)!=2)))))
			goto S_6126_1;
S_6123_0: /* 2 */
		now.rq[ Index(((((t_i*2)+1)*2)+now.prid[1]), 16) ] = ((int)t_v);
#ifdef VAR_RANGES
		logval("rq[((((t_i*2)+1)*2)+prid[1])]", ((int)now.rq[ Index(((((((int)t_i)*2)+1)*2)+((int)now.prid[1])), 16) ]));
#endif
		;
		goto S_6127_0;
S_6126_1: /* 3 */
S_6124_0: /* 2 */
		/* else */;
S_6125_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6127_0;
S_6126_2: /* 3 */
		Uerror("blocking sel in d_step (nr.662, near line 150)");
S_6127_0: /* 2 */
S_6128_0: /* 2 */
		t_i = (((int)t_i)+1);
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
		goto S_6132_0; /* ';' */
S_6131_1: /* 3 */
S_6129_0: /* 2 */
		/* else */;
S_6130_0: /* 2 */
		goto S_6134_0;	/* 'goto' */
S_6131_2: /* 3 */
		Uerror("blocking sel in d_step (nr.663, near line 149)");
S_6133_0: /* 2 */
		goto S_6134_0;	/* 'break' */
S_6134_0: /* 2 */
		t_i = 0;
#ifdef VAR_RANGES
		logval("t_i", ((int)t_i));
#endif
		;
S_6135_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
		goto S_6140_0;
S_6139_1: /* 3 */
S_6137_0: /* 2 */
		/* else */;
S_6138_0: /* 2 */
		if (!(1))
			Uerror("block in d_step seq");
		goto S_6140_0;
S_6139_2: /* 3 */
		Uerror("blocking sel in d_step (nr.664, near line 192)");
S_6140_0: /* 2 */
		goto S_6142_0;
S_6141_3: /* 3 */
		Uerror("blocking sel in d_step (nr.665, near line 183)");
S_6142_0: /* 2 */
S_6143_0: /* 2 */
		t_v = 0;
#ifdef VAR_RANGES
		logval("t_v", ((int)t_v));
#endif
		;
S_6144_0: /* 2 */
		t_ok = 0;
#ifdef VAR_RANGES
		logval("t_ok", ((int)t_ok));
#endif
		;
S_6145_0: /* 2 */
		t_ep = 0;
#ifdef VAR_RANGES
		logval("t_ep", ((int)t_ep));
#endif
		;
S_6146_0: /* 2 */
		t_kind = 0;
#ifdef VAR_RANGES
		logval("t_kind", ((int)t_kind));
#endif
		;
S_6147_0: /* 2 */
		t_cf = 0;
#ifdef VAR_RANGES
		logval("t_cf", ((int)t_cf));
#endif
		;
S_6148_0: /* 2 */
		t_raised = 0;
#ifdef VAR_RANGES
		logval("t_raised", ((int)t_raised));
#endif
		;
		goto S_6150_0;
S_6150_0: /* 2 */
		now.rp[ Index(((((1*4)+3)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+3)*2)+1)]", ((int)now.rp[ Index(((((1*4)+3)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 129: // STATE 6155 - lease.pml:324 - [D_STEP324]
		if (!(boq == -1 && (((int)now.rp[ Index(((((1*4)+3)*2)+1), 16) ])!=0)))
			continue;

		reached[0][6155] = 1;
		reached[0][t->st] = 1;
		reached[0][tt] = 1;

		if (TstOnly) return 1;

		sv_save();
		S_6152_0: /* 2 */
		if (!((((int)now.rp[ Index(((((1*4)+3)*2)+1), 16) ])!=0)))
			Uerror("block in d_step seq");
S_6153_0: /* 2 */
		now.rp[ Index(((((1*4)+3)*2)+1), 16) ] = 0;
#ifdef VAR_RANGES
		logval("rp[((((1*4)+3)*2)+1)]", ((int)now.rp[ Index(((((1*4)+3)*2)+1), 16) ]));
#endif
		;
		goto S_6156_0; /* ';' */

#if defined(C_States) && (HAS_TRACK==1)
		c_update((uchar *) &(now.c_state[0]));
#endif
		_m = 3; goto P999;

	case 130: // STATE 6159 - lease.pml:326 - [-end-] (0:0:0 - 1)
		IfNotBlocked
		reached[0][6159] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */
	case  _T5:	/* np_ */
		if (!((!(trpt->o_pm&4) && !(trpt->tau&128))))
			continue;
		/* else fall through */
	case  _T2:	/* true */
		_m = 3; goto P999;
#undef rand
	}

