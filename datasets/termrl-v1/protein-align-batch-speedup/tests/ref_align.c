/* The tests' own Gotoh local alignment: the recurrence of local_align() in the original program
   (checked against the original on small inputs in every test run). */
int ref_align(const int *a, int n, const int *b, int m, const int *sc, int k, int gap_open,
              int gap_extend, int *h_prev, int *f_prev, int *h_cur, int *f_cur, int *out)
{
    const int neg = -(1 << 30);
    int best = 0, bi = 0, bj = 0;
    for (int j = 0; j <= m; j++) { h_prev[j] = 0; f_prev[j] = neg; }
    for (int i = 1; i <= n; i++) {
        const int *row = sc + a[i - 1] * k;
        int e = neg;
        h_cur[0] = 0; f_cur[0] = neg;
        for (int j = 1; j <= m; j++) {
            int x = e - gap_extend, y = h_cur[j - 1] - gap_open;
            e = x > y ? x : y;
            x = f_prev[j] - gap_extend; y = h_prev[j] - gap_open;
            int f = x > y ? x : y;
            int h = h_prev[j - 1] + row[b[j - 1]];
            if (h < 0) h = 0;
            if (e > h) h = e;
            if (f > h) h = f;
            h_cur[j] = h; f_cur[j] = f;
            if (h > best) { best = h; bi = i; bj = j; }
        }
        int *t = h_prev; h_prev = h_cur; h_cur = t;
        t = f_prev; f_prev = f_cur; f_cur = t;
    }
    out[0] = best; out[1] = bi; out[2] = bj;
    return 0;
}
