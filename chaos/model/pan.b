	switch (t->back) {
	default: Uerror("bad return move");
	case  0: goto R999; /* nothing to undo */

		 /* PROC world */
	case 3: // STATE 5
		sv_restor();
		goto R999;

	case 4: // STATE 7
		;
		now.n0 = trpt->bup.oval;
		;
		goto R999;

	case 5: // STATE 9
		;
		now.n0 = trpt->bup.oval;
		;
		goto R999;

	case 6: // STATE 11
		;
		now.n0 = trpt->bup.oval;
		;
		goto R999;

	case 7: // STATE 16
		;
		now.n1 = trpt->bup.oval;
		;
		goto R999;

	case 8: // STATE 18
		;
		now.n1 = trpt->bup.oval;
		;
		goto R999;

	case 9: // STATE 20
		;
		now.n1 = trpt->bup.oval;
		;
		goto R999;

	case 10: // STATE 25
		;
		now.n2 = trpt->bup.oval;
		;
		goto R999;

	case 11: // STATE 27
		;
		now.n2 = trpt->bup.oval;
		;
		goto R999;

	case 12: // STATE 29
		;
		now.n2 = trpt->bup.oval;
		;
		goto R999;

	case 13: // STATE 34
		;
		now.n3 = trpt->bup.oval;
		;
		goto R999;
;
		
	case 14: // STATE 40
		goto R999;

	case 15: // STATE 36
		;
		now.n3 = trpt->bup.oval;
		;
		goto R999;

	case 16: // STATE 38
		;
		now.n3 = trpt->bup.oval;
		;
		goto R999;
	case 17: // STATE 234
		sv_restor();
		goto R999;
	case 18: // STATE 271
		sv_restor();
		goto R999;
	case 19: // STATE 307
		sv_restor();
		goto R999;
	case 20: // STATE 343
		sv_restor();
		goto R999;
	case 21: // STATE 377
		sv_restor();
		goto R999;
	case 22: // STATE 412
		sv_restor();
		goto R999;
	case 23: // STATE 421
		sv_restor();
		goto R999;
	case 24: // STATE 457
		sv_restor();
		goto R999;
	case 25: // STATE 493
		sv_restor();
		goto R999;
	case 26: // STATE 529
		sv_restor();
		goto R999;
	case 27: // STATE 563
		sv_restor();
		goto R999;
	case 28: // STATE 598
		sv_restor();
		goto R999;
	case 29: // STATE 607
		sv_restor();
		goto R999;
	case 30: // STATE 610
		sv_restor();
		goto R999;
	case 31: // STATE 613
		sv_restor();
		goto R999;
	case 32: // STATE 616
		sv_restor();
		goto R999;
	case 33: // STATE 619
		sv_restor();
		goto R999;
	case 34: // STATE 685
		sv_restor();
		goto R999;
	case 35: // STATE 752
		sv_restor();
		goto R999;
	case 36: // STATE 755
		sv_restor();
		goto R999;
	case 37: // STATE 821
		sv_restor();
		goto R999;
	case 38: // STATE 888
		sv_restor();
		goto R999;
	case 39: // STATE 891
		sv_restor();
		goto R999;
	case 40: // STATE 957
		sv_restor();
		goto R999;
	case 41: // STATE 1024
		sv_restor();
		goto R999;
	case 42: // STATE 1027
		sv_restor();
		goto R999;
	case 43: // STATE 1093
		sv_restor();
		goto R999;
	case 44: // STATE 1160
		sv_restor();
		goto R999;
	case 45: // STATE 1163
		sv_restor();
		goto R999;
	case 46: // STATE 1229
		sv_restor();
		goto R999;
	case 47: // STATE 1296
		sv_restor();
		goto R999;
	case 48: // STATE 1299
		sv_restor();
		goto R999;
	case 49: // STATE 1365
		sv_restor();
		goto R999;
	case 50: // STATE 1432
		sv_restor();
		goto R999;
	case 51: // STATE 1435
		sv_restor();
		goto R999;
	case 52: // STATE 1501
		sv_restor();
		goto R999;
	case 53: // STATE 1568
		sv_restor();
		goto R999;
	case 54: // STATE 1571
		sv_restor();
		goto R999;
	case 55: // STATE 1637
		sv_restor();
		goto R999;
	case 56: // STATE 1704
		sv_restor();
		goto R999;
	case 57: // STATE 1707
		sv_restor();
		goto R999;
	case 58: // STATE 1773
		sv_restor();
		goto R999;
	case 59: // STATE 1840
		sv_restor();
		goto R999;
	case 60: // STATE 1843
		sv_restor();
		goto R999;
	case 61: // STATE 1909
		sv_restor();
		goto R999;
	case 62: // STATE 1976
		sv_restor();
		goto R999;
	case 63: // STATE 1979
		sv_restor();
		goto R999;
	case 64: // STATE 2045
		sv_restor();
		goto R999;
	case 65: // STATE 2112
		sv_restor();
		goto R999;
	case 66: // STATE 2115
		sv_restor();
		goto R999;
	case 67: // STATE 2181
		sv_restor();
		goto R999;
	case 68: // STATE 2248
		sv_restor();
		goto R999;
	case 69: // STATE 2251
		sv_restor();
		goto R999;
	case 70: // STATE 2317
		sv_restor();
		goto R999;
	case 71: // STATE 2384
		sv_restor();
		goto R999;
	case 72: // STATE 2387
		sv_restor();
		goto R999;
	case 73: // STATE 2453
		sv_restor();
		goto R999;
	case 74: // STATE 2520
		sv_restor();
		goto R999;
	case 75: // STATE 2523
		sv_restor();
		goto R999;
	case 76: // STATE 2589
		sv_restor();
		goto R999;
	case 77: // STATE 2656
		sv_restor();
		goto R999;
	case 78: // STATE 2659
		sv_restor();
		goto R999;
	case 79: // STATE 2725
		sv_restor();
		goto R999;
	case 80: // STATE 2792
		sv_restor();
		goto R999;
	case 81: // STATE 2795
		sv_restor();
		goto R999;
	case 82: // STATE 2898
		sv_restor();
		goto R999;
	case 83: // STATE 3002
		sv_restor();
		goto R999;
	case 84: // STATE 3005
		sv_restor();
		goto R999;
	case 85: // STATE 3108
		sv_restor();
		goto R999;
	case 86: // STATE 3212
		sv_restor();
		goto R999;
	case 87: // STATE 3215
		sv_restor();
		goto R999;
	case 88: // STATE 3318
		sv_restor();
		goto R999;
	case 89: // STATE 3422
		sv_restor();
		goto R999;
	case 90: // STATE 3425
		sv_restor();
		goto R999;
	case 91: // STATE 3528
		sv_restor();
		goto R999;
	case 92: // STATE 3632
		sv_restor();
		goto R999;
	case 93: // STATE 3635
		sv_restor();
		goto R999;
	case 94: // STATE 3738
		sv_restor();
		goto R999;
	case 95: // STATE 3842
		sv_restor();
		goto R999;
	case 96: // STATE 3845
		sv_restor();
		goto R999;
	case 97: // STATE 3948
		sv_restor();
		goto R999;
	case 98: // STATE 4052
		sv_restor();
		goto R999;
	case 99: // STATE 4055
		sv_restor();
		goto R999;
	case 100: // STATE 4158
		sv_restor();
		goto R999;
	case 101: // STATE 4262
		sv_restor();
		goto R999;
	case 102: // STATE 4265
		sv_restor();
		goto R999;
	case 103: // STATE 4368
		sv_restor();
		goto R999;
	case 104: // STATE 4472
		sv_restor();
		goto R999;
	case 105: // STATE 4475
		sv_restor();
		goto R999;
	case 106: // STATE 4578
		sv_restor();
		goto R999;
	case 107: // STATE 4682
		sv_restor();
		goto R999;
	case 108: // STATE 4685
		sv_restor();
		goto R999;
	case 109: // STATE 4788
		sv_restor();
		goto R999;
	case 110: // STATE 4892
		sv_restor();
		goto R999;
	case 111: // STATE 4895
		sv_restor();
		goto R999;
	case 112: // STATE 4998
		sv_restor();
		goto R999;
	case 113: // STATE 5102
		sv_restor();
		goto R999;
	case 114: // STATE 5105
		sv_restor();
		goto R999;
	case 115: // STATE 5208
		sv_restor();
		goto R999;
	case 116: // STATE 5312
		sv_restor();
		goto R999;
	case 117: // STATE 5315
		sv_restor();
		goto R999;
	case 118: // STATE 5418
		sv_restor();
		goto R999;
	case 119: // STATE 5522
		sv_restor();
		goto R999;
	case 120: // STATE 5525
		sv_restor();
		goto R999;
	case 121: // STATE 5628
		sv_restor();
		goto R999;
	case 122: // STATE 5732
		sv_restor();
		goto R999;
	case 123: // STATE 5735
		sv_restor();
		goto R999;
	case 124: // STATE 5838
		sv_restor();
		goto R999;
	case 125: // STATE 5942
		sv_restor();
		goto R999;
	case 126: // STATE 5945
		sv_restor();
		goto R999;
	case 127: // STATE 6048
		sv_restor();
		goto R999;
	case 128: // STATE 6152
		sv_restor();
		goto R999;
	case 129: // STATE 6155
		sv_restor();
		goto R999;

	case 130: // STATE 6159
		;
		p_restor(II);
		;
		;
		goto R999;
	}

