#ifdef PEG
struct T_SRC {
	char *fl; int ln;
} T_SRC[NTRANS];

void
tr_2_src(int m, char *file, int ln)
{	T_SRC[m].fl = file;
	T_SRC[m].ln = ln;
}

void
putpeg(int n, int m)
{	printf("%5d	trans %4d ", m, n);
	printf("%s:%d\n",
		T_SRC[n].fl, T_SRC[n].ln);
}
#endif

void
settable(void)
{	Trans *T;
	Trans *settr(int, int, int, int, int, char *, int, int, int);

	trans = (Trans ***) emalloc(2*sizeof(Trans **));

	/* proctype 0: world */

	trans[0] = (Trans **) emalloc(6160*sizeof(Trans *));

/*->*/	trans[0][5]	= settr(4,32,6156,3,3,"D_STEP313", 1, 2, 0);
	trans[0][6157]	= settr(6156,0,6156,1,0,".(goto)", 0, 2, 0);
	T = trans[0][6156] = settr(6155,0,0,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,235,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,271,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,307,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,343,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,377,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,412,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,421,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,457,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,493,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,529,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,563,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,598,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,607,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,610,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,613,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,616,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,619,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,685,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,752,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,755,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,821,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,888,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,891,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,957,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1024,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1027,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1093,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1160,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1163,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1229,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1296,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1299,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1365,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1432,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1435,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1501,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1568,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1571,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1637,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1704,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1707,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1773,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1840,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1843,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1909,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1976,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,1979,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2045,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2112,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2115,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2181,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2248,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2251,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2317,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2384,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2387,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2453,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2520,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2523,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2589,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2656,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2659,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2725,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2792,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2795,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,2898,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3002,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3005,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3108,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3212,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3215,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3318,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3422,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3425,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3528,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3632,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3635,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3738,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3842,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3845,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,3948,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4052,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4055,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4158,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4262,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4265,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4368,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4472,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4475,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4578,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4682,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4685,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4788,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4892,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4895,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,4998,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5102,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5105,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5208,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5312,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5315,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5418,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5522,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5525,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5628,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5732,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5735,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5838,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5942,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,5945,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,6048,0,0,"DO", 0, 2, 0);
	T = T->nxt	= settr(6155,0,6152,0,0,"DO", 0, 2, 0);
	    T->nxt	= settr(6155,0,6155,0,0,"DO", 0, 2, 0);
	T = trans[ 0][235] = settr(234,2,0,0,0,"ATOMIC", 1, 2, 0);
	T->nxt	= settr(234,2,14,0,0,"ATOMIC", 1, 2, 0);
	T = trans[ 0][14] = settr(13,0,0,0,0,"sub-sequence", 1, 2, 0);
	T->nxt	= settr(13,0,12,0,0,"sub-sequence", 1, 2, 0);
	T = trans[0][12] = settr(11,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(11,2,6,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(11,2,8,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(11,2,10,0,0,"IF", 1, 2, 0);
	trans[0][6]	= settr(5,2,23,4,4,"((off[0]>0))", 1, 2, 0); /* m: 7 -> 23,0 */
	reached0[7] = 1;
	trans[0][7]	= settr(0,0,0,0,0,"n0 = (off[0]-1)",0,0,0);
	trans[0][13]	= settr(12,2,23,1,0,".(goto)", 1, 2, 0);
	trans[0][8]	= settr(7,2,23,5,5,"(1)", 1, 2, 0); /* m: 9 -> 23,0 */
	reached0[9] = 1;
	trans[0][9]	= settr(0,0,0,0,0,"n0 = off[0]",0,0,0);
	trans[0][10]	= settr(9,2,23,6,6,"((off[0]<1))", 1, 2, 0); /* m: 11 -> 23,0 */
	reached0[11] = 1;
	trans[0][11]	= settr(0,0,0,0,0,"n0 = (off[0]+1)",0,0,0);
	T = trans[ 0][23] = settr(22,0,0,0,0,"sub-sequence", 1, 2, 0);
	T->nxt	= settr(22,0,21,0,0,"sub-sequence", 1, 2, 0);
	T = trans[0][21] = settr(20,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(20,2,15,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(20,2,17,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(20,2,19,0,0,"IF", 1, 2, 0);
	trans[0][15]	= settr(14,2,32,7,7,"((off[1]>0))", 1, 2, 0); /* m: 16 -> 32,0 */
	reached0[16] = 1;
	trans[0][16]	= settr(0,0,0,0,0,"n1 = (off[1]-1)",0,0,0);
	trans[0][22]	= settr(21,2,32,1,0,".(goto)", 1, 2, 0);
	trans[0][17]	= settr(16,2,32,8,8,"(1)", 1, 2, 0); /* m: 18 -> 32,0 */
	reached0[18] = 1;
	trans[0][18]	= settr(0,0,0,0,0,"n1 = off[1]",0,0,0);
	trans[0][19]	= settr(18,2,32,9,9,"((off[1]<1))", 1, 2, 0); /* m: 20 -> 32,0 */
	reached0[20] = 1;
	trans[0][20]	= settr(0,0,0,0,0,"n1 = (off[1]+1)",0,0,0);
	T = trans[ 0][32] = settr(31,0,0,0,0,"sub-sequence", 1, 2, 0);
	T->nxt	= settr(31,0,30,0,0,"sub-sequence", 1, 2, 0);
	T = trans[0][30] = settr(29,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(29,2,24,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(29,2,26,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(29,2,28,0,0,"IF", 1, 2, 0);
	trans[0][24]	= settr(23,2,41,10,10,"((off[2]>0))", 1, 2, 0); /* m: 25 -> 41,0 */
	reached0[25] = 1;
	trans[0][25]	= settr(0,0,0,0,0,"n2 = (off[2]-1)",0,0,0);
	trans[0][31]	= settr(30,2,41,1,0,".(goto)", 1, 2, 0);
	trans[0][26]	= settr(25,2,41,11,11,"(1)", 1, 2, 0); /* m: 27 -> 41,0 */
	reached0[27] = 1;
	trans[0][27]	= settr(0,0,0,0,0,"n2 = off[2]",0,0,0);
	trans[0][28]	= settr(27,2,41,12,12,"((off[2]<1))", 1, 2, 0); /* m: 29 -> 41,0 */
	reached0[29] = 1;
	trans[0][29]	= settr(0,0,0,0,0,"n2 = (off[2]+1)",0,0,0);
	T = trans[ 0][41] = settr(40,0,0,0,0,"sub-sequence", 1, 2, 0);
	T->nxt	= settr(40,0,39,0,0,"sub-sequence", 1, 2, 0);
	T = trans[0][39] = settr(38,2,0,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(38,2,33,0,0,"IF", 1, 2, 0);
	T = T->nxt	= settr(38,2,35,0,0,"IF", 1, 2, 0);
	    T->nxt	= settr(38,2,37,0,0,"IF", 1, 2, 0);
	trans[0][33]	= settr(32,2,234,13,13,"((off[3]>0))", 1, 2, 0); /* m: 34 -> 234,0 */
	reached0[34] = 1;
	trans[0][34]	= settr(0,0,0,0,0,"n3 = (off[3]-1)",0,0,0);
	trans[0][40]	= settr(39,2,234,14,14,".(goto)", 1, 2, 0);
	trans[0][35]	= settr(34,2,234,15,15,"(1)", 1, 2, 0); /* m: 36 -> 234,0 */
	reached0[36] = 1;
	trans[0][36]	= settr(0,0,0,0,0,"n3 = off[3]",0,0,0);
	trans[0][37]	= settr(36,2,234,16,16,"((off[3]<1))", 1, 2, 0); /* m: 38 -> 234,0 */
	reached0[38] = 1;
	trans[0][38]	= settr(0,0,0,0,0,"n3 = (off[3]+1)",0,0,0);
/*->*/	trans[0][234]	= settr(233,36,6156,17,17,"D_STEP317", 1, 2, 0);
/*->*/	trans[0][271]	= settr(270,32,6156,18,18,"D_STEP320", 1, 2, 0);
/*->*/	trans[0][307]	= settr(306,32,6156,19,19,"D_STEP320", 1, 2, 0);
/*->*/	trans[0][343]	= settr(342,32,6156,20,20,"D_STEP320", 1, 2, 0);
/*->*/	trans[0][377]	= settr(376,32,6156,21,21,"D_STEP320", 1, 2, 0);
/*->*/	trans[0][412]	= settr(411,32,6156,22,22,"D_STEP320", 1, 2, 0);
/*->*/	trans[0][421]	= settr(420,32,6156,23,23,"D_STEP320", 1, 2, 0);
/*->*/	trans[0][457]	= settr(456,32,6156,24,24,"D_STEP321", 1, 2, 0);
/*->*/	trans[0][493]	= settr(492,32,6156,25,25,"D_STEP321", 1, 2, 0);
/*->*/	trans[0][529]	= settr(528,32,6156,26,26,"D_STEP321", 1, 2, 0);
/*->*/	trans[0][563]	= settr(562,32,6156,27,27,"D_STEP321", 1, 2, 0);
/*->*/	trans[0][598]	= settr(597,32,6156,28,28,"D_STEP321", 1, 2, 0);
/*->*/	trans[0][607]	= settr(606,32,6156,29,29,"D_STEP321", 1, 2, 0);
/*->*/	trans[0][610]	= settr(609,32,6156,30,30,"D_STEP322", 1, 2, 0);
/*->*/	trans[0][613]	= settr(612,32,6156,31,31,"D_STEP322", 1, 2, 0);
/*->*/	trans[0][616]	= settr(615,32,6156,32,32,"D_STEP322", 1, 2, 0);
/*->*/	trans[0][619]	= settr(618,32,6156,33,33,"D_STEP322", 1, 2, 0);
/*->*/	trans[0][685]	= settr(684,32,6156,34,34,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][752]	= settr(751,32,6156,35,35,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][755]	= settr(754,32,6156,36,36,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][821]	= settr(820,32,6156,37,37,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][888]	= settr(887,32,6156,38,38,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][891]	= settr(890,32,6156,39,39,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][957]	= settr(956,32,6156,40,40,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1024]	= settr(1023,32,6156,41,41,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1027]	= settr(1026,32,6156,42,42,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1093]	= settr(1092,32,6156,43,43,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1160]	= settr(1159,32,6156,44,44,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1163]	= settr(1162,32,6156,45,45,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1229]	= settr(1228,32,6156,46,46,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1296]	= settr(1295,32,6156,47,47,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1299]	= settr(1298,32,6156,48,48,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1365]	= settr(1364,32,6156,49,49,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1432]	= settr(1431,32,6156,50,50,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1435]	= settr(1434,32,6156,51,51,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1501]	= settr(1500,32,6156,52,52,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1568]	= settr(1567,32,6156,53,53,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1571]	= settr(1570,32,6156,54,54,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1637]	= settr(1636,32,6156,55,55,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1704]	= settr(1703,32,6156,56,56,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1707]	= settr(1706,32,6156,57,57,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1773]	= settr(1772,32,6156,58,58,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1840]	= settr(1839,32,6156,59,59,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1843]	= settr(1842,32,6156,60,60,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1909]	= settr(1908,32,6156,61,61,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1976]	= settr(1975,32,6156,62,62,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][1979]	= settr(1978,32,6156,63,63,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2045]	= settr(2044,32,6156,64,64,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2112]	= settr(2111,32,6156,65,65,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2115]	= settr(2114,32,6156,66,66,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2181]	= settr(2180,32,6156,67,67,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2248]	= settr(2247,32,6156,68,68,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2251]	= settr(2250,32,6156,69,69,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2317]	= settr(2316,32,6156,70,70,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2384]	= settr(2383,32,6156,71,71,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2387]	= settr(2386,32,6156,72,72,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2453]	= settr(2452,32,6156,73,73,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2520]	= settr(2519,32,6156,74,74,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2523]	= settr(2522,32,6156,75,75,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2589]	= settr(2588,32,6156,76,76,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2656]	= settr(2655,32,6156,77,77,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2659]	= settr(2658,32,6156,78,78,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2725]	= settr(2724,32,6156,79,79,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2792]	= settr(2791,32,6156,80,80,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2795]	= settr(2794,32,6156,81,81,"D_STEP323", 1, 2, 0);
/*->*/	trans[0][2898]	= settr(2897,32,6156,82,82,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3002]	= settr(3001,32,6156,83,83,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3005]	= settr(3004,32,6156,84,84,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3108]	= settr(3107,32,6156,85,85,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3212]	= settr(3211,32,6156,86,86,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3215]	= settr(3214,32,6156,87,87,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3318]	= settr(3317,32,6156,88,88,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3422]	= settr(3421,32,6156,89,89,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3425]	= settr(3424,32,6156,90,90,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3528]	= settr(3527,32,6156,91,91,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3632]	= settr(3631,32,6156,92,92,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3635]	= settr(3634,32,6156,93,93,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3738]	= settr(3737,32,6156,94,94,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3842]	= settr(3841,32,6156,95,95,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3845]	= settr(3844,32,6156,96,96,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][3948]	= settr(3947,32,6156,97,97,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4052]	= settr(4051,32,6156,98,98,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4055]	= settr(4054,32,6156,99,99,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4158]	= settr(4157,32,6156,100,100,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4262]	= settr(4261,32,6156,101,101,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4265]	= settr(4264,32,6156,102,102,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4368]	= settr(4367,32,6156,103,103,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4472]	= settr(4471,32,6156,104,104,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4475]	= settr(4474,32,6156,105,105,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4578]	= settr(4577,32,6156,106,106,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4682]	= settr(4681,32,6156,107,107,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4685]	= settr(4684,32,6156,108,108,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4788]	= settr(4787,32,6156,109,109,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4892]	= settr(4891,32,6156,110,110,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4895]	= settr(4894,32,6156,111,111,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][4998]	= settr(4997,32,6156,112,112,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5102]	= settr(5101,32,6156,113,113,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5105]	= settr(5104,32,6156,114,114,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5208]	= settr(5207,32,6156,115,115,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5312]	= settr(5311,32,6156,116,116,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5315]	= settr(5314,32,6156,117,117,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5418]	= settr(5417,32,6156,118,118,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5522]	= settr(5521,32,6156,119,119,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5525]	= settr(5524,32,6156,120,120,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5628]	= settr(5627,32,6156,121,121,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5732]	= settr(5731,32,6156,122,122,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5735]	= settr(5734,32,6156,123,123,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5838]	= settr(5837,32,6156,124,124,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5942]	= settr(5941,32,6156,125,125,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][5945]	= settr(5944,32,6156,126,126,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][6048]	= settr(6047,32,6156,127,127,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][6152]	= settr(6151,32,6156,128,128,"D_STEP324", 1, 2, 0);
/*->*/	trans[0][6155]	= settr(6154,32,6156,129,129,"D_STEP324", 1, 2, 0);
	trans[0][6158]	= settr(6157,0,6159,1,0,"break", 0, 2, 0);
	trans[0][6159]	= settr(6158,0,0,130,130,"-end-", 0, 3500, 0);
	/* np_ demon: */
	trans[_NP_] = (Trans **) emalloc(3*sizeof(Trans *));
	T = trans[_NP_][0] = settr(9997,0,1,_T5,0,"(np_)", 1,2,0);
	    T->nxt	  = settr(9998,0,0,_T2,0,"(1)",   0,2,0);
	T = trans[_NP_][1] = settr(9999,0,1,_T5,0,"(np_)", 1,2,0);
}

Trans *
settr(	int t_id, int a, int b, int c, int d,
	char *t, int g, int tpe0, int tpe1)
{	Trans *tmp = (Trans *) emalloc(sizeof(Trans));

	tmp->atom  = a&(6|32);	/* only (2|8|32) have meaning */
	if (!g) tmp->atom |= 8;	/* no global references */
	tmp->st    = b;
	tmp->tpe[0] = tpe0;
	tmp->tpe[1] = tpe1;
	tmp->tp    = t;
	tmp->t_id  = t_id;
	tmp->forw  = c;
	tmp->back  = d;
	return tmp;
}

Trans *
cpytr(Trans *a)
{	Trans *tmp = (Trans *) emalloc(sizeof(Trans));

	int i;
	tmp->atom  = a->atom;
	tmp->st    = a->st;
#ifdef HAS_UNLESS
	tmp->e_trans = a->e_trans;
	for (i = 0; i < HAS_UNLESS; i++)
		tmp->escp[i] = a->escp[i];
#endif
	tmp->tpe[0] = a->tpe[0];
	tmp->tpe[1] = a->tpe[1];
	for (i = 0; i < 6; i++)
	{	tmp->qu[i] = a->qu[i];
		tmp->ty[i] = a->ty[i];
	}
	tmp->tp    = (char *) emalloc(strlen(a->tp)+1);
	strcpy(tmp->tp, a->tp);
	tmp->t_id  = a->t_id;
	tmp->forw  = a->forw;
	tmp->back  = a->back;
	return tmp;
}

#ifndef NOREDUCE
int
srinc_set(int n)
{	if (n <= 2) return LOCAL;
	if (n <= 2+  DELTA) return Q_FULL_F; /* 's' or nfull  */
	if (n <= 2+2*DELTA) return Q_EMPT_F; /* 'r' or nempty */
	if (n <= 2+3*DELTA) return Q_EMPT_T; /* empty */
	if (n <= 2+4*DELTA) return Q_FULL_T; /* full  */
	if (n ==   5*DELTA) return GLOBAL;
	if (n ==   6*DELTA) return TIMEOUT_F;
	if (n ==   7*DELTA) return ALPHA_F;
	Uerror("cannot happen srinc_class");
	return BAD;
}
int
srunc(int n, int m)
{	switch(m) {
	case Q_FULL_F: return n-2;
	case Q_EMPT_F: return n-2-DELTA;
	case Q_EMPT_T: return n-2-2*DELTA;
	case Q_FULL_T: return n-2-3*DELTA;
	case ALPHA_F:
	case TIMEOUT_F: return 257; /* non-zero, and > MAXQ */
	}
	Uerror("cannot happen srunc");
	return 0;
}
#endif
int cnt;
#ifdef HAS_UNLESS
int
isthere(Trans *a, int b)
{	Trans *t;
	for (t = a; t; t = t->nxt)
		if (t->t_id == b)
			return 1;
	return 0;
}
#endif
#ifndef NOREDUCE
int
mark_safety(Trans *t) /* for conditional safety */
{	int g = 0, i, j, k;

	if (!t) return 0;
	if (t->qu[0])
		return (t->qu[1])?2:1;	/* marked */

	for (i = 0; i < 2; i++)
	{	j = srinc_set(t->tpe[i]);
		if (j >= GLOBAL && j != ALPHA_F)
			return -1;
		if (j != LOCAL)
		{	k = srunc(t->tpe[i], j);
			if (g == 0
			||  t->qu[0] != k
			||  t->ty[0] != j)
			{	t->qu[g] = k;
				t->ty[g] = j;
				g++;
	}	}	}
	return g;
}
#endif
void
retrans(int n, int m, int is, short srcln[], uchar reach[], uchar lpstate[])
	/* process n, with m states, is=initial state */
{	Trans *T0, *T1, *T2, *T3;
	Trans *T4, *T5; /* t_reverse or has_unless */
	int i;
#if defined(HAS_UNLESS) || !defined(NOREDUCE)
	int k;
#endif
#ifndef NOREDUCE
	int g, h, j, aa;
#endif
#ifdef HAS_UNLESS
	int p;
#endif
	if (state_tables >= 4)
	{	printf("STEP 1 %s\n", 
			procname[n]);
		for (i = 1; i < m; i++)
		for (T0 = trans[n][i]; T0; T0 = T0->nxt)
			crack(n, i, T0, srcln);
		return;
	}
	do {
		for (i = 1, cnt = 0; i < m; i++)
		{	T2 = trans[n][i];
			T1 = T2?T2->nxt:(Trans *)0;
/* prescan: */		for (T0 = T1; T0; T0 = T0->nxt)
/* choice in choice */	{	if (T0->st && trans[n][T0->st]
				&&  trans[n][T0->st]->nxt)
					break;
			}
#if 0
		if (T0)
		printf("\tstate %d / %d: choice in choice\n",
		i, T0->st);
#endif
			if (T0)
			for (T0 = T1; T0; T0 = T0->nxt)
			{	T3 = trans[n][T0->st];
				if (!T3->nxt)
				{	T2->nxt = cpytr(T0);
					T2 = T2->nxt;
					imed(T2, T0->st, n, i);
					continue;
				}
				do {	T3 = T3->nxt;
					T2->nxt = cpytr(T3);
					T2 = T2->nxt;
					imed(T2, T0->st, n, i);
				} while (T3->nxt);
				cnt++;
			}
		}
	} while (cnt);
	if (state_tables >= 3)
	{	printf("STEP 2 %s\n", 
			procname[n]);
		for (i = 1; i < m; i++)
		for (T0 = trans[n][i]; T0; T0 = T0->nxt)
			crack(n, i, T0, srcln);
		return;
	}
	for (i = 1; i < m; i++)
	{	if (trans[n][i] && trans[n][i]->nxt) /* optimize */
		{	T1 = trans[n][i]->nxt;
#if 0
			printf("\t\tpull %d (%d) to %d\n",
			T1->st, T1->forw, i);
#endif
			srcln[i] = srcln[T1->st];	/* Oyvind Teig, 5.2.0 */

			if (!trans[n][T1->st]) continue;
			T0 = cpytr(trans[n][T1->st]);
			trans[n][i] = T0;
			reach[T1->st] = 1;
			imed(T0, T1->st, n, i);
			for (T1 = T1->nxt; T1; T1 = T1->nxt)
			{
#if 0
			printf("\t\tpull %d (%d) to %d\n",
				T1->st, T1->forw, i);
#endif
		/*		srcln[i] = srcln[T1->st];  gh: not useful */
				if (!trans[n][T1->st]) continue;
				T0->nxt = cpytr(trans[n][T1->st]);
				T0 = T0->nxt;
				reach[T1->st] = 1;
				imed(T0, T1->st, n, i);
	}	}	}
	if (state_tables >= 2)
	{	printf("STEP 3 %s\n", 
			procname[n]);
		for (i = 1; i < m; i++)
		for (T0 = trans[n][i]; T0; T0 = T0->nxt)
			crack(n, i, T0, srcln);
		return;
	}
#ifdef HAS_UNLESS
	for (i = 1; i < m; i++)
	{	if (!trans[n][i]) continue;
		/* check for each state i if an
		 * escape to some state p is defined
		 * if so, copy and mark p's transitions
		 * and prepend them to the transition-
		 * list of state i
		 */
	 if (!like_java) /* the default */
	 {	for (T0 = trans[n][i]; T0; T0 = T0->nxt)
		for (k = HAS_UNLESS-1; k >= 0; k--)
		{	if (p = T0->escp[k])
			for (T1 = trans[n][p]; T1; T1 = T1->nxt)
			{	if (isthere(trans[n][i], T1->t_id))
					continue;
				T2 = cpytr(T1);
				T2->e_trans = p;
				T2->nxt = trans[n][i];
				trans[n][i] = T2;
		}	}
	 } else /* outermost unless checked first */
	 {	T4 = T3 = (Trans *) 0;
		for (T0 = trans[n][i]; T0; T0 = T0->nxt)
		for (k = HAS_UNLESS-1; k >= 0; k--)
		{	if (p = T0->escp[k])
			for (T1 = trans[n][p]; T1; T1 = T1->nxt)
			{	if (isthere(trans[n][i], T1->t_id))
					continue;
				T2 = cpytr(T1);
				T2->nxt = (Trans *) 0;
				T2->e_trans = p;
				if (T3)	T3->nxt = T2;
				else	T4 = T2;
				T3 = T2;
		}	}
		if (T4)
		{	T3->nxt = trans[n][i];
			trans[n][i] = T4;
		}
	 }
	}
#endif
#ifndef NOREDUCE
	for (i = 1; i < m; i++)
	{	if (a_cycles)
		{ /* moves through these states are visible */
	#if PROG_LAB>0 && defined(HAS_NP)
			if (progstate[n][i])
				goto degrade;
			for (T1 = trans[n][i]; T1; T1 = T1->nxt)
				if (progstate[n][T1->st])
					goto degrade;
	#endif
			if (accpstate[n][i] || visstate[n][i])
				goto degrade;
			for (T1 = trans[n][i]; T1; T1 = T1->nxt)
				if (accpstate[n][T1->st])
					goto degrade;
		}
		T1 = trans[n][i];
		if (!T1) continue;
		g = mark_safety(T1);	/* V3.3.1 */
		if (g < 0) goto degrade; /* global */
		/* check if mixing of guards preserves reduction */
		if (T1->nxt)
		{	k = 0;
			for (T0 = T1; T0; T0 = T0->nxt)
			{	if (!(T0->atom&8))
					goto degrade;
				for (aa = 0; aa < 2; aa++)
				{	j = srinc_set(T0->tpe[aa]);
					if (j >= GLOBAL && j != ALPHA_F)
						goto degrade;
					if (T0->tpe[aa]
					&&  T0->tpe[aa]
					!=  T1->tpe[0])
						k = 1;
			}	}
			/* g = 0;	V3.3.1 */
			if (k)	/* non-uniform selection */
			for (T0 = T1; T0; T0 = T0->nxt)
			for (aa = 0; aa < 2; aa++)
			{	j = srinc_set(T0->tpe[aa]);
				if (j != LOCAL)
				{	k = srunc(T0->tpe[aa], j);
					for (h = 0; h < 6; h++)
						if (T1->qu[h] == k
						&&  T1->ty[h] == j)
							break;
					if (h >= 6)
					{	T1->qu[g%6] = k;
						T1->ty[g%6] = j;
						g++;
			}	}	}
			if (g > 6)
			{	T1->qu[0] = 0;	/* turn it off */
				printf("pan: warning, line %d, ",
					srcln[i]);
			 	printf("too many stmnt types (%d)",
					g);
			  	printf(" in selection\n");
			  goto degrade;
			}
		}
		/* mark all options global if >=1 is global */
		for (T1 = trans[n][i]; T1; T1 = T1->nxt)
			if (!(T1->atom&8)) break;
		if (T1)
degrade:	for (T1 = trans[n][i]; T1; T1 = T1->nxt)
			T1->atom &= ~8;	/* mark as unsafe */
		/* can only mix 'r's or 's's if on same chan */
		/* and not mixed with other local operations */
		T1 = trans[n][i];
		if (!T1 || T1->qu[0]) continue;
		j = T1->tpe[0];
		if (T1->nxt && T1->atom&8)
		{ if (j == 5*DELTA)
		  {	printf("warning: line %d ", srcln[i]);
			printf("mixed condition ");
			printf("(defeats reduction)\n");
			goto degrade;
		  }
		  for (T0 = T1; T0; T0 = T0->nxt)
		  for (aa = 0; aa < 2; aa++)
		  if  (T0->tpe[aa] && T0->tpe[aa] != j)
		  {	printf("warning: line %d ", srcln[i]);
			printf("[%d-%d] mixed %stion ",
				T0->tpe[aa], j, 
				(j==5*DELTA)?"condi":"selec");
			printf("(defeats reduction)\n");
			printf("	'%s' <-> '%s'\n",
				T1->tp, T0->tp);
			goto degrade;
		} }
	}
#endif
	for (i = 1; i < m; i++)
	{	T2 = trans[n][i];
		if (!T2
		||  T2->nxt
		||  strncmp(T2->tp, ".(goto)", 7)
		||  !stopstate[n][i])
			continue;
		stopstate[n][T2->st] = 1;
	}
	if (state_tables && !verbose)
	{	if (dodot)
		{	char buf[256], *q = buf, *p = procname[n];
			while (*p != '\0')
			{	if (*p != ':')
				{	*q++ = *p;
				}
				p++;
			}
			*q = '\0';
			printf("digraph ");
			switch (Btypes[n]) {
			case I_PROC:  printf("init {\n"); break;
			case N_CLAIM: printf("claim_%s {\n", buf); break;
			case E_TRACE: printf("notrace {\n"); break;
			case N_TRACE: printf("trace {\n"); break;
			default:      printf("p_%s {\n", buf); break;
			}
			printf("size=\"8,10\";\n");
			printf("  GT [shape=box,style=dotted,label=\"%s\"];\n", buf);
			printf("  GT -> S%d;\n", is);
		} else
		{	switch (Btypes[n]) {
			case I_PROC:  printf("init\n"); break;
			case N_CLAIM: printf("claim %s\n", procname[n]); break;
			case E_TRACE: printf("notrace assertion\n"); break;
			case N_TRACE: printf("trace assertion\n"); break;
			default:      printf("proctype %s\n", procname[n]); break;
		}	}
		for (i = 1; i < m; i++)
		{	reach[i] = 1;
		}
		tagtable(n, m, is, srcln, reach);
		if (dodot) printf("}\n");
	} else
	for (i = 1; i < m; i++)
	{	int nrelse;
		if (Btypes[n] != N_CLAIM)
		{	for (T0 = trans[n][i]; T0; T0 = T0->nxt)
			{	if (T0->st == i
				&& strcmp(T0->tp, "(1)") == 0)
				{	printf("error: proctype '%s' ",
						procname[n]);
		  			printf("line %d, state %d: has un",
						srcln[i], i);
					printf("conditional self-loop\n");
					pan_exit(1);
		}	}	}
		nrelse = 0;
		for (T0 = trans[n][i]; T0; T0 = T0->nxt)
		{	if (strcmp(T0->tp, "else") == 0)
				nrelse++;
		}
		if (nrelse > 1)
		{	printf("error: proctype '%s' state",
				procname[n]);
		  	printf(" %d, inherits %d", i, nrelse);
		  	printf(" 'else' stmnts\n");
			pan_exit(1);
	}	}
#if !defined(LOOPSTATE) && !defined(BFS_PAR)
	if (state_tables)
#endif
	do_dfs(n, m, is, srcln, reach, lpstate);

	if (!t_reverse)
	{	return;
	}
	/* process n, with m states, is=initial state -- reverse list */
	if (!state_tables && Btypes[n] != N_CLAIM)
	{	for (i = 1; i < m; i++)
		{	Trans *Tx = (Trans *) 0; /* list of escapes */
			Trans *Ty = (Trans *) 0; /* its tail element */
			T1 = (Trans *) 0; /* reversed list */
			T2 = (Trans *) 0; /* its tail */
			T3 = (Trans *) 0; /* remembers possible 'else' */

			/* find unless-escapes, they should go first */
			T4 = T5 = T0 = trans[n][i];
	#ifdef HAS_UNLESS
			while (T4 && T4->e_trans) /* escapes are first in orig list */
			{	T5 = T4;	  /* remember predecessor */
				T4 = T4->nxt;
			}
	#endif
			/* T4 points to first non-escape, T5 to its parent, T0 to original list */
			if (T4 != T0)		 /* there was at least one escape */
			{	T3 = T5->nxt;		 /* start of non-escapes */
				T5->nxt = (Trans *) 0;	 /* separate */
				Tx = T0;		 /* start of the escapes */
				Ty = T5;		 /* its tail */
				T0 = T3;		 /* the rest, to be reversed */
			}
			/* T0 points to first non-escape, Tx to the list of escapes, Ty to its tail */

			/* first tail-add non-escape transitions, reversed */
			T3 = (Trans *) 0;
			for (T5 = T0; T5; T5 = T4)
			{	T4 = T5->nxt;
	#ifdef HAS_UNLESS
				if (T5->e_trans)
				{	printf("error: cannot happen!\n");
					continue;
				}
	#endif
				if (strcmp(T5->tp, "else") == 0)
				{	T3 = T5;
					T5->nxt = (Trans *) 0;
				} else
				{	T5->nxt = T1;
					if (!T1) { T2 = T5; }
					T1 = T5;
			}	}
			/* T3 points to a possible else, which is removed from the list */
			/* T1 points to the reversed list so far (without escapes) */
			/* T2 points to the tail element -- where the else should go */
			if (T2 && T3)
			{	T2->nxt = T3;	/* add else */
			} else
			{	if (T3) /* there was an else, but there's no tail */
				{	if (!T1)	/* and no reversed list */
					{	T1 = T3; /* odd, but possible */
					} else		/* even stranger */
					{	T1->nxt = T3;
			}	}	}

			/* add in the escapes, to that they appear at the front */
			if (Tx && Ty) { Ty->nxt = T1; T1 = Tx; }

			trans[n][i] = T1;
			/* reversed, with escapes first and else last */
	}	}
	if (state_tables && verbose)
	{	printf("FINAL proctype %s\n", 
			procname[n]);
		for (i = 1; i < m; i++)
		for (T0 = trans[n][i]; T0; T0 = T0->nxt)
			crack(n, i, T0, srcln);
	}
}
void
imed(Trans *T, int v, int n, int j)	/* set intermediate state */
{	progstate[n][T->st] |= progstate[n][v];
	accpstate[n][T->st] |= accpstate[n][v];
	stopstate[n][T->st] |= stopstate[n][v];
	mapstate[n][j] = T->st;
}
void
tagtable(int n, int m, int is, short srcln[], uchar reach[])
{	Trans *z;

	if (is >= m || !trans[n][is]
	||  is <= 0 || reach[is] == 0)
		return;
	reach[is] = 0;
	if (state_tables)
	for (z = trans[n][is]; z; z = z->nxt)
	{	if (dodot)
			dot_crack(n, is, z);
		else
			crack(n, is, z, srcln);
	}

	for (z = trans[n][is]; z; z = z->nxt)
	{
#ifdef HAS_UNLESS
		int i, j;
#endif
		tagtable(n, m, z->st, srcln, reach);
#ifdef HAS_UNLESS
		for (i = 0; i < HAS_UNLESS; i++)
		{	j = trans[n][is]->escp[i];
			if (!j) break;
			tagtable(n, m, j, srcln, reach);
		}
#endif
	}
}

extern Trans *t_id_lkup[];

void
dfs_table(int n, int m, int is, short srcln[], uchar reach[], uchar lpstate[])
{	Trans *z;

	if (is >= m || is <= 0 || !trans[n][is])
		return;
	if ((reach[is] & (4|8|16)) != 0)
	{	if ((reach[is] & (8|16)) == 16)	/* on stack, not yet recorded */
		{	lpstate[is] = 1;
			reach[is] |= 8; /* recorded */
			if (state_tables && verbose)
			{	printf("state %d line %d is a loopstate\n", is, srcln[is]);
		}	}
		return;
	}
	reach[is] |= (4|16);	/* visited | onstack */
	for (z = trans[n][is]; z; z = z->nxt)
	{	t_id_lkup[z->t_id] = z;
#ifdef HAS_UNLESS
		int i, j;
#endif
		dfs_table(n, m, z->st, srcln, reach, lpstate);
#ifdef HAS_UNLESS
		for (i = 0; i < HAS_UNLESS; i++)
		{	j = trans[n][is]->escp[i];
			if (!j) break;
			dfs_table(n, m, j, srcln, reach, lpstate);
		}
#endif
	}
	reach[is] &= ~16; /* no longer on stack */
}
void
do_dfs(int n, int m, int is, short srcln[], uchar reach[], uchar lpstate[])
{	int i;
	dfs_table(n, m, is, srcln, reach, lpstate);
	for (i = 0; i < m; i++)
		reach[i] &= ~(4|8|16);
}
void
crack(int n, int j, Trans *z, short srcln[])
{	int i;

	if (!z) return;
	printf("	state %3d -(tr %3d)-> state %3d  ",
		j, z->forw, z->st);
	printf("[id %3d tp %3d", z->t_id, z->tpe[0]);
	if (z->tpe[1]) printf(",%d", z->tpe[1]);
#ifdef HAS_UNLESS
	if (z->e_trans)
		printf(" org %3d", z->e_trans);
	else if (state_tables >= 2)
	for (i = 0; i < HAS_UNLESS; i++)
	{	if (!z->escp[i]) break;
		printf(" esc %d", z->escp[i]);
	}
#endif
	printf("]");
	printf(" [%s%s%s%s%s] %s:%d => ",
		z->atom&6?"A":z->atom&32?"D":"-",
		accpstate[n][j]?"a" :"-",
		stopstate[n][j]?"e" : "-",
		progstate[n][j]?"p" : "-",
		z->atom & 8 ?"L":"G",
		PanSource, srcln[j]);
	for (i = 0; z->tp[i]; i++)
		if (z->tp[i] == '\n')
			printf("\\n");
		else
			putchar(z->tp[i]);
	if (verbose && z->qu[0])
	{	printf("\t[");
		for (i = 0; i < 6; i++)
			if (z->qu[i])
				printf("(%d,%d)",
				z->qu[i], z->ty[i]);
		printf("]");
	}
	printf("\n");
	fflush(stdout);
}
/* spin -a m.pml; cc -o pan pan.c; ./pan -D | dot -Tps > foo.ps; ps2pdf foo.ps */
void
dot_crack(int n, int j, Trans *z)
{	int i;

	if (!z) return;
	printf("	S%d -> S%d  [color=black", j, z->st);

	if (z->atom&6) printf(",style=dashed");
	else if (z->atom&32) printf(",style=dotted");
	else if (z->atom&8) printf(",style=solid");
	else printf(",style=bold");

	printf(",label=\"");
	for (i = 0; z->tp[i]; i++)
	{	if (z->tp[i] == '\\'
		&&  z->tp[i+1] == 'n')
		{	i++; printf(" ");
		} else
		{	putchar(z->tp[i]);
	}	}
	printf("\"];\n");
	if (accpstate[n][j]) printf("  S%d [color=red,style=bold];\n", j);
	else if (progstate[n][j]) printf("  S%d [color=green,style=bold];\n", j);
	if (stopstate[n][j]) printf("  S%d [color=blue,style=bold,shape=box];\n", j);
}

#ifdef VAR_RANGES
#define BYTESIZE	32	/* 2^8 : 2^3 = 256:8 = 32 */

typedef struct Vr_Ptr {
	char	*nm;
	uchar	vals[BYTESIZE];
	struct Vr_Ptr *nxt;
} Vr_Ptr;
Vr_Ptr *ranges = (Vr_Ptr *) 0;

void
logval(char *s, int v)
{	Vr_Ptr *tmp;

	if (v<0 || v > 255) return;
	for (tmp = ranges; tmp; tmp = tmp->nxt)
		if (!strcmp(tmp->nm, s))
			goto found;
	tmp = (Vr_Ptr *) emalloc(sizeof(Vr_Ptr));
	tmp->nxt = ranges;
	ranges = tmp;
	tmp->nm = s;
found:
	tmp->vals[(v)/8] |= 1<<((v)%8);
}

void
dumpval(uchar X[], int range)
{	int w, x, i, j = -1;

	for (w = i = 0; w < range; w++)
	for (x = 0; x < 8; x++, i++)
	{
from:		if ((X[w] & (1<<x)))
		{	printf("%d", i);
			j = i;
			goto upto;
	}	}
	return;
	for (w = 0; w < range; w++)
	for (x = 0; x < 8; x++, i++)
	{
upto:		if (!(X[w] & (1<<x)))
		{	if (i-1 == j)
				printf(", ");
			else
				printf("-%d, ", i-1);
			goto from;
	}	}
	if (j >= 0 && j != 255)
		printf("-255");
}

void
dumpranges(void)
{	Vr_Ptr *tmp;
	printf("\nValues assigned within ");
	printf("interval [0..255]:\n");
	for (tmp = ranges; tmp; tmp = tmp->nxt)
	{	printf("\t%s\t: ", tmp->nm);
		dumpval(tmp->vals, BYTESIZE);
		printf("\n");
	}
}
#endif
