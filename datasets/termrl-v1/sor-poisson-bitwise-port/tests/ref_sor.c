/* The tests' own fast SOR sweep: the same arithmetic, in the same order, as sor() in the
   original program (checked against the original on small problems in every test run). */
#include <math.h>
int ref_sor(double *u, const double *f, int nx, int ny, double h, double omega, double tol,
            int max_iter, int *converged, double *change_out)
{
    const int w = nx + 2;
    const double h2 = h * h;
    double change = 0.0;
    int it = 0;
    while (it < max_iter) {
        it++;
        change = 0.0;
        for (int j = 1; j <= ny; j++) {
            double *row = u + (long)j * w, *below = row - w, *above = row + w;
            const double *fr = f + (long)j * w;
            for (int i = 1; i <= nx; i++) {
                double gs = 0.25 * (row[i - 1] + row[i + 1] + below[i] + above[i] + h2 * fr[i]);
                double d = omega * (gs - row[i]);
                row[i] = row[i] + d;
                double a = fabs(d);
                if (a > change) change = a;
            }
        }
        if (change < tol) { *converged = 1; *change_out = change; return it; }
    }
    *converged = 0;
    *change_out = change;
    return it;
}
