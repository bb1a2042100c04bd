"""Bouncing ball with quadratic air drag.

Usage: python3 bounce.py H0 K C N
"""
import sys

G = 9.81


def main():
    h0, k, c, n = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    t, y, v = 0.0, h0, 0.0
    dt = 1e-3
    bounces = 0
    apex = None
    while bounces < n:
        a = -G - k * v * abs(v)
        v += a * dt
        y += v * dt
        t += dt
        if y <= 0 and v < 0:
            y = 0.0
            v = -c * v
            if bounces:
                print(f"{t_prev:.12g} {apex:.12g}")
            t_prev, apex = t, 0.0
            bounces += 1
        if apex is not None:
            apex = max(apex, y)
    print(f"{t_prev:.12g} {apex:.12g}")


main()
