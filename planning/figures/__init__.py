"""Every amount a person or a program reads: one occurrence expansion, one summing."""
